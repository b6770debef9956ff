import ArgumentParser
import GeoConv

/// A whole input in WGS84, for the commands that need every feature at once (and every
/// position a longitude/latitude: `what` says what for, "draw").
func loadDocument(
    _ input: InputOptions, selecting selection: SelectionOptions, styling: StylingOptions? = nil, toDo what: String
) throws(GeoConvError)
    -> (OverlayDocument, DiagnosticLog)
{
    let log = DiagnosticLog()
    var options = input.options
    options.selection = selection.validated
    if let styling {
        options.styleRules = try styling.rules()
        options.classification = try styling.classification()
    }
    let document = try OverlayDocument.load(
        input.source, options: options, reprojectingToWGS84: true,
        diagnostics: log)
    try document.requireLongitudeLatitude(toDo: what)
    return (document, log)
}

struct Camera: ParsableCommand, TakesFormatFlags {
    static let configuration = CommandConfiguration(
        abstract: "The camera that shows every feature of a file in a viewport (the Maps SDK's camera(for:insets:)).",
        discussion: FormatFlags.help(for: .read))

    @OptionGroup var inputOptions: InputOptions

    @OptionGroup(title: "Choosing what to read (as ogr2ogr)") var selectionOptions: SelectionOptions

    @Option(parsing: .unconditional, help: "The viewport in points, WIDTHxHEIGHT, e.g. 390x844.")
    var viewport: String

    @Option(parsing: .unconditional, help: "Padding in points on every edge (default 64, as the Maps SDK's fitBounds).")
    var padding: Double = 64

    @Flag(help: "Print {\"target\":{\"latitude\",\"longitude\"},\"zoom\",\"bearing\",\"viewingAngle\"}.")
    var json = false

    func run() throws {
        let parts = viewport.lowercased().split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw ValidationError("--viewport must be WIDTHxHEIGHT in points, e.g. 390x844")
        }
        do throws(GeoConvError) {
            let (document, log) = try loadDocument(inputOptions, selecting: selectionOptions, toDo: "frame")
            let camera = try document.camera(viewport: (parts[0], parts[1]), insets: EdgeInsets(padding: padding))
            if json {
                print(String(decoding: JSONText.compact(GeoJSONNames.json(camera)), as: UTF8.self))
            } else {
                print(
                    "target \(DecimalFormatter.shortest(camera.target.latitude)),\(DecimalFormatter.shortest(camera.target.longitude)) zoom \(DecimalFormatter.fixed(camera.zoom, digits: 3)) bearing \(DecimalFormatter.shortest(camera.bearing)) viewingAngle \(DecimalFormatter.shortest(camera.viewingAngle))"
                )
            }
            for line in log.summary { printError(line) }
        } catch {
            throw fail(error)
        }
    }
}

struct TileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tile", abstract: "The tile holding a coordinate: z/x/y (x east, y south, origin north-west).")

    @Option(parsing: .unconditional, help: "Zoom level, 0…30.")
    var zoom: Int

    @Flag(help: "Also print the quadkey and the TMS y.")
    var verbose = false

    @Argument(parsing: .allUnrecognized, help: "LAT LNG (or LAT,LNG) in degrees; negative values need no '--'.")
    var coordinate: [String] = []

    var latitude: Double { numbers[0] }
    var longitude: Double { numbers[1] }
    var numbers: [Double] {
        coordinate.filter { $0 != "--" }.flatMap { $0.split(separator: ",") }.compactMap { Double($0) }
    }

    func validate() throws {
        guard (0...30).contains(zoom) else { throw ValidationError("--zoom must be within 0…30") }
        guard numbers.count == 2 else {
            throw ValidationError("give the latitude and longitude, e.g. geoconv tile 49.26 -123.11 --zoom 10")
        }
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90 else {
            throw ValidationError("the latitude must be within ±90")
        }
    }

    func run() {
        let tile = Tile(containing: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom)
        print(verbose ? "\(tile) quadkey \(tile.quadkey) tms \(tile.z)/\(tile.x)/\(tile.flippedY.y)" : tile.description)
    }
}

struct Tiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: BuildTraits.tileDrawingCommands.isEmpty
            ? "Tiles: list those covering a file's features."
            : "Tiles: list those covering a file's features (the default), or draw them (tiles render).",
        subcommands: [TilesList.self] + BuildTraits.tileDrawingCommands,
        defaultSubcommand: TilesList.self
    )
}

struct TilesList: ParsableCommand, TakesFormatFlags {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The tiles (z/x/y) covering every feature of a file at a zoom.",
        discussion: FormatFlags.help(for: .read))

    @OptionGroup var inputOptions: InputOptions

    @OptionGroup(title: "Choosing what to read (as ogr2ogr)") var selectionOptions: SelectionOptions

    @Option(parsing: .unconditional, help: "Zoom level, 0…24.")
    var zoom: Int

    @Option(
        parsing: .unconditional,
        help: "Print URLs from this template ({x} {y} {z} {-y} {quadkey}) instead of z/x/y.")
    var url: String?

    func validate() throws {
        guard (0...24).contains(zoom) else { throw ValidationError("--zoom must be within 0…24") }
    }

    func run() throws {
        do throws(GeoConvError) {
            let (document, log) = try loadDocument(inputOptions, selecting: selectionOptions, toDo: "tile")
            let output = try ByteWriter(.standardOutput)
            for tile in try document.tiles(zoom: zoom) {
                try output.write((url.map { tile.url($0) } ?? tile.description) + "\n")
            }
            try output.commit()
            for line in log.summary { printError(line) }
        } catch {
            throw fail(error)
        }
    }
}

struct ClusterCommand: ParsableCommand, TakesFormatFlags {
    static let writesFormats = true

    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Cluster point features at a zoom (non-hierarchical distance-based, as the Maps utility libraries).",
        discussion: """
            Writes one feature per cluster, streaming: a Point at the marker that started it
            with count, name ("12 markers"), cluster-bucket (the utility's label: "10+"…),
            marker-size (small, medium, large) and bbox; --members lists its members (the
            markers' ids, or their input positions). A marker alone keeps its properties.
            --all-zooms writes every zoom 0…Z with a "zoom" property. GeoJSON files are
            indexed (positions only in memory); other inputs are read whole.
            """ + "\n\n" + FormatFlags.help(for: [.read, .write])
    )

    @OptionGroup var inputOptions: InputOptions

    @OptionGroup var outputOptions: OutputOptions

    @Option(parsing: .unconditional, help: "The zoom (fractional allowed).")
    var zoom: Double

    @Option(parsing: .unconditional, help: "Cluster distance in screen points (default 100).")
    var distance: Double = 100

    @Flag(
        help:
            "android-maps-utils semantics: ±distance/2 at the floored zoom (default: the iOS library's ±distance at the zoom)."
    )
    var android = false

    @Flag(help: "Cluster every zoom 0…Z in one run.")
    var allZooms = false

    @Flag(help: "List each cluster's members (ids, else input positions); the lists grow with the data.")
    var members = false

    func run() throws {
        do throws(GeoConvError) {
            let source: InputSource = inputOptions.source
            var options = ClusterOptions(
                zooms: allZooms ? (0...max(0, Int(zoom))).map(Double.init) : [zoom], distance: distance,
                variant: android ? .android : .ios, writesZoom: allZooms, listsMembers: members,
                inputFormat: inputOptions.from,
                outputFormat: outputOptions.to
                    ?? (outputOptions.output == "-" ? FormatRegistry.defaultOutputFormat : nil))
            options.formatOptions = inputOptions.options.formatOptions
            let report = try MarkerClusters.write(source, to: outputOptions.target, options: options)
            printError("\(report.markers) markers → \(report.featuresWritten) clusters")
            for line in report.diagnostics.summary { printError(line) }
        } catch {
            throw fail(error)
        }
    }
}
