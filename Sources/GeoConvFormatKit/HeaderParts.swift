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
    /// This header without what `format` cannot hold (`holdsHeader`, and the members it
    /// holds by name, `heldDocumentMembers`), reporting what is dropped with one warning,
    /// `document.parts-dropped`; `keptBy` names the formats that hold all of it (the
    /// converter knows them; a writer used alone does not). The converter drops these
    /// parts before the writer (`DropHeaderParts`); a writer calls it in `begin` for the
    /// callers that use it alone, and then finds nothing left to drop.
    public func droppingParts(
        unheldBy format: FileFormat, keptBy: [String] = [], diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> DocumentHeader {
        let holds = format.capabilities.holdsHeader
        let heldMembers = format.capabilities.heldDocumentMembers
        var result = self
        var dropped: [String] = []
        if !holds.contains(.name), name != nil {
            dropped.append("name")
            result.name = nil
        }
        if !holds.contains(.description), description != nil {
            dropped.append("description")
            result.description = nil
        }
        if !holds.contains(.camera), camera != nil {
            dropped.append("view (LookAt/Camera)")
            result.camera = nil
        }
        if !holds.contains(.tileLayers), !tileLayers.isEmpty {
            dropped.append(tileLayers.count == 1 ? "tile layer" : "\(tileLayers.count) tile layers")
            result.tileLayers = []
        }
        if !holds.contains(.members) {
            let members = foreignMembers.keys.filter { !heldMembers.contains($0) }
            if !members.isEmpty {
                let listed = members.prefix(5).joined(separator: ", ") + (members.count > 5 ? ", …" : "")
                dropped.append("member\(members.count == 1 ? "" : "s") \(listed)")
                for key in members { result.foreignMembers.removeValue(forKey: key) }
            }
        }
        guard !dropped.isEmpty else { return self }
        let parts =
            dropped.count == 1
            ? dropped[0] : dropped.dropLast().joined(separator: ", ") + " and " + dropped[dropped.count - 1]
        try diagnostics.warn(
            "document.parts-dropped",
            "the document's \(parts) \(dropped.count == 1 ? "has" : "have") no place in \(format.name) and "
                + "\(dropped.count == 1 ? "is" : "are") not written",
            hint: keptBy.isEmpty ? nil : "write \(keptBy.joined(separator: " or ")) to keep them")
        return result
    }
}
