// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets outside the main build: every reader (FuzzRead, run once per readable
// format of the registry), a round trip through every writable format (FuzzRoundTrip),
// render/tiles on small canvases (FuzzRender) and the fast XML path against libxml2
// (FuzzXMLFastPath):
//   swift build -c release --sanitize=fuzzer --package-path Fuzz
// scripts/fuzz runs each on its seed corpus in testdata/fuzz/ for a bounded time.
let targets = ["Read", "RoundTrip", "Render"]

let package = Package(
    name: "GeoConvFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "geoconv", path: "..")],
    targets: targets.map { target in
        .executableTarget(
            name: "Fuzz\(target)",
            dependencies: [.product(name: "GeoConv", package: "geoconv")],
            path: "Sources/Fuzz\(target)",
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])]
        )
    } + [
        // The fast XML path (KML runs under --jobs) against libxml2, event by event.
        .executableTarget(
            name: "FuzzXMLFastPath",
            dependencies: [.product(name: "GeoConvXML", package: "geoconv")],
            path: "Sources/FuzzXMLFastPath",
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
