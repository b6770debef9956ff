// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live outside the main build: `swift run -c release --package-path Benchmarks geoconv-bench …`.
// scripts/bench/* run them side by side with the tools users would pick instead.
let package = Package(
    name: "GeoConvBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "geoconv", path: "..")],
    targets: [
        .executableTarget(
            name: "GeoConvBench",
            dependencies: [.product(name: "GeoConv", package: "geoconv")],
            path: "Sources/GeoConvBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
