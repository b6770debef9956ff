public import ArgumentParser
import GeoConv
import GeoConvXML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `geoconv` command: conversions between encoded polylines, GeoJSON, KML/KMZ and WKT.
@main
struct GeoConvCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geoconv",
        abstract: "Convert map overlays between formats without losing them: \(FormatRegistry.standard.names).",
        discussion: """
            geoconv IN OUT is short for geoconv convert IN OUT. Formats come from the file
            extensions, or --from/--to; '-' is standard input or output.
            geoconv formats lists what each format reads and writes, with its extensions.
            Exit status: 0 success, 1 invalid input or failed conversion, 64 usage error.
            """,
        version:
            "geoconv \(GeoConvVersion.current) (libxml2 \(LibXML2.version), \(PROJLibrary.version.map { "PROJ \($0)" } ?? "without PROJ: WGS84 and Web Mercator only"))",
        subcommands: [
            Convert.self, PolylineCommand.self, Info.self, Validate.self, Measure.self, Camera.self, TileCommand.self,
            Tiles.self,
            ClusterCommand.self,
        ] + BuildTraits.drawingCommands + [Formats.self, Conservation.self],
        defaultSubcommand: Convert.self
    )

    /// Parses the arguments, the formats' long flags among them (`FormatFlags`), and runs
    /// the command they name.
    static func main() {
        let given = Array(CommandLine.arguments.dropFirst())
        let arguments = FormatFlags.rewritten(given)
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // A command that reads no file takes no format flag: its error names the flag as
            // typed (`--pretty`), not the option it was rewritten to.
            if arguments != given, "\(error)".contains(FormatFlags.carrier) {
                do { _ = try parseAsRoot(given) } catch { exit(withError: error) }
            }
            exit(withError: error)
        }
        do {
            if let reading = command as? any TakesFormatFlags { try reading.checkWriterFlags() }
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}

/// The version of this build of geoconv.
enum GeoConvVersion {
    static let current = "0.1.0"
}

/// Prints a geoconv error like a compiler diagnostic and exits 1 (64 for usage errors).
func fail(_ error: GeoConvError) -> ExitCode {
    printError(error.description)
    return error.code == .usage ? ExitCode(64) : ExitCode(1)
}

/// Writes a line to standard error.
func printError(_ line: String) {
    var text = line
    if !text.hasSuffix("\n") { text += "\n" }
    text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}

/// Prints the warnings of a conversion to standard error, one line per kind.
func printWarnings(_ diagnostics: DiagnosticLog) {
    for line in diagnostics.summary { printError(line) }
    // --skip-invalid: every skipped feature, not only the first of each kind.
    if diagnostics.skippedFeatures.count > 1 || diagnostics.unlistedSkips > 0 {
        for line in diagnostics.skippedSummary { printError("  " + line) }
    }
}

struct Convert: ParsableCommand, TakesFormatFlags {
    static let writesFormats = true

    static let configuration = CommandConfiguration(
        abstract: "Convert a file from one format to another.",
        discussion: """
            Standard output (-) gets the input's format unless --to says otherwise.
            Output is written to a temporary file beside OUTPUT and renamed into place on
            success: a failed conversion leaves no partial file and never touches an existing
            one. What the target format cannot hold is listed on standard error; --strict
            makes any such loss an error.

            """ + FormatFlags.help(for: [.read, .write])
    )

    @OptionGroup var inputOptions: InputOptions

    @OptionGroup(title: "Choosing what to convert (as ogr2ogr)") var selectionOptions: SelectionOptions

    @OptionGroup(title: "Styling by attribute (docs/styling.md)") var stylingOptions: StylingOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Write --classify's classes, their colours and counts as JSON to this file.", valueName: "file"))
    var legend: String?

    @OptionGroup var outputOptions: OutputOptions

    @Option(
        parsing: .unconditional,
        help: "Decimals for coordinates in text formats (default: the shortest exact form).")
    var precision: Int?

    @Option(
        parsing: .unconditional,
        help:
            "Circles: polygon (geodesic polygons) or point (centre + geoconv:radius). Default: point for GeoJSON; for KML the drawn polygon with centre and radius as data; polygon elsewhere."
    )
    var circles: ConversionOptions.CircleMode?

    @Option(
        name: .customLong("s-srs"), parsing: .unconditional,
        help: "The input's CRS (EPSG:n, +proj=…, WKT2, urn:ogc:def:crs:…), overriding what the file says.")
    var sourceCRS: String?

    @Option(
        name: .customLong("t-srs"), parsing: .unconditional,
        help: "The CRS to write (WKT and WKB only; GeoJSON and KML are WGS84). Default WGS84.")
    var targetCRS: String?

    @Flag(help: "Turn polygons that are circles (≥ 16 vertices equidistant from a centre) back into circles.")
    var detectCircles = false

    @Flag(help: "Write polylines with style spans as one line per span (gradients as colour steps).")
    var explodeSpans = false

    @Option(
        parsing: .unconditional,
        help:
            "Give lines repeating style spans, e.g. 'white:100000,black:50000' (colour:length, lengths in --length-kind units)."
    )
    var spanPattern: String?

    @Option(
        parsing: .unconditional,
        help:
            "How --span-pattern lengths are measured: geodesic (m), rhumb (m) or projected (Web Mercator map units, world = 2)."
    )
    var lengthKind: LengthKind = .geodesic

    @Option(parsing: .unconditional, help: "Simplify lines and rings (Douglas–Peucker) with this tolerance in metres.")
    var simplify: Double?

    @Flag(help: "Fail instead of warning when the output would lose anything.")
    var strict = false

    @Flag(help: "Skip features that do not parse, counting them, instead of failing.")
    var skipInvalid = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Option(
        name: [.customShort("j"), .long],
        parsing: .unconditional,
        help:
            "Threads: 1 = one thread; 2+ = parse and write on separate threads, and cut line-delimited inputs (\(FormatRegistry.standard.lineDelimitedNames)) and the inputs whose readers cut runs of features (FeatureCollections, KML documents) into pieces parsed in parallel, output order kept. Default: the processor count (at most 8)."
    )
    var jobs: Int?

    func validate() throws {
        if let jobs, !(1...256).contains(jobs) {
            throw ValidationError("--jobs must be within 1…256")
        }
        if let precision, !(0...17).contains(precision) {
            throw ValidationError("--precision must be within 0…17")
        }
    }

    func run() throws {
        // The long flags give a format option to its reader and writer alike; --oo/--co to one side.
        var options = inputOptions.options
        options.outputFormat = outputOptions.to
        options.creationOptions = try outputOptions.givenCreationOptions()
        options.coordinatePrecision = precision
        options.strict = strict
        options.skipInvalid = skipInvalid
        options.circles = circles
        options.sourceCRS = sourceCRS
        options.targetCRS = targetCRS
        options.explodeSpans = explodeSpans
        options.detectCircles = detectCircles
        options.spanPattern = spanPattern
        options.lengthKind = lengthKind
        options.simplifyTolerance = simplify
        options.jobs = jobs
        options.selection = selectionOptions.validated
        ByteWriter.removeTemporaryFileOnSignal()
        var converter = Converter()
        do throws(GeoConvError) {
            options.styleRules = try stylingOptions.rules()
            options.classification = try stylingOptions.classification()
            if legend == "-", case .standardOutput = outputOptions.target {
                throw GeoConvError(
                    .usage, "--legend - and the output would both be written to standard output",
                    hint: "give --legend a file name")
            }
            if legend != nil, options.classification == nil {
                throw GeoConvError(
                    .usage, "--legend writes --classify's classes, and none is given",
                    hint: "add --classify PROPERTY, or drop --legend")
            }
        } catch {
            throw fail(error)
        }
        let progress = inputOptions.input == "-" || quiet ? nil : ProgressBar.start(for: inputOptions.input)
        converter.progress = progress?.counter
        do throws(GeoConvError) {
            let report = try converter.convert(inputOptions.source, to: outputOptions.target, options: options)
            progress?.stop()
            if !quiet { printWarnings(report.diagnostics) }
            if let legend, let classes = report.legend {
                let file = try ByteWriter(legend == "-" ? .standardOutput : .file(legend))
                try file.write(JSONText.pretty(classes.json) + [0x0A])
                try file.commit()
            }
        } catch {
            progress?.stop()
            throw fail(error)
        }
    }
}

struct Formats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the formats this build reads and writes.")

    func run() {
        // A line per format (name, r/w, extensions, summary, tab-separated), then its options
        // indented: NAME=<type>, the sides (--oo for reading, --co for writing), the long flag;
        // then what it holds and how --jobs takes it.
        for format in FormatRegistry.standard.formats {
            let modes = (format.makeReader != nil ? "r" : "-") + (format.makeWriter != nil ? "w" : "-")
            let extensions = format.extensions.map { "." + $0 }.joined(separator: " ")
            print("\(format.name)\t\(modes)\t\(extensions)\t\(format.summary)")
            for option in format.options {
                print("  \(option.usage)  \(option.sides.flags)  --\(option.name): \(option.help)")
            }
            print("  holds: " + format.capabilityPhrases.joined(separator: "; "))
        }
    }
}

extension ConversionOptions.CircleMode: ExpressibleByArgument {}
extension LengthKind: ExpressibleByArgument {}
extension EarthModel: ExpressibleByArgument {}

/// What the package traits this binary was built with add.
enum BuildTraits {
    /// `render`, with the Rendering trait.
    static var drawingCommands: [any ParsableCommand.Type] {
        #if Rendering
        [Render.self]
        #else
        []
        #endif
    }

    /// `tiles render`, with the Rendering trait.
    static var tileDrawingCommands: [any ParsableCommand.Type] {
        #if Rendering
        [TilesRender.self]
        #else
        []
        #endif
    }
}
