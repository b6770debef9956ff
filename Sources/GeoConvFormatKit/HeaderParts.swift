public import GeoConvCore

/// The parts of a document's header a format can hold (`FormatCapabilities.holdsHeader`).
public struct HeaderParts: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    /// Creates a set of parts from its raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The document's name.
    public static let name = HeaderParts(rawValue: 1 << 0)
    /// The document's description.
    public static let description = HeaderParts(rawValue: 1 << 1)
    /// The document's view (KML's LookAt/Camera).
    public static let camera = HeaderParts(rawValue: 1 << 2)
    /// Its tile layers.
    public static let tileLayers = HeaderParts(rawValue: 1 << 3)
    /// Its other members (GeoJSON's foreign members, KML's and GPX's extras), every one.
    public static let members = HeaderParts(rawValue: 1 << 4)
    /// Everything a header holds.
    public static let all: HeaderParts = [.name, .description, .camera, .tileLayers, .members]
}

extension DocumentHeader {
    /// What of this header `format` cannot hold: the parts, and the members it drops (those
    /// it holds neither as `members` nor by name, `heldDocumentMembers`).
    public func partsUnheld(by format: FileFormat) -> (parts: HeaderParts, members: [String]) {
        let holds = format.capabilities.holdsHeader
        var parts: HeaderParts = []
        if !holds.contains(.name), name != nil { parts.insert(.name) }
        if !holds.contains(.description), description != nil { parts.insert(.description) }
        if !holds.contains(.camera), camera != nil { parts.insert(.camera) }
        if !holds.contains(.tileLayers), !tileLayers.isEmpty { parts.insert(.tileLayers) }
        var members: [String] = []
        if !holds.contains(.members) {
            members = foreignMembers.keys.filter { !format.capabilities.heldDocumentMembers.contains($0) }
            if !members.isEmpty { parts.insert(.members) }
        }
        return (parts, members)
    }

    /// Whether `format` holds everything of a header that `partsUnheld` found dropped.
    public static func holds(_ format: FileFormat, _ unheld: (parts: HeaderParts, members: [String])) -> Bool {
        let holds = format.capabilities.holdsHeader
        guard holds.isSuperset(of: unheld.parts.subtracting(.members)) else { return false }
        return holds.contains(.members) || unheld.members.allSatisfy(format.capabilities.heldDocumentMembers.contains)
    }

    /// This header without what `format` cannot hold (`partsUnheld(by:)`), reporting what is
    /// dropped with one warning, `document.parts-dropped`; `keptBy` names the formats that
    /// hold all of it (the converter knows them; a writer used alone does not). The
    /// converter drops these parts before the writer (`DropHeaderParts`); a writer calls it
    /// in `begin` for the callers that use it alone, and then finds nothing left to drop.
    public func droppingParts(
        unheldBy format: FileFormat, keptBy: [String] = [], diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> DocumentHeader {
        let (parts, members) = partsUnheld(by: format)
        guard !parts.isEmpty else { return self }
        var result = self
        // Each part named, and whether the sentence's subject is plural.
        var named: [String] = []
        var plural = false
        if parts.contains(.name) {
            named.append("name")
            result.name = nil
        }
        if parts.contains(.description) {
            named.append("description")
            result.description = nil
        }
        if parts.contains(.camera) {
            named.append("view (LookAt/Camera)")
            result.camera = nil
        }
        if parts.contains(.tileLayers) {
            named.append(tileLayers.count == 1 ? "tile layer" : "\(tileLayers.count) tile layers")
            plural = plural || tileLayers.count > 1
            result.tileLayers = []
        }
        if parts.contains(.members) {
            let listed = members.prefix(5).joined(separator: ", ") + (members.count > 5 ? ", …" : "")
            named.append("member\(members.count == 1 ? "" : "s") \(listed)")
            plural = plural || members.count > 1
            for key in members { result.foreignMembers.removeValue(forKey: key) }
        }
        plural = plural || named.count > 1
        let subject =
            named.count == 1 ? named[0] : named.dropLast().joined(separator: ", ") + " and " + named[named.count - 1]
        try diagnostics.warn(
            WritingCode.documentPartsDropped,
            "the document's \(subject) \(plural ? "have" : "has") no place in \(format.name) and "
                + "\(plural ? "are" : "is") not written",
            hint: keptBy.isEmpty ? nil : "write \(keptBy.joined(separator: " or ")) to keep them")
        return result
    }
}

extension DocumentHeader {
    /// Reports the document's embedded files as dropped by a writer that cannot hold them;
    /// `keptBy` names the formats that could keep them (the converter knows them, through
    /// the formats' `holdsEmbeddedFiles`; a writer alone does not).
    public func reportEmbeddedFilesDropped(
        by format: String, keptBy: [String] = [], diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        guard let files = embeddedFiles, !files.paths.isEmpty else { return }
        let listed = files.paths.prefix(3).joined(separator: ", ") + (files.paths.count > 3 ? ", …" : "")
        let keep = keptBy.isEmpty ? "" : "write \(keptBy.joined(separator: " or ")) to keep them, or "
        try diagnostics.warn(
            WritingCode.embeddedFilesDropped,
            "\(files.paths.count) file(s) carried inside the input (\(listed)) are not written: \(format) cannot hold them; references to them stay relative paths",
            hint: keep + "unzip the input next to the output")
    }
}
