public import GeoConvIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything a reader or writer of any format may need from the command line or caller.
public struct ConversionOptions: Hashable, Sendable {
    /// The input format; `nil` to infer it from the file extension or content. (Names given
    /// by a user are parsed at the edge: `FormatRegistry.format(named:)`.)
    public var inputFormat: FileFormat?
    /// The output format; `nil` to infer it from the file extension.
    public var outputFormat: FileFormat?
    /// Decimals for text coordinates (GeoJSON, WKT, KML); `nil` for the shortest exact form.
    public var coordinatePrecision: Int?
    /// Turn every warning about loss into an error.
    public var strict: Bool
    /// Skip features that do not parse, counting them, instead of failing.
    public var skipInvalid: Bool
    /// The values of the options formats declare for themselves (`GeoJSONOptions.pretty`,
    /// `WKTOptions.arcStep`, …), handed to their readers and writers.
    public var formatOptions = FormatOptionValues()
    /// Format options for the reader only (`--oo NAME=VALUE`), over `formatOptions` there:
    /// a `.polyline6` read at 6 digits while the output is written at 5.
    public var openOptions = FormatOptionValues()
    /// Format options for the writer only (`--co NAME=VALUE`), over `formatOptions` there.
    public var creationOptions = FormatOptionValues()
    /// What to do with circles: `polygon` (geodesic polygons), `point` (centre + radius, for
    /// formats that keep it); `nil` chooses per output format (polygons where circles
    /// cannot be held).
    public var circles: CircleMode? = nil
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
    /// Which features, properties and dimensions are kept (`--where`, `--select`, `--bbox`,
    /// `--limit`, `--explode-collections`, `--dim`): everything by default.
    public var selection = FeatureSelection()
    /// Style rules (`--style`, `--style-file`), applied in order after
    /// `--where` and `--bbox`: each feature a rule's selector matches gets its keys, later
    /// rules overriding earlier ones key by key. Parsed when the conversion is planned.
    public var styleRules: [StyleRuleText] = []
    /// Colours by one property's classes (`--classify`), applied after `--where` and
    /// `--bbox` and before `styleRules`, which may refine them.
    public var classification: Classification? = nil

    /// The folder of the file the input was read from, against which its relative references
    /// (icon and overlay image paths) resolve: a KMZ writer packs the files found there. Set
    /// by the conversion for a file input.
    public var sourceDirectory: String? = nil
    /// The input's CRS, overriding what the document says (`--s-srs`).
    public var sourceCRS: String? = nil
    /// The CRS to write (`--t-srs`); `nil` for WGS84. GeoJSON and KML are always WGS84.
    public var targetCRS: String? = nil
    /// Threads (`--jobs`): 1 reads, transforms and writes on one thread; 2 or more parse
    /// on one thread while another writes, and line-delimited inputs (GeoJSONSeq, WKT,
    /// hex WKB, polyline) are cut into chunks parsed on that many threads, output order
    /// kept. `nil` means `defaultJobs`.
    public var jobs: Int? = nil
    /// Whether the conversion's log lists every warning one by one with its place
    /// (`DiagnosticLog.everyWarning`), not only the first of each code: for checks that ask
    /// which values a warning names (the conservation check).
    public var listsEveryWarning = false
    /// Bytes per chunk when `jobs` cuts a line-delimited input (1 MiB; smaller for tests).
    public var chunkBytes: Int = 1 << 20
    /// Where a writer does the work that can overlap its own (a GeoParquet row group encoded
    /// while the next is built): the converter sets `SideWork.background` when it has
    /// threads to spare; `inline` otherwise. A codec hands its work here and starts no thread.
    public var sideWork: SideWork = .inline

    /// The processor count, at most 8.
    public static var defaultJobs: Int { min(8, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// How circles are written.
    public enum CircleMode: String, Hashable, Sendable, CaseIterable {
        case polygon, point
    }

    /// Creates options with the defaults of the command line.
    public init(
        inputFormat: FileFormat? = nil, outputFormat: FileFormat? = nil,
        coordinatePrecision: Int? = nil, strict: Bool = false, skipInvalid: Bool = false
    ) {
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.coordinatePrecision = coordinatePrecision
        self.strict = strict
        self.skipInvalid = skipInvalid
    }
}

/// How a line between two vertices runs, and so how it is measured (the Maps SDK's length kinds).
public enum LengthKind: String, Hashable, Sendable, CaseIterable {
    /// Along the shortest path on the Earth (great circle / ellipsoidal geodesic); metres.
    case geodesic
    /// Along a line of constant bearing (loxodrome), straight on a Mercator map; metres.
    case rhumb
    /// Straight in Web Mercator. Span patterns measure it in the Maps SDK's map units (the
    /// world is 2 wide); `measure` reports it in EPSG:3857 metres.
    case projected
}
