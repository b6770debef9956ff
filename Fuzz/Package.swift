// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets, one per reader, outside the main build:
//   swift build -c release --sanitize=fuzzer --package-path Fuzz
// scripts/fuzz runs each on its seed corpus in testdata/fuzz/ for a bounded time.
let readers = ["Polyline", "GeoJSON", "KML", "KMZ", "WKT", "WKB"]

let package = Package(
    name: "GeoConvFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "geoconv", path: "..")],
    targets: readers.map { reader in
        .executableTarget(
            name: "Fuzz\(reader)",
            dependencies: [.product(name: "GeoConv", package: "geoconv")],
            path: "Sources/Fuzz\(reader)",
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])]
        )
    }
)
