import GeoConv

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer entry point: what `geoconv render`, `tiles` and `tiles render` do with a
/// document, on small canvases.
///
/// The first byte picks the input format (`byte % 5`: geojson, kml, wkt, gpx, polyline) and
/// what is drawn (`byte / 5 % 3`: a 64 × 48 PNG fitted to the features, a 64 × 48 SVG, or
/// the tiles of zooms 0–2 into a temporary MBTiles file); the rest is the document. An input
/// the reader refuses, or whose positions are not longitudes and latitudes (refused at once,
/// as the commands do), is a correct outcome; a crash, a hang (libFuzzer's `-timeout`) or
/// running out of memory is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let selector = Int(data[0])
    let formats: [FileFormat] = [.geoJSON, .kml, .wkt, .gpx, .encodedPolyline]
    let format = formats[selector % formats.count]
    let drawing = (selector / formats.count) % 3
    let document = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var options = ConversionOptions(inputFormat: format)
    options.jobs = 1
    let overlays: OverlayDocument
    do throws(GeoConvError) {
        overlays = try OverlayDocument.load(.memory(document, name: "fuzz"), options: options)
        try overlays.requireLongitudeLatitude(toDo: "draw")
    } catch {
        return 0
    }
    do throws(GeoConvError) {
        switch drawing {
        case 0, 1:
            let renderer = try OverlayRenderer(
                features: overlays.features, header: overlays.header,
                options: RenderOptions(width: 64, height: 48, padding: 4),
                diagnostics: DiagnosticLog())
            let path = temporaryPath(drawing == 0 ? "png" : "svg")
            defer { unlink(path) }
            try renderer.write(overlays.features, to: path)
        default:
            let path = temporaryPath("mbtiles")
            defer { unlink(path) }
            _ = try TileRenderer.render(
                overlays.features, header: overlays.header, to: .mbtiles(path),
                options: TileRenderOptions(zooms: 0...2, tileSize: 256, jobs: 1), diagnostics: DiagnosticLog())
        }
    } catch {
        // A located refusal (a canvas too large, a style it cannot draw) is a correct outcome.
    }
    return 0
}

/// A fresh file name in the temporary folder.
func temporaryPath(_ suffix: String) -> String {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    return directory + "/geoconv-fuzz-render-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).\(suffix)"
}
