// In-process throughput of geoconv's codecs on the shared benchmark data, printed as one
// JSON object per measurement so scripts/bench can put it beside the Python numbers.
//
//   geoconv-bench polyline ENCODED.txt RAW.jsonl [REPEATS]
import Foundation
import GeoConv

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Parses `[[lat,lng],…]` lines (the generator's raw file) without Foundation's JSON.
func parseRaw(_ text: String) -> [[Coordinate]] {
    var paths: [[Coordinate]] = []
    for line in text.split(separator: "\n") {
        var path: [Coordinate] = []
        for pair in line.split(separator: "]") {
            let numbers = pair.split(whereSeparator: { $0 == "[" || $0 == "," }).compactMap { Double($0) }
            if numbers.count == 2 { path.append(Coordinate(latitude: numbers[0], longitude: numbers[1])) }
        }
        paths.append(path)
    }
    return paths
}

func report(_ name: String, points: Int, bytes: Int, times: [Double]) {
    let best = times.min() ?? .nan
    print(
        #"{"tool":"geoconv","task":"\#(name)","points":\#(points),"bytes":\#(bytes),"best_s":\#(best),"points_per_s":\#(Double(points) / best),"mb_per_s":\#(Double(bytes) / best / 1e6)}"#
    )
}

let arguments = CommandLine.arguments
if arguments.count >= 3, arguments[1] == "geodesic" {
    // geoconv's Swift geodesics (Karney 2013) and PROJ's C (geod_inverse, geod_direct, loaded
    // from libproj at run time), in one process on the same segments.
    let paths = parseRaw(try String(contentsOfFile: arguments[2], encoding: .utf8))
    let segments = paths.flatMap { path in zip(path, path.dropFirst()).map { ($0, $1) } }
    let repeats = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3
    let geodesic = Geodesic.wgs84
    func line(_ tool: String, _ task: String, _ result: (seconds: Double, total: Double)) {
        print(
            #"{"tool":"\#(tool)","task":"\#(task)","segments":\#(segments.count),"best_s":\#(result.seconds),"segments_per_s":\#(Double(segments.count) / result.seconds),"total":\#(result.total)}"#
        )
    }
    // The four loops run in turn in each round, so that the machine's drift (this one wanders
    // ±20 % between minutes) falls on Swift and PROJ alike; the best round of each is reported.
    var loops: [(tool: String, task: String, body: () -> Double)] = [
        ("geoconv (Swift)", "wgs84-inverse", { segments.reduce(0) { $0 + geodesic.inverse($1.0, $1.1).distance } }),
        (
            "geoconv (Swift)", "wgs84-direct-1km",
            {
                segments.reduce(0) {
                    let point = geodesic.destination(from: $1.0, distance: 1000, bearing: $1.1.longitude)
                    return $0 + point.latitude + point.longitude
                }
            }
        ),
    ]
    typealias Init = @convention(c) (UnsafeMutableRawPointer, Double, Double) -> Void
    typealias Problem =
        @convention(c) (
            UnsafeRawPointer, Double, Double, Double, Double,
            UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?
        ) -> Void
    if let library = dlopen("libproj.so", RTLD_NOW), let initSymbol = dlsym(library, "geod_init"),
        let inverseSymbol = dlsym(library, "geod_inverse"), let directSymbol = dlsym(library, "geod_direct")
    {
        let geodInit = unsafeBitCast(initSymbol, to: Init.self)
        let inverse = unsafeBitCast(inverseSymbol, to: Problem.self)
        let direct = unsafeBitCast(directSymbol, to: Problem.self)
        let g = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)  // struct geod_geodesic is smaller
        geodInit(g, 6_378_137, 1 / 298.257223563)
        loops.append(
            (
                "PROJ geod_inverse (C)", "wgs84-inverse",
                {
                    var total = 0.0
                    var s12 = 0.0
                    for (a, b) in segments {
                        inverse(g, a.latitude, a.longitude, b.latitude, b.longitude, &s12, nil, nil)
                        total += s12
                    }
                    return total
                }
            ))
        // Latitude and longitude asked for, as `destination` gives them (PROJ skips the
        // longitude's series for an output not asked for).
        loops.append(
            (
                "PROJ geod_direct (C)", "wgs84-direct-1km",
                {
                    var total = 0.0
                    var lat2 = 0.0
                    var lon2 = 0.0
                    for (a, b) in segments {
                        direct(g, a.latitude, a.longitude, b.longitude, 1000, &lat2, &lon2, nil)
                        total += lat2 + lon2
                    }
                    return total
                }
            ))
    }
    var results = [(seconds: Double, total: Double)](repeating: (.infinity, 0), count: loops.count)
    for _ in 0..<repeats {
        for (index, loop) in loops.enumerated() {
            var total = 0.0
            let time = seconds { total = loop.body() }
            results[index] = (min(results[index].seconds, time), total)
        }
    }
    for (index, loop) in loops.enumerated() { line(loop.tool, loop.task, results[index]) }
    if results.count == 4 {
        print(
            #"{"task":"swift/proj time ratio","inverse":\#(results[0].seconds / results[2].seconds),"direct":\#(results[1].seconds / results[3].seconds)}"#
        )
    }
    exit(0)
}
if arguments.count >= 3, arguments[1] == "cluster" {
    // Markers from the points file (read with geoconv's GeoJSON reader, not timed).
    let log = DiagnosticLog()
    var reader = GeoJSONReader(try ByteReader(.file(arguments[2])), diagnostics: log)
    _ = try reader.readHeader()
    var positions: [Coordinate] = []
    while let feature = try reader.next() {
        if case .point(let c)? = feature.geometry { positions.append(c) }
    }
    var clusterer: MarkerClusterer?
    let index = seconds { clusterer = MarkerClusterer(positions: positions) }
    guard let clusterer else { exit(1) }
    var count = 0
    let one = seconds { count = clusterer.clustering(atZoom: 10).count }
    print(#"{"tool":"geoconv","task":"index 1M markers","markers":\#(positions.count),"seconds":\#(index)}"#)
    print(#"{"tool":"geoconv","task":"cluster at zoom 10","clusters":\#(count),"seconds":\#(one)}"#)
    if CommandLine.arguments.contains("--per-zoom") {
        for z in 0...16 {
            var n = 0
            let t = seconds { n = clusterer.clustering(atZoom: Double(z)).count }
            print("zoom \(z): \(n) clusters in \(t) s")
        }
    }
    var total = 0
    let all = seconds { total = clusterer.clusterings(zooms: (0...16).map(Double.init)).reduce(0) { $0 + $1.count } }
    print(
        #"{"tool":"geoconv","task":"cluster zooms 0-16","clusters":\#(total),"seconds":\#(all),"index_plus_all_s":\#(index + all)}"#
    )
    exit(0)
}
if arguments.count >= 3, arguments[1] == "wkt" {
    try benchmarkWKT(path: arguments[2], repeats: arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3)
    exit(0)
}
guard arguments.count >= 4, arguments[1] == "polyline" else {
    FileHandle.standardError.write(
        Data(
            "usage: geoconv-bench polyline ENCODED.txt RAW.jsonl [REPEATS] | geoconv-bench wkt FILE.wkt [REPEATS]\n"
                .utf8))
    exit(64)
}
let repeats = arguments.count > 4 ? Int(arguments[4]) ?? 5 : 5
let encodedLines = try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n").map(String.init)
let encodedBytes = encodedLines.reduce(0) { $0 + $1.utf8.count }
let paths = parseRaw(try String(contentsOfFile: arguments[3], encoding: .utf8))
let points = paths.reduce(0) { $0 + $1.count }

var decodeTimes: [Double] = []
var decodedPoints = 0
var scratch: [Coordinate] = []
for _ in 0..<repeats {
    decodedPoints = 0
    decodeTimes.append(
        try seconds {
            for line in encodedLines {
                scratch = try EncodedPolyline.decode(line)
                decodedPoints += scratch.count
            }
        })
}
precondition(decodedPoints == points, "decoded \(decodedPoints) points, raw file has \(points)")
report("polyline-decode", points: decodedPoints, bytes: encodedBytes, times: decodeTimes)

var encodeTimes: [Double] = []
var encodedTotal = 0
for _ in 0..<repeats {
    encodedTotal = 0
    encodeTimes.append(
        try seconds {
            for path in paths { encodedTotal += try EncodedPolyline.encode(path).utf8.count }
        })
}
precondition(encodedTotal == encodedBytes, "encoded \(encodedTotal) bytes, the file has \(encodedBytes)")
report("polyline-encode", points: points, bytes: encodedTotal, times: encodeTimes)

/// WKT and WKB parse/write throughput on a one-geometry-per-line file (the same work
/// shapely's from_wkt/to_wkt/from_wkb/to_wkb do on the same lines).
func benchmarkWKT(path: String, repeats: Int) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var lines: [[UInt8]] = []
    data.withUnsafeBytes { raw in
        var start = 0
        for i in 0..<raw.count where raw[i] == 0x0A {
            if i > start { lines.append(Array(raw[start..<i])) }
            start = i + 1
        }
    }
    let bytes = lines.reduce(0) { $0 + $1.count }
    func geometriesReport(_ task: String, _ times: [Double], _ bytes: Int) {
        let best = times.min() ?? .nan
        print(
            #"{"tool":"geoconv","task":"\#(task)","geometries":\#(lines.count),"bytes":\#(bytes),"best_s":\#(best),"geometries_per_s":\#(Double(lines.count) / best),"mb_per_s":\#(Double(bytes) / best / 1e6)}"#
        )
    }
    var geometries: [Geometry] = []
    var times: [Double] = []
    for _ in 0..<repeats {
        geometries.removeAll(keepingCapacity: true)
        times.append(
            try seconds {
                for line in lines {
                    try line.withUnsafeBufferPointer { geometries.append(try WKTParser.parse($0).0.geometry) }
                }
            })
    }
    geometriesReport("wkt-parse", times, bytes)
    times = []
    var written = 0
    for _ in 0..<repeats {
        written = 0
        times.append(
            try seconds {
                var out: [UInt8] = []
                for g in geometries {
                    out.removeAll(keepingCapacity: true)
                    try WKTWriter().append(g, to: &out)
                    written += out.count
                }
            })
    }
    geometriesReport("wkt-write", times, written)
    var wkbs: [[UInt8]] = []
    times = []
    for _ in 0..<repeats {
        wkbs.removeAll(keepingCapacity: true)
        times.append(
            try seconds {
                for g in geometries {
                    var out: [UInt8] = []
                    try WKB.append(g, to: &out)
                    wkbs.append(out)
                }
            })
    }
    let wkbBytes = wkbs.reduce(0) { $0 + $1.count }
    geometriesReport("wkb-write", times, wkbBytes)
    times = []
    for _ in 0..<repeats {
        times.append(
            try seconds {
                for w in wkbs { _ = try w.withUnsafeBytes { try WKB.read($0) } }
            })
    }
    geometriesReport("wkb-parse", times, wkbBytes)
}
