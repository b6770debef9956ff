#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// Everything a reader or writer of any format may need from the command line or caller.
public struct ConversionOptions: Hashable, Sendable {
    /// The input format's name; `nil` to infer it from the file extension or content.
    public var inputFormat: String?
    /// The output format's name; `nil` to infer it from the file extension.
    public var outputFormat: String?
    /// Encoded-polyline precision for reading and writing polylines (5 or 6; 0…13 accepted);
    /// `nil` means 6 for `.polyline6` files and 5 otherwise.
    public var polylinePrecision: Int?
    /// Decimals for text coordinates (GeoJSON, WKT, KML); `nil` for the shortest exact form.
    public var coordinatePrecision: Int?
    /// Turn every warning about loss into an error.
    public var strict: Bool
    /// Skip features that do not parse, counting them, instead of failing.
    public var skipInvalid: Bool
    /// Indent text output (GeoJSON).
    public var pretty: Bool = false
    /// Write bounding boxes (GeoJSON `bbox`).
    public var writesBoundingBoxes: Bool = false
    /// For GeoJSON text sequences: RS-delimited records (RFC 8142) rather than one per line.
    /// `nil` chooses from the extension: RS for `.geojsons`, newlines otherwise.
    public var recordSeparator: Bool? = nil
    /// What to do with circles: `polygon` (geodesic polygons), `point` (centre + radius, for
    /// formats that keep it); `nil` chooses per output format (polygons where circles
    /// cannot be held).
    public var circles: CircleMode? = nil
    /// The SRID of EWKT/EWKB output (`--srid`): a target CRS, `EPSG:srid`. The data is
    /// reprojected to it (as with `targetCRS`) and the SRID written, even 4326; it is never a
    /// label put on data in another CRS.
    public var srid: Int? = nil
    /// Explode style spans into one line per span (`--explode-spans`).
    public var explodeSpans = false
    /// Compute spans from a pattern such as `white:100000,black:50000` (`--span-pattern`).
    public var spanPattern: String? = nil
    /// How span-pattern lengths are measured (`--length-kind`).
    public var lengthKind: LengthKind = .geodesic
    /// Turn polygons that are circles back into circles (`--detect-circles`).
    public var detectCircles = false
    /// Douglas–Peucker tolerance in metres (`--simplify`).
    public var simplifyTolerance: Double? = nil

    /// The input's CRS, overriding what the document says (`--s-srs`).
    public var sourceCRS: String? = nil
    /// The CRS to write (`--t-srs`); `nil` for WGS84. GeoJSON and KML are always WGS84.
    public var targetCRS: String? = nil
    /// Threads (`--jobs`): 1 reads, transforms and writes on one thread; 2 or more parse
    /// on one thread while another writes, and line-delimited inputs (GeoJSONSeq, WKT,
    /// hex WKB, polyline) are cut into chunks parsed on that many threads, output order
    /// kept. `nil` means `defaultJobs`.
    public var jobs: Int? = nil
    /// Bytes per chunk when `jobs` cuts a line-delimited input (1 MiB; smaller for tests).
    public var chunkBytes: Int = 1 << 20

    /// These options with `srid` folded into `targetCRS` (`EPSG:srid`); a usage error when
    /// `--srid` and `--t-srs` name different CRSs.
    public func resolvingSRID() throws(GeoConvError) -> ConversionOptions {
        guard let srid else { return self }
        let target = "EPSG:\(srid)"
        var resolved = self
        if let given = targetCRS {
            let same = srid == 4326 ? Reproject.isWGS84(given) : given.uppercased() == target
            guard same else {
                throw GeoConvError(.usage, "--srid \(srid) and --t-srs \(given) name different CRSs",
                                   hint: "--srid N is the target CRS EPSG:N; give one of them")
            }
        }
        resolved.targetCRS = target
        return resolved
    }

    /// The processor count, at most 8.
    public static var defaultJobs: Int { min(8, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// How circles are written.
    public enum CircleMode: String, Hashable, Sendable, CaseIterable {
        case polygon, point
    }

    /// Creates options with the defaults of the command line.
    public init(inputFormat: String? = nil, outputFormat: String? = nil, polylinePrecision: Int? = nil,
                coordinatePrecision: Int? = nil, strict: Bool = false, skipInvalid: Bool = false)
    {
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.polylinePrecision = polylinePrecision
        self.coordinatePrecision = coordinatePrecision
        self.strict = strict
        self.skipInvalid = skipInvalid
    }
}

/// A file format geoconv can read and/or write.
public struct FileFormat: Sendable {
    /// The short name used with `--from` / `--to`, e.g. `polyline`.
    public let name: String
    /// File extensions without the dot, lower case, e.g. `["polyline", "polyline5"]`.
    public let extensions: [String]
    /// One line for `geoconv formats` and error messages.
    public let summary: String
    /// Whether the content's first bytes look like this format (for stdin without `--from`).
    public let sniff: @Sendable ([UInt8]) -> Bool
    /// Makes a reader, or `nil` when the format cannot be read.
    public let makeReader: (@Sendable (ByteReader, ConversionOptions, DiagnosticLog) throws(GeoConvError) -> any FeatureReader)?
    /// Makes a writer, or `nil` when the format cannot be written.
    public let makeWriter: (@Sendable (ByteWriter, ConversionOptions, DiagnosticLog) throws(GeoConvError) -> any FeatureWriter)?

    /// Describes a format.
    public init(
        name: String, extensions: [String], summary: String, sniff: @escaping @Sendable ([UInt8]) -> Bool,
        makeReader: (@Sendable (ByteReader, ConversionOptions, DiagnosticLog) throws(GeoConvError) -> any FeatureReader)?,
        makeWriter: (@Sendable (ByteWriter, ConversionOptions, DiagnosticLog) throws(GeoConvError) -> any FeatureWriter)?
    ) {
        self.name = name
        self.extensions = extensions
        self.summary = summary
        self.sniff = sniff
        self.makeReader = makeReader
        self.makeWriter = makeWriter
    }
}

/// The formats geoconv knows, found by name, by file extension, or by content.
/// Each codec registers one entry here; nothing else in the pipeline knows formats.
public struct FormatRegistry: Sendable {
    /// The registered formats, in the order they are tried when sniffing.
    public private(set) var formats: [FileFormat]

    /// Creates a registry holding the given formats.
    public init(_ formats: [FileFormat]) { self.formats = formats }

    /// Every format this build of geoconv supports.
    public static let standard = FormatRegistry([.geoJSON, .geoJSONSequence, .kml, .kmz, .wkt, .wkbHex, .wkb, .encodedPolyline])

    /// Adds a format (a later entry with the same name replaces an earlier one).
    public mutating func register(_ format: FileFormat) {
        formats.removeAll { $0.name == format.name }
        formats.append(format)
    }

    /// The format with this name (case-insensitive), if any.
    public func format(named name: String) -> FileFormat? {
        formats.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The format a path's extension names, if any.
    public func format(forPath path: String) -> FileFormat? {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return nil }
        let ext = base[base.index(after: dot)...].lowercased()
        return formats.first { $0.extensions.contains(ext) }
    }

    /// The first format whose sniffer accepts these leading bytes.
    public func format(sniffing prefix: [UInt8]) -> FileFormat? {
        formats.first { $0.sniff(prefix) }
    }

    /// Names and extensions, for messages: `polyline (.polyline, .polyline6)`.
    public var listing: String {
        formats.map { f in f.name + " (" + f.extensions.map { "." + $0 }.joined(separator: ", ") + ")" }
            .joined(separator: ", ")
    }
}

extension FileFormat {
    /// Google encoded polylines, one feature per line (see `PolylineFileReader` for the grammar).
    public static let encodedPolyline = FileFormat(
        name: "polyline",
        extensions: ["polyline", "polyline5", "polyline6", "encpoly"],
        summary: "Google encoded polylines, one feature per line",
        sniff: { prefix in
            // Only the polyline alphabet, separators, parentheses and '#' comments.
            guard !prefix.isEmpty else { return false }
            var sawPolylineByte = false
            for byte in prefix {
                switch byte {
                case 63...126: sawPolylineByte = true
                case 9, 10, 13, 32, 40, 41, 35: continue
                default: return false
                }
            }
            return sawPolylineByte && prefix.first != UInt8(ascii: "{") && prefix.first != UInt8(ascii: "[")
        },
        makeReader: { input, options, diagnostics in
            PolylineFileReader(input, options: PolylineFileOptions(precision: options.polylinePrecision ?? 5,
                                                                   skipsInvalidLines: options.skipInvalid),
                               diagnostics: diagnostics)
        },
        makeWriter: { output, options, diagnostics in
            PolylineFileWriter(output, options: PolylineFileOptions(precision: options.polylinePrecision ?? 5),
                               diagnostics: diagnostics)
        }
    )
}

/// Skips a UTF-8 byte order mark and whitespace; returns the first meaningful byte.
private func firstSignificantByte(_ prefix: [UInt8]) -> (byte: UInt8, index: Int)? {
    var index = 0
    if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    while index < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[index]) { index += 1 }
    return index < prefix.count ? (prefix[index], index) : nil
}

extension FileFormat {
    /// GeoJSON (RFC 7946; the 2008 form with `crs` is read too).
    public static let geoJSON = FileFormat(
        name: "geojson",
        extensions: ["geojson", "json"],
        summary: "GeoJSON FeatureCollection, Feature or geometry (RFC 7946)",
        sniff: { prefix in
            guard let (byte, index) = firstSignificantByte(prefix), byte == UInt8(ascii: "{") else { return false }
            // One object per line is a sequence: a newline then '{' right after the first line.
            let text = prefix[index...]
            if let newline = text.firstIndex(of: 0x0A), newline + 1 < prefix.endIndex, prefix[newline - 1] == UInt8(ascii: "}"),
               prefix[newline + 1] == UInt8(ascii: "{")
            {
                return false
            }
            return true
        },
        makeReader: { input, options, diagnostics in
            GeoJSONReader(input, options: GeoJSONReadOptions(skipsInvalidFeatures: options.skipInvalid), diagnostics: diagnostics)
        },
        makeWriter: { output, options, diagnostics in
            GeoJSONWriter(output, options: GeoJSONWriteOptions(precision: options.coordinatePrecision, pretty: options.pretty,
                                                               writesBoundingBoxes: options.writesBoundingBoxes),
                          diagnostics: diagnostics)
        }
    )

    /// GeoJSON text sequences: RFC 8142 (RS-delimited, `.geojsons`) and newline-delimited
    /// GeoJSON (`.geojsonl`, `.ndjson`), one Feature or geometry per record.
    public static let geoJSONSequence = FileFormat(
        name: "geojsonseq",
        extensions: ["geojsons", "geojsonl", "geojsonseq", "ndjson", "jsonl"],
        summary: "GeoJSON text sequence: one Feature per record (RFC 8142 RS-delimited, or one per line)",
        sniff: { prefix in
            guard let (byte, index) = firstSignificantByte(prefix) else { return false }
            if byte == 0x1E { return true }
            guard byte == UInt8(ascii: "{") else { return false }
            let text = prefix[index...]
            if let newline = text.firstIndex(of: 0x0A), newline + 1 < prefix.endIndex, prefix[newline - 1] == UInt8(ascii: "}"),
               prefix[newline + 1] == UInt8(ascii: "{")
            {
                return true
            }
            return false
        },
        makeReader: { input, options, diagnostics in
            GeoJSONReader(input, options: GeoJSONReadOptions(isSequence: true, skipsInvalidFeatures: options.skipInvalid),
                          diagnostics: diagnostics)
        },
        makeWriter: { output, options, diagnostics in
            var useRS = options.recordSeparator ?? false
            if options.recordSeparator == nil, output.name.lowercased().hasSuffix(".geojsons") { useRS = true }
            return GeoJSONWriter(output, options: GeoJSONWriteOptions(precision: options.coordinatePrecision, pretty: false,
                                                                      writesBoundingBoxes: options.writesBoundingBoxes,
                                                                      sequence: useRS ? .recordSeparator : .newline),
                                 diagnostics: diagnostics)
        }
    )
}

extension FileFormat {
    /// KML 2.2 (2.1 and prefixed documents are read too).
    public static let kml = FileFormat(
        name: "kml",
        extensions: ["kml"],
        summary: "KML 2.2: placemarks, styles, folders, ExtendedData, tracks, overlays",
        sniff: { prefix in
            guard let (byte, index) = firstSignificantByte(prefix), byte == UInt8(ascii: "<") else { return false }
            let head = String(decoding: prefix[index...].prefix(2048), as: UTF8.self)
            return head.contains("<kml") || head.contains(":kml") || head.contains("opengis.net/kml")
        },
        makeReader: { (input, options, diagnostics) throws(GeoConvError) -> any FeatureReader in
            try KMLReader(input, options: KMLReadOptions(skipsInvalidFeatures: options.skipInvalid,
                                                         jobs: options.jobs ?? ConversionOptions.defaultJobs),
                          diagnostics: diagnostics)
        },
        makeWriter: { output, options, diagnostics in
            KMLWriter(output, options: KMLWriteOptions(precision: options.coordinatePrecision), diagnostics: diagnostics)
        }
    )
}

extension FileFormat {
    /// KMZ: a zip archive holding `doc.kml`.
    public static let kmz = FileFormat(
        name: "kmz",
        extensions: ["kmz"],
        summary: "KMZ: zipped KML (doc.kml first), with zip-bomb limits",
        sniff: { prefix in prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) },
        makeReader: { (input, options, diagnostics) throws(GeoConvError) -> any FeatureReader in
            try KMZReader(input, options: KMLReadOptions(skipsInvalidFeatures: options.skipInvalid,
                                                         jobs: options.jobs ?? ConversionOptions.defaultJobs),
                          diagnostics: diagnostics)
        },
        makeWriter: { (output, options, diagnostics) throws(GeoConvError) -> any FeatureWriter in
            try KMZWriter(output, options: KMLWriteOptions(precision: options.coordinatePrecision), diagnostics: diagnostics)
        }
    )
}

extension FileFormat {
    /// WKT and EWKT, one geometry per line.
    public static let wkt = FileFormat(
        name: "wkt",
        extensions: ["wkt", "ewkt"],
        summary: "Well-Known Text (OGC, ISO Z/M, EWKT SRID), one geometry per line",
        sniff: { prefix in
            guard let (_, index) = firstSignificantByte(prefix) else { return false }
            let head = String(decoding: prefix[index...].prefix(32), as: UTF8.self).uppercased()
            return ["POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION", "SRID="]
                .contains { head.hasPrefix($0) }
        },
        makeReader: { input, options, diagnostics in
            GeometryLineReader(input, encoding: .wkt, skipsInvalid: options.skipInvalid, diagnostics: diagnostics)
        },
        makeWriter: { output, options, diagnostics in
            GeometryWriter(output, form: .wkt, precision: options.coordinatePrecision, srid: options.srid, diagnostics: diagnostics)
        }
    )

    /// Hexadecimal WKB / EWKB, one geometry per line.
    public static let wkbHex = FileFormat(
        name: "wkbhex",
        extensions: ["wkbhex", "hexwkb"],
        summary: "hexadecimal WKB/EWKB (PostGIS's text form), one geometry per line",
        sniff: { prefix in
            guard let (_, index) = firstSignificantByte(prefix) else { return false }
            let head = prefix[index...].prefix(18)
            return head.count >= 10 && (head.starts(with: Array("01".utf8)) || head.starts(with: Array("00".utf8)))
                && head.allSatisfy { WKBHexDigits.contains($0) || $0 == 0x0A || $0 == 0x0D }
        },
        makeReader: { input, options, diagnostics in
            GeometryLineReader(input, encoding: .wkbHex, skipsInvalid: options.skipInvalid, diagnostics: diagnostics)
        },
        makeWriter: { output, options, diagnostics in
            GeometryWriter(output, form: .wkbHex, precision: nil, srid: options.srid, diagnostics: diagnostics)
        }
    )

    /// Binary WKB / EWKB: one geometry.
    public static let wkb = FileFormat(
        name: "wkb",
        extensions: ["wkb", "ewkb"],
        summary: "binary WKB/EWKB, one geometry",
        sniff: { prefix in prefix.count >= 5 && (prefix[0] == 0 || prefix[0] == 1) && prefix.contains(where: { $0 < 9 && $0 != 0 && $0 != 1 } ) },
        makeReader: { (input, options, diagnostics) throws(GeoConvError) -> any FeatureReader in
            try WKBFileReader(input, diagnostics: diagnostics)
        },
        makeWriter: { output, options, diagnostics in
            GeometryWriter(output, form: .wkbBinary, precision: nil, srid: options.srid, diagnostics: diagnostics)
        }
    )
}

private let WKBHexDigits = Set("0123456789abcdefABCDEF".utf8)
