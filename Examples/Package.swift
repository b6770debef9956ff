// swift-tools-version: 6.1
import PackageDescription

// A small program that uses geoconv as a library, the way an app would:
//   swift run --package-path Examples trail-report ../testdata/kml/trails.kml trails.geojson
let package = Package(
    name: "GeoConvExamples",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "geoconv", path: "..")],
    targets: [
        .executableTarget(
            name: "trail-report",
            dependencies: [.product(name: "GeoConv", package: "geoconv")],
            path: "Sources/TrailReport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
