import Foundation
public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO
import ZIPFoundation

/// Limits against zip bombs when reading KMZ.
public struct KMZLimits: Hashable, Sendable {
    /// The largest KML entry accepted, uncompressed.
    public var maximumEntryBytes: UInt64
    /// The largest expansion accepted: uncompressed bytes per compressed byte (checked once
    /// an entry passes 1 MiB, so small entries of repeated text pass).
    public var maximumRatio: UInt64

    /// Creates limits; the defaults are 1 GiB and 1000 : 1.
    public init(maximumEntryBytes: UInt64 = 1 << 30, maximumRatio: UInt64 = 1000) {
        self.maximumEntryBytes = maximumEntryBytes
        self.maximumRatio = maximumRatio
    }
}

/// Reading and writing KMZ: a zip archive whose main KML is `doc.kml` (or the first `.kml`
/// at the root). The archive is read from a temporary copy (a zip needs random access), the
/// KML entry is extracted to an unlinked temporary file and streamed through `KMLReader`,
/// so memory stays bounded; every entry is checked against `KMZLimits`.
public enum KMZ {
    /// Opens the main KML of a KMZ for reading, with a list of the archive's other entries.
    public static func openMainKML(
        _ input: ByteReader, limits: KMZLimits = KMZLimits()
    ) throws(GeoConvError)
        -> (kml: ByteReader, entry: String, otherEntries: [String], files: EmbeddedFiles)
    {
        let archiveFile = try TemporaryFile(suffix: ".kmz")
        try archiveFile.copy(from: input)
        let archive: Archive
        do {
            archive = try Archive(url: archiveFile.url, accessMode: .read)
        } catch {
            throw GeoConvError(
                .invalidInput, "'\(input.name)' is not a zip archive: \(error)",
                hint: "a KMZ is a zip file holding doc.kml; check the file is complete")
        }
        let entries = Array(archive)
        let kmlEntries = entries.filter { $0.type == .file && $0.path.lowercased().hasSuffix(".kml") }
        let atRoot = kmlEntries.filter { !$0.path.contains("/") }
        guard let main = atRoot.first(where: { $0.path.lowercased() == "doc.kml" }) ?? atRoot.first ?? kmlEntries.first
        else {
            throw GeoConvError(
                .invalidInput, "'\(input.name)' holds no .kml file",
                hint: "a KMZ must contain doc.kml (or another .kml) at its root")
        }
        guard main.uncompressedSize <= limits.maximumEntryBytes else {
            throw GeoConvError(
                .limitExceeded, "\(main.path) in '\(input.name)' would expand to \(main.uncompressedSize) bytes",
                hint: "geoconv accepts KML entries up to \(limits.maximumEntryBytes) bytes (docs/security.md)")
        }
        let kmlFile = try TemporaryFile(suffix: ".kml")
        var written: UInt64 = 0
        var overflow: GeoConvError?
        do {
            let handle = try FileHandle(forWritingTo: kmlFile.url)
            defer { try? handle.close() }
            let consume: Consumer = { chunk in
                written += UInt64(chunk.count)
                if written > limits.maximumEntryBytes || written > main.uncompressedSize
                    || (written > 1 << 20 && written > max(main.compressedSize, 1) * limits.maximumRatio)
                {
                    overflow = GeoConvError(
                        .limitExceeded,
                        "\(main.path) in '\(input.name)' expands beyond \(written) bytes from \(main.compressedSize) compressed (it declares \(main.uncompressedSize)): a zip bomb or a damaged archive",
                        hint:
                            "geoconv accepts at most \(limits.maximumEntryBytes) bytes and a \(limits.maximumRatio):1 expansion (docs/security.md)"
                    )
                    throw CancellationError()
                }
                try handle.write(contentsOf: chunk)
            }
            let range = try ZipLayout.dataRange(of: main.path, in: archiveFile.url)
            try extractBounded(main, range: range, archive: archiveFile.url, consumer: consume)
        } catch let error as GeoConvError {
            throw overflow ?? error
        } catch {
            if let overflow { throw overflow }
            throw GeoConvError(
                .invalidInput, "cannot extract \(main.path) from '\(input.name)': \(error)",
                hint: "the archive is damaged")
        }
        guard written == main.uncompressedSize else {
            throw GeoConvError(
                .invalidInput,
                "\(main.path) in '\(input.name)' holds \(written) bytes but declares \(main.uncompressedSize)",
                hint: "the archive is damaged")
        }
        let reader = try ByteReader(.file(kmlFile.url.path), displayName: input.name + "/" + main.path)
        kmlFile.remove()  // the reader keeps it open; nothing is left on disk
        let others = entries.filter { $0.path != main.path && $0.type == .file }.map(\.path)
        // The other entries are read from the archive copy when a KMZ writer asks for them;
        // the copy is removed when the last reference to them goes.
        let name = input.name
        let files = EmbeddedFiles(paths: others) { (path: String) throws -> [UInt8] in
            try KMZ.extract(path, from: archiveFile, archiveName: name, limits: limits)
        }
        return (reader, main.path, others, files)
    }

    /// One entry's bytes, checked against the limits like the main KML.
    static func extract(
        _ path: String, from archiveFile: TemporaryFile, archiveName: String, limits: KMZLimits
    ) throws(GeoConvError)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        do {
            let archive = try Archive(url: archiveFile.url, accessMode: .read)
            guard let entry = archive[path], entry.type == .file else {
                throw GeoConvError(.invalidInput, "\(path) is not a file in '\(archiveName)'")
            }
            guard entry.uncompressedSize <= limits.maximumEntryBytes else {
                throw GeoConvError(
                    .limitExceeded, "\(path) in '\(archiveName)' would expand to \(entry.uncompressedSize) bytes",
                    hint: "geoconv accepts entries up to \(limits.maximumEntryBytes) bytes (docs/security.md)")
            }
            let range = try ZipLayout.dataRange(of: entry.path, in: archiveFile.url)
            try extractBounded(entry, range: range, archive: archiveFile.url) { chunk in
                bytes.append(contentsOf: chunk)
                if UInt64(bytes.count) > entry.uncompressedSize {
                    throw GeoConvError(
                        .limitExceeded,
                        "\(path) in '\(archiveName)' expands beyond what it declares: a zip bomb or a damaged archive")
                }
            }
        } catch let error as GeoConvError {
            throw error
        } catch {
            throw GeoConvError(
                .invalidInput, "cannot extract \(path) from '\(archiveName)': \(error)", hint: "the archive is damaged")
        }
        return bytes
    }
}

/// Inflates (or copies) one entry's bytes from `range` of the archive, never reading past
/// it: ZIPFoundation's own loop spins forever on a deflate stream that does not end within
/// its entry (found by fuzzing), so the provider here throws instead of returning nothing.
private func extractBounded(_ entry: Entry, range: Range<UInt64>, archive: URL, consumer: Consumer) throws {
    let file = try FileHandle(forReadingFrom: archive)
    defer { try? file.close() }
    try file.seek(toOffset: range.lowerBound)
    let size = range.upperBound - range.lowerBound
    var remaining = size
    let provider: Provider = { _, chunkSize in
        guard remaining > 0 else {
            throw GeoConvError(
                .invalidInput, "\(entry.path): the compressed data ends before the deflate stream does",
                hint: "the archive is damaged")
        }
        let count = Int(min(UInt64(chunkSize), remaining))
        guard var data = try file.read(upToCount: count), data.count == count else {
            throw GeoConvError(
                .invalidInput, "\(entry.path): the archive ends inside the entry", hint: "the archive is truncated")
        }
        remaining -= UInt64(count)
        // ZIPFoundation's inflate loop tells zlib every chunk holds `chunkSize` bytes; a short
        // last chunk would let zlib read past it into whatever memory follows. Zeros after
        // the entry's bytes keep that read inside the buffer and the outcome deterministic.
        if data.count < chunkSize { data.append(Data(count: chunkSize - data.count)) }
        return data
    }
    let checksum: CRC32
    if entry.isCompressed {
        checksum = try Data.decompress(
            size: Int64(size), bufferSize: 1 << 16, skipCRC32: false, provider: provider, consumer: consumer)
    } else {
        var crc = CRC32(0)
        while remaining > 0 {
            let chunk = try provider(0, Int(min(remaining, 1 << 16)))
            crc = chunk.crc32(checksum: crc)
            try consumer(chunk)
        }
        checksum = crc
    }
    guard checksum == entry.checksum else {
        throw GeoConvError(
            .invalidInput, "\(entry.path): CRC-32 mismatch (the bytes are damaged)", hint: "the archive is damaged")
    }
}

/// Just enough of the zip layout to find where an entry's data lies: the end-of-central-
/// directory record, the central directory entry's local header offset, and the local
/// header's variable lengths. Anything inconsistent is an error, and so is ZIP64 (which
/// ZIPFoundation would read through the unbounded loops above; no real KMZ needs it).
enum ZipLayout {
    static func zip64(_ path: String) -> GeoConvError {
        GeoConvError(
            .unsupported, "\(path) is stored in ZIP64 form, which geoconv does not read in KMZ files",
            hint: "re-zip the KMZ without ZIP64 (a KMZ's KML is at most 1 GiB; `zip -fz- doc.kmz doc.kml`)")
    }

    static func damaged(_ what: String) -> GeoConvError {
        GeoConvError(
            .invalidInput, "the zip structure is damaged: \(what)", hint: "the archive is damaged or truncated")
    }

    static func dataRange(of path: String, in url: URL) throws -> Range<UInt64> {
        let file = try FileHandle(forReadingFrom: url)
        defer { try? file.close() }
        let fileSize = try file.seekToEnd()
        let tailLength = min(fileSize, 22 + 65_535)
        try file.seek(toOffset: fileSize - tailLength)
        let tail = Array(try file.readToEnd() ?? Data())
        guard tail.count >= 22 else { throw damaged("no end-of-central-directory record") }
        var eocd: Int?
        var i = tail.count - 22
        while i >= 0 {
            if tail[i] == 0x50, tail[i + 1] == 0x4B, tail[i + 2] == 0x05, tail[i + 3] == 0x06 {
                eocd = i
                break
            }
            i -= 1
        }
        guard let e = eocd else { throw damaged("no end-of-central-directory record") }
        let count = Int(le16(tail, e + 10))
        let directorySize = UInt64(le32(tail, e + 12))
        let directoryOffset = UInt64(le32(tail, e + 16))
        if count == 0xFFFF || directoryOffset == 0xFFFF_FFFF || directorySize == 0xFFFF_FFFF { throw zip64(path) }
        guard directoryOffset + directorySize <= fileSize else {
            throw damaged("the central directory lies beyond the end of the file")
        }
        try file.seek(toOffset: directoryOffset)
        let directory = Array(try file.read(upToCount: Int(directorySize)) ?? Data())
        let wanted = Array(path.utf8)
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= directory.count, le32(directory, p) == 0x0201_4B50 else {
                throw damaged(
                    "central directory entry at offset \(directoryOffset + UInt64(p)) is cut or has no signature")
            }
            let method = le16(directory, p + 10)
            let compressed = UInt64(le32(directory, p + 20))
            let nameLength = Int(le16(directory, p + 28))
            let extraLength = Int(le16(directory, p + 30))
            let commentLength = Int(le16(directory, p + 32))
            let localOffset = UInt64(le32(directory, p + 42))
            guard p + 46 + nameLength <= directory.count else {
                throw damaged("a file name runs past the central directory")
            }
            if Array(directory[(p + 46)..<(p + 46 + nameLength)]) == wanted {
                if compressed == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF { throw zip64(path) }
                guard method == 0 || method == 8 else {
                    throw GeoConvError(
                        .unsupported,
                        "\(path) uses zip compression method \(method); KMZ readers support stored (0) and deflate (8)",
                        hint: "re-zip the KMZ with ordinary deflate compression")
                }
                guard localOffset + 30 <= fileSize else {
                    throw damaged("\(path)'s local header lies beyond the end of the file")
                }
                try file.seek(toOffset: localOffset)
                let local = Array(try file.read(upToCount: 30) ?? Data())
                guard local.count == 30, le32(local, 0) == 0x0403_4B50 else {
                    throw damaged("\(path) has no local header where the directory says")
                }
                let start = localOffset + 30 + UInt64(le16(local, 26)) + UInt64(le16(local, 28))
                guard start + compressed <= fileSize else {
                    throw GeoConvError(
                        .invalidInput, "\(path) claims \(compressed) compressed bytes beyond the end of the archive",
                        hint: "the archive is truncated")
                }
                return start..<(start + compressed)
            }
            p += 46 + nameLength + extraLength + commentLength
        }
        throw damaged("\(path) is not in the central directory under that name")
    }

    private static func le16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    private static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
}

/// A uniquely named temporary file, removed when no longer needed.
///
/// Sendable: after `init` only `remove()` changes it, and that runs once, from its one
/// owner or from `deinit`.
final class TemporaryFile: @unchecked Sendable {
    let url: URL
    private var removed = false

    init(suffix: String) throws(GeoConvError) {
        let directory = FileManager.default.temporaryDirectory
        url = directory.appendingPathComponent("geoconv-\(UUID().uuidString)\(suffix)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw GeoConvError(
                .io, "cannot create a temporary file in \(directory.path)", hint: "set TMPDIR to a writable directory")
        }
    }

    deinit { remove() }

    func remove() {
        guard !removed else { return }
        removed = true
        try? FileManager.default.removeItem(at: url)
    }

    /// Copies all of `input` into the file.
    func copy(from input: ByteReader) throws(GeoConvError) {
        let handle: FileHandle
        do {
            handle = try FileHandle(forWritingTo: url)
        } catch {
            throw GeoConvError(.io, "cannot write a temporary file: \(error)")
        }
        defer { try? handle.close() }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n = try input.read(into: chunk)
            if n == 0 { return }
            do {
                try handle.write(contentsOf: Data(bytes: chunk.baseAddress!, count: n))
            } catch {
                throw GeoConvError(
                    .io, "cannot write a temporary file: \(error)", hint: "free some disk space or set TMPDIR")
            }
        }
    }
}

/// Reads a KMZ: the main KML entry through `KMLReader`.
public struct KMZReader: FeatureReader {
    private var kml: KMLReader
    private let otherEntries: [String]
    private let files: EmbeddedFiles
    /// Every entry, the KML files included.
    private let linkedFiles: EmbeddedFiles
    private let diagnostics: DiagnosticLog
    private let options: KMLReadOptions
    private let archiveName: String
    private var checkedIcons: Set<String> = []
    /// KML files of the archive that NetworkLinks lead to, being read (innermost last).
    private var linked: [(reader: KMLReader, path: String, folder: [JSONValue])] = []
    private var followedLinks = 0
    private var lastLinkedLocation: SourceLocation?
    /// The archive's KML files besides the main one, and those a NetworkLink led to.
    private let linkableEntries: [String]
    private var followedEntries: Set<String> = []
    private var finished = false

    /// The deepest chain of NetworkLinks followed inside an archive.
    public static let maximumLinkDepth = 8
    /// The most NetworkLinks followed in one archive (a super-overlay has one per tile).
    public static let maximumFollowedLinks = 10_000

    /// Opens a KMZ.
    public init(
        _ input: ByteReader, options: KMLReadOptions = KMLReadOptions(), limits: KMZLimits = KMZLimits(),
        diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        let opened = try KMZ.openMainKML(input, limits: limits)
        kml = try KMLReader(opened.kml, options: options, diagnostics: diagnostics)
        otherEntries = opened.otherEntries
        // KML files are documents that NetworkLinks lead to, read in their place: the other
        // entries (images…) are the files the document carries.
        linkableEntries = opened.otherEntries.filter { $0.lowercased().hasSuffix(".kml") }
        let all = opened.files
        files = EmbeddedFiles(paths: opened.otherEntries.filter { !$0.lowercased().hasSuffix(".kml") }) { path in
            try all.contents(of: path)
        }
        linkedFiles = all
        self.diagnostics = diagnostics
        self.options = options
        archiveName = input.name
    }

    public var lastLocation: SourceLocation? { linked.isEmpty ? kml.lastLocation : lastLinkedLocation }

    /// The main KML's header, with the archive's other files as `embeddedFiles` (a KMZ
    /// writer carries them; other writers report them).
    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader {
        var header = try kml.readHeader()
        if !files.paths.isEmpty { header.embeddedFiles = files }
        return header
    }

    /// The next feature. A NetworkLink whose `href` names a KML file inside the archive
    /// (a Region-based super-overlay, as Google Earth and gdal2tiles make) is followed: its
    /// file's features come in its place, in a folder named after the link, up to
    /// `maximumLinkDepth` links deep and `maximumFollowedLinks` in all, a link back into a
    /// file being read is not followed (each reported). Links to anything else are never
    /// fetched and stay as data.
    public mutating func next() throws(GeoConvError) -> Feature? {
        while true {
            var feature: Feature
            let base: String
            if var innermost = linked.last {
                guard let next = try innermost.reader.next() else {
                    linked.removeLast()
                    continue
                }
                linked[linked.count - 1].reader = innermost.reader
                feature = next
                lastLinkedLocation = innermost.reader.lastLocation
                let prefix = innermost.folder
                if !prefix.isEmpty {
                    feature[model: .folder] = prefix + (feature[model: .folder] ?? [])
                }
                base = KMZReader.directory(of: innermost.path)
            } else {
                guard let next = try kml.next() else {
                    try reportUnlinked()
                    return nil
                }
                feature = next
                base = ""
            }
            if let target = try linkTarget(of: feature, base: base) {
                try follow(target, link: feature)
                continue
            }
            try checkIcons(of: feature, base: base)
            return feature
        }
    }

    /// The archive entry a NetworkLink leads to, `nil` when `feature` is no such link.
    private func linkTarget(of feature: Feature, base: String) throws(GeoConvError) -> String? {
        guard feature.properties[KMLNames.geometryType]?.stringValue == "networklink",
            let href = feature.properties["href"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines),
            !href.isEmpty, !href.contains("://"), !href.hasPrefix("/")
        else { return nil }
        let path = KMZReader.resolve(href, against: base)
        guard let path, otherEntries.contains(path), path.lowercased().hasSuffix(".kml") else { return nil }
        if linked.contains(where: { $0.path == path }) {
            try diagnostics.warn(
                KMLCode.kmzNetworkLinkCycle,
                "a NetworkLink leads back to \(path), which is being read; it is not followed again",
                at: lastLocation)
            return nil
        }
        guard linked.count < KMZReader.maximumLinkDepth, followedLinks < KMZReader.maximumFollowedLinks else {
            try diagnostics.warn(
                KMLCode.kmzNetworkLinkLimit,
                "a NetworkLink to \(path) is not followed: more than \(KMZReader.maximumLinkDepth) links deep or \(KMZReader.maximumFollowedLinks) links in all",
                at: lastLocation, hint: "see docs/security.md")
            return nil
        }
        return path
    }

    /// Once: the archive's KML files no NetworkLink led to, which are not carried over.
    private mutating func reportUnlinked() throws(GeoConvError) {
        guard !finished else { return }
        finished = true
        let unlinked = linkableEntries.filter { !followedEntries.contains($0) }
        guard !unlinked.isEmpty else { return }
        let listed = unlinked.prefix(3).joined(separator: ", ") + (unlinked.count > 3 ? ", …" : "")
        try diagnostics.warn(
            KMLCode.kmzUnlinkedKMLDropped,
            "\(unlinked.count) KML file(s) in the archive (\(listed)) are not reached by a NetworkLink from the main document and are not read",
            hint: "convert them on their own, or link them from doc.kml")
    }

    private mutating func follow(_ path: String, link: Feature) throws(GeoConvError) {
        let bytes = try linkedFiles.contents(of: path)
        followedEntries.insert(path)
        var options = options
        options.cutsRuns = false
        var reader = try KMLReader(
            try ByteReader(.memory(bytes, name: archiveName + "/" + path)), options: options, diagnostics: diagnostics)
        _ = try reader.readHeader()
        followedLinks += 1
        // What the link itself says beyond where it leads (its Region, refresh mode, open…) has
        // no place once its features stand in for it.
        let ignored: Set<String> = [KMLNames.geometryType, "href", ModelKey.folder.name]
        let dropped =
            (link.snippet == nil ? [] : ["description"])
            + link.properties.keys.filter { !ignored.contains($0) }
        if !dropped.isEmpty {
            try diagnostics.warn(
                KMLCode.kmzNetworkLinkPartsDropped,
                "the followed NetworkLink's \(dropped.joined(separator: ", ")) "
                    + "\(dropped.count == 1 ? "is" : "are") not carried over: the linked file's "
                    + "features come in its place", at: lastLocation)
        }
        // The link's own folder path (already under the folders of the file it came from).
        var folder = link[model: .folder] ?? []
        folder.append(.string(link.title ?? path))
        linked.append((reader, path, folder))
        diagnostics.note(
            KMLCode.kmzNetworkLinkFollowed,
            "NetworkLinks to KML files inside the archive are followed: their features come in their place, in a folder named after the link"
        )
    }

    private mutating func checkIcons(of feature: Feature, base: String) throws(GeoConvError) {
        for icon in [feature.style.icon, feature.properties["icon"]?.stringValue].compactMap({ $0 })
        where !icon.contains("://") && !checkedIcons.contains(base + icon) {
            checkedIcons.insert(base + icon)
            if !otherEntries.contains(icon), !otherEntries.contains(KMZReader.resolve(icon, against: base) ?? icon) {
                try diagnostics.warn(KMLCode.kmzIconMissing, "icon \"\(icon)\" is neither a URL nor a file in the KMZ")
            }
        }
    }

    /// The folder part of an entry's path (`tiles/3/` for `tiles/3/1.kml`).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// `href` relative to the folder `base`, with `.` and `..` resolved; `nil` when it
    /// leaves the archive.
    static func resolve(_ href: String, against base: String) -> String? {
        var parts: [Substring] = base.split(separator: "/")
        for part in href.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}
