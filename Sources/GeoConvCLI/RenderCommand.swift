#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
import ArgumentParser
import GeoConv

/// The folder a file is in (where its relative icon paths point).
func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// `geoconv render IN OUT`: a picture of the overlays.
struct Render: ParsableCommand, TakesFormatFlags {
    static let configuration = CommandConfiguration(
        abstract: "Draw a file's overlays as the Maps SDK shows them: PNG, SVG or PDF by the output's extension.",
        discussion: """
            Web Mercator at --camera LAT,LNG,ZOOM[,BEARING], or fitted to the data in --viewport
            WxH points with the SDK's 64-point padding. Stroke widths in points; spans, geodesic
            lines, polygons with holes, geodesic circles, markers (pins in their colour, or their
            PNG icon beside the input or in the KMZ). What cannot be drawn is reported.
            """ + "\n\n" + FormatFlags.help(for: .read)
    )

    @OptionGroup var inputOptions: InputOptions

    @OptionGroup(title: "Choosing what to read (as ogr2ogr)") var selectionOptions: SelectionOptions

    @OptionGroup(title: "Styling by attribute (docs/styling.md)") var stylingOptions: StylingOptions

    @Argument(help: "The picture: .png, .svg or .pdf.")
    var output: String

    @Option(parsing: .unconditional, help: "The camera, LAT,LNG,ZOOM[,BEARING] (default: fitted to the data).")
    var camera: String?

    @Option(parsing: .unconditional, help: "The view in points, WIDTHxHEIGHT (default 512x512).")
    var viewport = "512x512"

    @Option(parsing: .unconditional, help: "Pixels per point (2 for Retina); PNG only.")
    var scale = 1.0

    @Option(parsing: .unconditional, help: "Points kept free on every side when fitting (default 64, as fitBounds).")
    var padding = 64.0

    @Option(parsing: .unconditional, help: "The background: a CSS colour, or 'none' for transparent (default #f2efe9).")
    var background: String?

    @Flag(help: "Cluster point markers at the camera's zoom, drawn as the utility libraries' count bubbles.")
    var cluster = false

    @Flag(help: "Draw --classify's classes as a legend in the bottom-left corner: colour, label and count.")
    var legend = false

    func validate() throws {
        guard let format = RenderFormat(path: output) else {
            throw ValidationError("the output must end in .png, .svg or .pdf")
        }
        guard scale > 0, scale <= 8 else { throw ValidationError("--scale must be within (0, 8]") }
        guard scale == 1 || format == .png else {
            throw ValidationError(
                "--scale applies to PNG only: \(format.rawValue.uppercased()) is drawn in points, sharp at every zoom; drop --scale, or write a .png"
            )
        }
        guard viewportSize != nil else {
            throw ValidationError("--viewport must be WIDTHxHEIGHT in points, e.g. 390x844")
        }
        if camera != nil, cameraPosition == nil {
            throw ValidationError("--camera must be LAT,LNG,ZOOM[,BEARING], e.g. 51.5,-0.12,12")
        }
        if let background, background != "none", Color(css: background) == nil {
            throw ValidationError("--background must be a CSS colour or none")
        }
    }

    var viewportSize: (Double, Double)? {
        let parts = viewport.lowercased().split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0 <= 16_384 }) else { return nil }
        return (parts[0], parts[1])
    }

    var cameraPosition: CameraPosition? {
        guard let camera else { return nil }
        let values = camera.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 3 || values.count == 4, values.allSatisfy(\.isFinite), abs(values[0]) <= 90 else {
            return nil
        }
        return CameraPosition(
            target: Coordinate(latitude: values[0], longitude: values[1]), zoom: values[2],
            bearing: values.count == 4 ? values[3] : 0)
    }

    func run() throws {
        do throws(GeoConvError) {
            let (document, log) = try loadDocument(
                inputOptions, selecting: selectionOptions, styling: stylingOptions, toDo: "draw")
            let (width, height) = viewportSize ?? (512, 512)
            var options = RenderOptions(
                width: width, height: height, scale: scale, camera: cameraPosition, padding: padding)
            if let background { options.background = background == "none" ? nil : Color(css: background) }
            options.clustersMarkers = cluster
            if legend {
                guard let classes = document.legend else {
                    throw GeoConvError(
                        .usage, "--legend draws --classify's classes, and none is given",
                        hint: "add --classify PROPERTY, or drop --legend")
                }
                options.legend = classes
            }
            let directory = folder(of: inputOptions.input)
            let renderer = try OverlayRenderer(
                features: document.features, header: document.header, options: options,
                iconDirectory: directory, diagnostics: log)
            try renderer.write(document.features, to: output)
            printWarnings(log)
        } catch {
            throw fail(error)
        }
    }
}

/// `geoconv tiles render IN OUT --zoom MIN-MAX`: a tile layer.
struct TilesRender: ParsableCommand, TakesFormatFlags {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a file's overlays into map tiles: a {z}/{x}/{y}.png folder or an .mbtiles file (MBTiles 1.3).",
        discussion: """
            Only tiles where something is drawn; seamless across tile edges; --jobs tiles at once.
            For a folder, OUT.geojson beside it records the tile layer (geoconv:tileLayers), so a
            conversion to KML carries it on. Show the tiles with GMSURLTileLayer (docs/render.md).
            """ + "\n\n" + FormatFlags.help(for: .read)
    )

    @OptionGroup var inputOptions: InputOptions

    @OptionGroup(title: "Choosing what to read (as ogr2ogr)") var selectionOptions: SelectionOptions

    @OptionGroup(title: "Styling by attribute (docs/styling.md)") var stylingOptions: StylingOptions

    @Argument(help: "A folder for {z}/{x}/{y}.png, or a file ending in .mbtiles.")
    var output: String

    @Option(parsing: .unconditional, help: "Zooms, MIN-MAX (or one zoom), within 0…22.")
    var zoom: String

    @Option(name: .customLong("tile-size"), parsing: .unconditional, help: "Tile side in pixels: 256 (default) or 512.")
    var tileSize = 256

    @Option(parsing: .unconditional, help: "Tiles drawn at once (default: the processor count, at most 8).")
    var jobs: Int?

    var zooms: ClosedRange<Int>? {
        let parts = zoom.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 1 || parts.count == 2, let low = parts.first, let high = parts.last, 0 <= low, low <= high,
            high <= 22
        else {
            return nil
        }
        return low...high
    }

    func validate() throws {
        guard zooms != nil else { throw ValidationError("--zoom must be MIN-MAX within 0…22, e.g. 0-12") }
        guard tileSize == 256 || tileSize == 512 else { throw ValidationError("--tile-size must be 256 or 512") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be within 1…256") }
    }

    func run() throws {
        do throws(GeoConvError) {
            let (document, log) = try loadDocument(
                inputOptions, selecting: selectionOptions, styling: stylingOptions, toDo: "draw")
            let destination = TileOutput(path: output)
            let directory = folder(of: inputOptions.input)
            let options = TileRenderOptions(
                zooms: zooms ?? 0...0, tileSize: tileSize, jobs: jobs ?? ConversionOptions.defaultJobs)
            let report = try TileRenderer.render(
                document.features, header: document.header, to: destination, options: options,
                iconDirectory: directory, diagnostics: log)
            if case .folder(let folder) = destination {
                // The layer, recorded beside the tiles for a conversion to carry on.
                let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
                let name = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
                var header = DocumentHeader(name: document.header.name)
                header.tileLayers = [
                    TileLayer(
                        urlTemplate: name + "/{z}/{x}/{y}.png", name: document.header.name,
                        tileSize: tileSize == 512 ? .retina : .standard)
                ]
                let sibling = OverlayDocument(header: header)
                try sibling.save(to: .file(trimmed + ".geojson"), options: ConversionOptions(outputFormat: .geoJSON))
            }
            printError(
                "\(report.tilesWritten) tiles written ("
                    + report.tilesPerZoom.keys.sorted().map { "z\($0): \(report.tilesPerZoom[$0] ?? 0)" }
                    .joined(separator: ", ") + ")")
            printWarnings(log)
        } catch {
            throw fail(error)
        }
    }
}
#endif
