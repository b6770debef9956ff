public import GeoConvCore
public import GeoConvIO

/// A file format geoconv can read and/or write, and what it can hold.
///
/// Each format's target defines its own value (`FileFormat.geoJSON` in GeoConvGeoJSON, …);
/// the umbrella's `FormatRegistry.standard` lists them. Nothing outside a format's folder
/// tests its name or a file suffix: the converter, the parallel path, `info` and
/// `validate` ask `capabilities`.
public struct FileFormat: Hashable, Sendable, CustomStringConvertible {
    /// Makes a reader of a format.
    public typealias MakeReader =
        @Sendable (ByteReader, ConversionOptions, DiagnosticLog) throws(GeoConvError) -> any FeatureReader
    /// Makes a writer of a format.
    public typealias MakeWriter =
        @Sendable (ByteWriter, ConversionOptions, DiagnosticLog) throws(GeoConvError) -> any FeatureWriter

    /// The short name used with `--from` / `--to`, e.g. `polyline`.
    public let name: String
    /// Other names accepted for it with `--from` / `--to`, e.g. `hexwkb`.
    public let aliases: [String]
    /// File extensions without the dot, lower case, e.g. `["polyline", "polyline5"]`.
    public let extensions: [String]
    /// One line for `geoconv formats` and error messages.
    public let summary: String
    /// Whether the content's first bytes look like this format (for stdin without `--from`).
    public let sniff: @Sendable ([UInt8]) -> Bool
    /// How its reader is made, and what that reader can do beyond features one at a time;
    /// `nil` when the format cannot be read.
    public let reading: ReaderMaking?
    /// Makes a reader, or `nil` when the format cannot be read.
    public var makeReader: MakeReader? { reading?.features }
    /// How its writer is made, and whether it takes records written on other threads; `nil`
    /// when the format cannot be written.
    public let writing: WriterMaking?
    /// Makes a writer, or `nil` when the format cannot be written.
    public var makeWriter: MakeWriter? { writing?.features }
    /// What the format can hold and how the pipeline may treat it.
    public let capabilities: FormatCapabilities
    /// The options its reader and writer take (`--oo`/`--co`, `geoconv formats`).
    public let options: [DeclaredFormatOption]
    /// The codes of the diagnostics the format's module reports (its `DiagnosticCodes` set,
    /// shared by the formats one module registers: KML and KMZ, WKT and WKB).
    public let diagnosticCodes: [String]

    /// Describes a format.
    public init(
        name: String, aliases: [String] = [], extensions: [String], summary: String,
        capabilities: FormatCapabilities = FormatCapabilities(), options: [DeclaredFormatOption] = [],
        diagnosticCodes: [String] = [], sniff: @escaping @Sendable ([UInt8]) -> Bool, makeReader: ReaderMaking?,
        makeWriter: WriterMaking?
    ) {
        self.name = name
        self.aliases = aliases
        self.extensions = extensions
        self.summary = summary
        self.capabilities = capabilities
        self.options = options
        self.diagnosticCodes = diagnosticCodes
        self.sniff = sniff
        reading = makeReader
        writing = makeWriter
    }

    /// Formats are the same when their names are (a registry holds one format per name).
    public static func == (a: FileFormat, b: FileFormat) -> Bool { a.name == b.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    public var description: String { name }

    /// Whether `name` names this format (its name or an alias, any case).
    public func isNamed(_ name: String) -> Bool {
        let lower = name.lowercased()
        return self.name == lower || aliases.contains(lower)
    }

    /// `options` with what reading `input` implies for this format (a `.polyline6` file's
    /// precision, for example) filled in where the caller left it open.
    public func readerOptions(_ options: ConversionOptions, for input: InputSource) -> ConversionOptions {
        guard case .file(let path) = input else { return implied(options, path: nil, role: .input) }
        return implied(options, path: path, role: .input)
    }

    /// `options` with what writing `output` implies for this format (RS separators for a
    /// `.geojsons` file, for example) filled in where the caller left it open.
    public func writerOptions(_ options: ConversionOptions, for output: OutputTarget) -> ConversionOptions {
        guard case .file(let path) = output else { return implied(options, path: nil, role: .output) }
        return implied(options, path: path, role: .output)
    }

    private func implied(_ options: ConversionOptions, path: String?, role: FileRole) -> ConversionOptions {
        var result = options
        // What was given for this side only (`--oo`, `--co`) over what was given for both.
        let sided = role == .input ? options.openOptions : options.creationOptions
        if !sided.isEmpty { result.formatOptions = options.formatOptions.merging(sided) }
        capabilities.impliedOptions?(path?.lowercased(), role, &result)
        return result
    }

    /// Sets the option `assignment` (`NAME=VALUE`, GDAL's `-oo`/`-lco` form; the name in any
    /// case) names for this format's reader (`side` `.read`) or writer (`.write`) in `values`.
    /// A name the format does not declare for that side, or a value it cannot take, is a
    /// usage error that lists what it takes.
    public func setOption(
        _ assignment: String, for side: FormatOptionSides, in values: inout FormatOptionValues
    )
        throws(GeoConvError)
    {
        let flag = side.flags
        let taken = options.filter { $0.sides.contains(side) }
        let listed = taken.isEmpty ? "none" : taken.map(\.usage).joined(separator: ", ")
        guard let equals = assignment.firstIndex(of: "=") else {
            throw GeoConvError(
                .usage, "\(flag) \(assignment): give NAME=VALUE",
                hint: "\(name) \(side == .read ? "reading" : "writing") takes \(listed)")
        }
        let key = assignment[..<equals].uppercased()
        let text = String(assignment[assignment.index(after: equals)...])
        guard let option = taken.first(where: { $0.key == key }) else {
            let kind = side == .read ? "open" : "creation"
            let doing = side == .read ? "reading" : "writing"
            throw GeoConvError(
                .usage, "\(flag) \(assignment): \(name) has no \(kind) option \(key)",
                hint: "\(name) \(doing) takes \(listed) (geoconv formats lists them)")
        }
        guard option.assign(text, &values) else {
            throw GeoConvError(
                .usage,
                "\(flag) \(assignment): \(option.key) takes \(option.takes), not '\(text)'",
                hint: "\(option.key): \(option.help)")
        }
    }
}

extension FileFormat {
    /// What the format holds and how `--jobs` treats it, in short phrases, as `geoconv
    /// formats` lists them: `any CRS`, `circles`, `header: name, description`,
    /// `--jobs: cuts runs of features, writes records on workers`.
    public var capabilityPhrases: [String] {
        var phrases = [capabilities.isWGS84Only ? "WGS84 only" : "any CRS"]
        if capabilities.holdsCircles { phrases.append("circles") }
        if capabilities.holdsEmptyMembers { phrases.append("empty members") }
        if capabilities.holdsEmbeddedFiles { phrases.append("embedded files") }
        let parts: [(HeaderParts, String)] = [
            (.name, "name"), (.description, "description"), (.camera, "view"), (.tileLayers, "tile layers"),
            (.members, "every member"),
        ]
        let held =
            parts.filter { capabilities.holdsHeader.contains($0.0) }.map(\.1)
            + capabilities.heldDocumentMembers.sorted()
        phrases.append("header: " + (held.isEmpty ? "none" : held.joined(separator: ", ")))
        var jobs: [String] = []
        if capabilities.lineRecords != nil {
            jobs.append("cuts lines")
        } else if reading?.runs != nil {
            jobs.append("cuts runs of features")
        }
        if writing?.writesRecords == true { jobs.append("writes records on workers") }
        if !jobs.isEmpty { phrases.append("--jobs: " + jobs.joined(separator: ", ")) }
        return phrases
    }
}

/// Which end of a conversion a file is.
public enum FileRole: Hashable, Sendable {
    case input, output
}

/// What a format can hold and how the pipeline may treat it: the one place a format's
/// rules meet the converter, the parallel path, `info` and `validate`.
public struct FormatCapabilities: Sendable {
    /// The format is WGS84 longitude/latitude by definition: data is reprojected to it,
    /// and `--t-srs` with another CRS is a usage error.
    public var isWGS84Only: Bool
    /// The format keeps circles as centre and radius; others get geodesic polygons.
    public var holdsCircles: Bool
    /// The format's viewers draw a circle only as a polygon (KML): by default a circle is
    /// written as its geodesic polygon carrying its centre and radius as data
    /// (`ModelKey.circleCenter`, `ModelKey.radius`), which geoconv reads back as the circle; `--circles point`
    /// writes the centre point form instead.
    public var drawsCirclesAsPolygons: Bool
    /// The format holds EMPTY members of multi-geometries (WKT, WKB); for the others they
    /// are dropped, with a note.
    public var holdsEmptyMembers: Bool
    /// Set when no record spans a line (or an RS): the input may be cut between lines and
    /// the pieces read on several threads.
    public var lineRecords: LineRecords?
    /// Fills in options a file's name implies, where the caller left them `nil`; given the
    /// lower-cased path (`nil` for standard input/output and memory) and the file's role.
    public var impliedOptions:
        (@Sendable (_ path: String?, _ role: FileRole, _ options: inout ConversionOptions) -> Void)?
    /// Makes a reader that also lists the format's own rule breaks, for `validate`; `nil`
    /// when the format's reader is its only check.
    public var makeValidator:
        (@Sendable (ByteReader, ConversionOptions, DiagnosticLog) throws(GeoConvError) -> any ValidatingReader)?
    /// The format carries files with the document (KMZ: images beside `doc.kml`); for the
    /// others, a document's embedded files are dropped before writing, with a warning
    /// naming the formats that hold them.
    public var holdsEmbeddedFiles: Bool
    /// The format whose writer writes each feature here (KMZ: KML's placemarks, zipped), so
    /// that what a feature loses is what it loses there: `info` writes the features once
    /// for both and reports them under each. Only the document level (`begin`) is this
    /// format's own. `nil` for a writer of its own.
    public var writesFeaturesAs: String?
    /// Settles what this format's options mean for the whole conversion, before it is
    /// planned (WKT's `--srid N` is the target CRS `EPSG:N`); a usage error when they
    /// contradict the other options. `nil` for formats whose options stay their own.
    public var resolvesOptions: (@Sendable (_ options: inout ConversionOptions) throws(GeoConvError) -> Void)?
    /// Lists every value a file of this format holds (element text and attribute values,
    /// JSON scalars, ordinates), each with its place, for the conservation check (`geoconv
    /// conservation`): `nil` when the format takes part in none.
    public var listsValues: (@Sendable (ByteReader) throws(GeoConvError) -> [ListedValue])?
    /// The format's rule fixes each ring's direction, so its writer may start a ring at another
    /// vertex and run it the other way (RFC 7946 GeoJSON, Shapefile): the structural checks
    /// let a ring's start and direction change for it, and nothing else.
    public var rewindsRings: Bool
    /// The format writes the properties in their order. `false` where the title and snippet
    /// are elements of their own, apart from the other data (KML, GPX): the structural checks
    /// then compare the properties key by key, whatever their order.
    public var keepsPropertyOrder: Bool
    /// Every record of the format has every column (CSV, Shapefile, GeoParquet): a property a
    /// feature lacks is written as an empty cell or a null and read back as a null, as GDAL
    /// reads it. The structural checks count a null and an absent property as one for it.
    public var readsAbsentPropertiesAsNull: Bool
    /// The property under which this format's reading names the shared style a feature uses
    /// (KML's `styleUrl`). Its writer names the styles the source left unnamed (an inline
    /// style becomes `#s1`): the structural checks compare a style by its contents, and this
    /// key only where the first reading has it.
    public var styleReferenceKey: String?
    /// The column the writer gives records when the features have no properties at all
    /// (Shapefile's `FID`: a DBF record needs a field, and GDAL adds the same): the structural
    /// checks let it appear where the first reading has no such key.
    public var placeholderKey: String?
    /// The format does not tell some geometry kinds apart, so its reading gives back another
    /// kind of the same shape: a multi-geometry of one part as that part (Shapefile's
    /// one-part polygon, KML's one-segment track) and a collection of one kind as that
    /// kind's multi-geometry (KML's MultiGeometry, as GDAL reads it too). The structural
    /// checks compare such geometries by their parts.
    public var mergesGeometryKinds: Bool
    /// The format holds a feature's style as style elements, not as properties (KML: colours
    /// as 8-bit `aabbggrr`): the structural checks compare the style the properties say,
    /// colours to 8 bits a channel, not its spelling (`#000` is `#000000`, `rgba(255,0,0,0.5)`
    /// is `#ff0000` at opacity 0.5, an opacity of 1 is none).
    public var holdsStyleAsElements: Bool
    /// The property under which the writer keeps a feature's id, where the format has no id
    /// of its own (CSV's `id` column): the structural checks take it for the id.
    public var idKey: String?
    /// Where the writer puts the features when not in their order, one each: given their
    /// geometries, the index of each feature the output holds, in the output's order — an
    /// index twice for a feature written as several (GPX's MultiPoint as waypoints), none for
    /// one the format does not hold (a warning names both). GPX writes waypoints, then routes,
    /// then tracks; Shapefile a file per geometry kind. `nil`: in their order, one each.
    public var writtenOrder: (@Sendable ([Geometry?]) -> [Int])?
    /// The extension of an output that holds everything the writer writes, where an output
    /// named by the first extension holds a part (Shapefile: a `.zip` of the shapefiles, one
    /// per geometry kind, where `.shp` is the first kind's): the checks write to it.
    public var wholeOutputExtension: String?
    /// What of a document's header the format holds (default: none, so that a format which
    /// does not say is warned about, never silent). What it does not is dropped before its
    /// writer, with one warning (`DocumentHeader.droppingParts`).
    public var holdsHeader: HeaderParts
    /// Header members the format holds by name although it holds no other (`members` not in
    /// `holdsHeader`): KML's document view, GPX's metadata.
    public var heldDocumentMembers: Set<String>
    /// The decimals a coordinate keeps by default where the format rounds it (an encoded
    /// polyline's 5): the checks compare numbers read back within that. `nil`: kept exactly.
    public var defaultDecimals: Int?
    /// An output holds one geometry (binary WKB): a second feature is refused, so the checks
    /// that write whole corpora through every writer leave the format out.
    public var holdsOneGeometry: Bool
    /// How GDAL opens this format's output, for the checks that hold GDAL's reading of
    /// geoconv's outputs to geoconv's (`ogr2ogr` users meet it so); `nil` where the GDAL the
    /// checks run (Debian's 3.6, without Arrow) has no driver for it (GeoParquet, WKT and WKB
    /// files, polylines) or reads it as another (KMZ as KML).
    public var gdalReading: GDALReading?

    /// The driver GDAL reads a format with, and the extension it recognizes the file by.
    public struct GDALReading: Hashable, Sendable {
        /// GDAL's driver name, as `ogrinfo` prints it (`GeoJSON`, `LIBKML`, `ESRI Shapefile`).
        public var driver: String
        /// The extension GDAL opens the output by (a shapefile's `.zip`).
        public var fileExtension: String

        /// Describes how GDAL reads a format.
        public init(driver: String, fileExtension: String) {
            self.driver = driver
            self.fileExtension = fileExtension
        }
    }

    /// Describes what a format can hold (by default: any CRS, no circles, not line-delimited).
    public init(
        isWGS84Only: Bool = false, holdsCircles: Bool = false, drawsCirclesAsPolygons: Bool = false,
        holdsEmptyMembers: Bool = false, lineRecords: LineRecords? = nil,
        impliedOptions: (@Sendable (_ path: String?, _ role: FileRole, _ options: inout ConversionOptions) -> Void)? =
            nil,
        makeValidator: (
            @Sendable (ByteReader, ConversionOptions, DiagnosticLog) throws(GeoConvError) -> any ValidatingReader
        )? = nil,
        holdsEmbeddedFiles: Bool = false, writesFeaturesAs: String? = nil,
        listsValues: (@Sendable (ByteReader) throws(GeoConvError) -> [ListedValue])? = nil,
        resolvesOptions: (@Sendable (_ options: inout ConversionOptions) throws(GeoConvError) -> Void)? = nil,
        rewindsRings: Bool = false, keepsPropertyOrder: Bool = true, readsAbsentPropertiesAsNull: Bool = false,
        styleReferenceKey: String? = nil, placeholderKey: String? = nil, mergesGeometryKinds: Bool = false,
        holdsStyleAsElements: Bool = false,
        idKey: String? = nil, writtenOrder: (@Sendable ([Geometry?]) -> [Int])? = nil,
        wholeOutputExtension: String? = nil, defaultDecimals: Int? = nil, holdsOneGeometry: Bool = false,
        gdalReading: GDALReading? = nil, holdsHeader: HeaderParts = [], heldDocumentMembers: Set<String> = []
    ) {
        self.holdsHeader = holdsHeader
        self.heldDocumentMembers = heldDocumentMembers
        self.defaultDecimals = defaultDecimals
        self.holdsOneGeometry = holdsOneGeometry
        self.gdalReading = gdalReading
        self.mergesGeometryKinds = mergesGeometryKinds
        self.holdsStyleAsElements = holdsStyleAsElements
        self.idKey = idKey
        self.writtenOrder = writtenOrder
        self.wholeOutputExtension = wholeOutputExtension
        self.placeholderKey = placeholderKey
        self.styleReferenceKey = styleReferenceKey
        self.readsAbsentPropertiesAsNull = readsAbsentPropertiesAsNull
        self.rewindsRings = rewindsRings
        self.keepsPropertyOrder = keepsPropertyOrder
        self.listsValues = listsValues
        self.resolvesOptions = resolvesOptions
        self.isWGS84Only = isWGS84Only
        self.holdsCircles = holdsCircles
        self.drawsCirclesAsPolygons = drawsCirclesAsPolygons
        self.holdsEmptyMembers = holdsEmptyMembers
        self.lineRecords = lineRecords
        self.impliedOptions = impliedOptions
        self.makeValidator = makeValidator
        self.holdsEmbeddedFiles = holdsEmbeddedFiles
        self.writesFeaturesAs = writesFeaturesAs
    }
}

/// How a line-delimited format's input may be cut for parallel reading. The chunks are read
/// by the format's reader, whose input knows the whole input's first bytes
/// (`ByteReader.enclosingInputStart`) for what they decide.
public struct LineRecords: Sendable {
    /// Whether input starting with these bytes declares its CRS (an EWKT `SRID=`, an EWKB
    /// SRID flag): such input is reprojected, and stays on the two-thread pipeline.
    public var declaresCRS: @Sendable ([UInt8]) -> Bool

    /// Describes a line-delimited format (by default none of its inputs declares a CRS).
    public init(declaresCRS: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }) {
        self.declaresCRS = declaresCRS
    }
}

/// A reader that, besides features, lists every rule of its format the input breaks.
public protocol ValidatingReader: FeatureReader {
    /// Problems seen so far, in input order.
    var problems: [ValidationProblem] { get }
    /// Where the positions of the feature just read that are outside longitude ±180 /
    /// latitude ±90 are, when the reader knows (else they are placed at their feature).
    var positionsOutOfRange: [(coordinate: Coordinate, location: SourceLocation)] { get }
}

/// Helpers formats share when sniffing content.
package enum FormatSniffing {
    /// Skips a UTF-8 byte order mark and whitespace; the first meaningful byte and its index.
    package static func firstSignificantByte(_ prefix: [UInt8]) -> (byte: UInt8, index: Int)? {
        var index = 0
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < prefix.count,
            prefix[index] == 0x20 || prefix[index] == 0x09 || prefix[index] == 0x0A || prefix[index] == 0x0D
        {
            index += 1
        }
        return index < prefix.count ? (prefix[index], index) : nil
    }
}

/// Names of WGS84 longitude/latitude: the one list geoconv keeps.
public enum WGS84Names {
    /// Whether a CRS name means WGS84 longitude/latitude (`nil` does: no CRS given):
    /// OGC:CRS84 and EPSG:4326 in any spelling `CRSNames.authorityAndCode` reads, and "WGS84".
    public static func contains(_ crs: String?) -> Bool {
        guard let crs else { return true }
        if crs.uppercased().replacing(" ", with: "") == "WGS84" { return true }
        guard let (authority, code) = CRSNames.authorityAndCode(crs) else { return false }
        return (authority == "ogc" && code == "crs84") || (authority == "epsg" && code == "4326")
    }
}

/// How files name CRSs: the one reading of an authority and code from a name.
public enum CRSNames {
    /// The authority and code (lowercased) a CRS name spells, in the forms files use:
    /// "EPSG:4326", "urn:ogc:def:crs:EPSG:6.6:4326" (any version, or none: "EPSG::4326"),
    /// "http://www.opengis.net/def/crs/EPSG/0/4326", GML's ".../gml/srs/epsg.xml#4326", and
    /// "CRS84". Case and spaces do not matter. `nil` for anything else (WKT, PROJ strings).
    public static func authorityAndCode(_ text: String) -> (authority: String, code: String)? {
        let name = text.lowercased().replacing(" ", with: "")
        let urn = "urn:ogc:def:crs:"
        let gml = "http://www.opengis.net/gml/srs/epsg.xml#"
        if name.hasPrefix(urn) {
            let parts = name.dropFirst(urn.count).split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 2, let authority = parts.first, let code = parts.last else { return nil }
            return (String(authority), String(code))
        }
        if name.hasPrefix("http://www.opengis.net/def/crs/") || name.hasPrefix("https://www.opengis.net/def/crs/") {
            let parts = name.split(separator: "/")
            guard parts.count >= 6 else { return nil }
            return (String(parts[parts.count - 3]), String(parts[parts.count - 1]))
        }
        if name.hasPrefix(gml) { return ("epsg", String(name.dropFirst(gml.count))) }
        if name == "crs84" { return ("ogc", "crs84") }
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !name.hasPrefix("+") else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}
