// swift-tools-version: 6.1
import PackageDescription

/// geoconv: map overlays between encoded polylines, GeoJSON, KML/KMZ, WKT/WKB, GPX, CSV,
/// Shapefile and GeoParquet. The target layout follows the design's §1 (`../shared/DESIGN.md`;
/// as built, `docs/architecture.md`): a format-agnostic core, one target per format, an
/// umbrella that knows them all, and the command line on top.
let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Where the C libraries come through pkg-config, from the system-library targets below.
/// Apple platforms take libxml2, zlib and SQLite from their SDK instead: the code imports the
/// SDK's `libxml2`, `zlib` and `SQLite3` modules where the system-library ones are absent
/// (`#if canImport`). PROJ and Cairo are in no Apple SDK: on macOS they come from Homebrew
/// through pkg-config; on iOS, tvOS and visionOS an app depends on geoconv with `traits: []`.
/// See docs/library.md for what was built and tested where.
let pkgConfigPlatforms: [Platform] = [.linux, .android, .openbsd, .windows, .wasi]

let package = Package(
    name: "geoconv",
    // The oldest releases with the Synchronization module (`Mutex`, `Atomic`), which the core uses.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
    products: [
        // `import GeoConv` re-exports the modules listed with it; they are listed so that the
        // API digester (scripts/check-api-breaks) compares each of them with the last tag.
        .library(
            name: "GeoConv",
            targets: [
                "GeoConv", "GeoConvCore", "GeoConvIO", "GeoConvFormatKit", "GeoConvGeometry", "GeoConvGeometryEncoding",
                "GeoConvProjection", "GeoConvRender", "GeoConvGeoJSON", "GeoConvKML", "GeoConvGPX", "GeoConvCSV",
                "GeoConvWKT", "GeoConvEncodedPolyline", "GeoConvShapefile", "GeoConvGeoParquet",
                "GeoConvFlatGeobuf", "GeoConvGeoPackage",
            ]),
        // The XML layer alone, for the fuzzer that checks the fast XML path against libxml2.
        .library(name: "GeoConvXML", targets: ["GeoConvXML"]),
        .executable(name: "geoconv", targets: ["GeoConvCLI"]),
    ],
    // What a command-line user wants and an app mostly does not: both on by default (the CLI
    // and the README's commands), off with `--disable-default-traits`, which leaves a core that
    // links libxml2 and zlib only.
    traits: [
        .trait(name: "PROJ", description: "Reprojection between arbitrary CRSs through PROJ (libproj); without it WGS84 and Web Mercator are handled natively"),
        .trait(name: "Rendering", description: "Drawing with Cairo and MBTiles with SQLite: geoconv render, tiles render"),
        .trait(name: "Shapefile", description: "Reading and writing Esri Shapefiles through shapelib (libshp)"),
        .trait(name: "Zstd", description: "GeoParquet pages compressed with zstd (libzstd); without it, gzip and none (and Snappy when reading)"),
        .trait(name: "GeoPackage", description: "Reading GeoPackage (.gpkg) through SQLite (libsqlite3)"),
        .default(enabledTraits: ["PROJ", "Rendering", "Shapefile", "Zstd", "GeoPackage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        // `swift package generate-documentation` (the DocC catalog in Sources/GeoConv/GeoConv.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // C libraries through pkg-config; module map and shim header only.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CGeoConvZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CShapelib",
            pkgConfig: "shapelib",
            providers: [.apt(["libshp-dev"]), .brew(["shapelib"])]
        ),
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        .systemLibrary(
            name: "CPROJ",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"]), .brew(["proj"])]
        ),

        // Scanning bytes eight at a time: shared by the JSON scanner and the XML readers.
        .target(name: "GeoConvBytes", swiftSettings: strictSwift),
        // The overlay model: coordinates, geometries, features, properties, styles, the
        // document header, errors and diagnostics.
        .target(
            name: "GeoConvCore",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: strictSwift
        ),
        // Bytes in and out (files, standard streams, spools, temporary files) and the JSON
        // tokenizer every JSON-bearing format shares.
        .target(
            name: "GeoConvIO",
            dependencies: ["GeoConvCore", "GeoConvBytes", .product(name: "OrderedCollections",
                package: "swift-collections")],
            swiftSettings: strictSwift
        ),
        // What a format is and implements: the reader, writer and transform protocols, the
        // one pump, formats, options and capabilities, runs of features for --jobs.
        .target(
            name: "GeoConvFormatKit",
            dependencies: [
                "GeoConvCore", "GeoConvIO", "GeoConvBytes",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        // Geometries as WKT and WKB text and bytes: shared by the WKT, CSV and GeoParquet
        // formats without entering the model (orb's encoding/internal/wkbcommon).
        .target(name: "GeoConvGeometryEncoding", dependencies: ["GeoConvCore", "GeoConvIO", "GeoConvFormatKit"],
            swiftSettings: strictSwift),
        .target(name: "GeoConvEncodedPolyline", dependencies: ["GeoConvCore", "GeoConvIO", "GeoConvFormatKit"],
            swiftSettings: strictSwift),
        .target(name: "GeoConvGeoJSON", dependencies: ["GeoConvCore", "GeoConvIO", "GeoConvFormatKit"],
            swiftSettings: strictSwift),
        .target(name: "GeoConvWKT", dependencies: ["GeoConvCore", "GeoConvIO", "GeoConvFormatKit",
            "GeoConvGeometryEncoding"], swiftSettings: strictSwift),
        .target(name: "GeoConvCSV", dependencies: ["GeoConvCore", "GeoConvIO", "GeoConvFormatKit",
            "GeoConvGeometryEncoding"], swiftSettings: strictSwift),
        // No Foundation here: see DESIGN §1 (ICU clash between libxml2 and Foundation).
        .target(
            name: "GeoConvXML",
            dependencies: [.target(name: "CLibXML2", condition: .when(platforms: pkgConfigPlatforms)), "GeoConvBytes"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "GeoConvKML",
            dependencies: [
                "GeoConvCore", "GeoConvIO", "GeoConvFormatKit", "GeoConvXML", "GeoConvBytes",
                    .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        .target(name: "GeoConvGPX", dependencies: ["GeoConvCore", "GeoConvIO", "GeoConvFormatKit", "GeoConvXML"],
            swiftSettings: strictSwift),
        .target(name: "GeoConvGeometry", dependencies: ["GeoConvCore", "GeoConvIO", "GeoConvFormatKit"],
            swiftSettings: strictSwift),
        // Empty without the Shapefile trait (every file is `#if Shapefile`).
        .target(
            name: "GeoConvShapefile",
            dependencies: [
                "GeoConvCore", "GeoConvIO", "GeoConvFormatKit", "GeoConvProjection", .product(name: "ZIPFoundation",
                    package: "ZIPFoundation"),
                .target(name: "CShapelib", condition: .when(traits: ["Shapefile"])),
            ],
            swiftSettings: strictSwift
        ),
        // Empty without the Rendering trait (every file is `#if Rendering`).
        .target(
            name: "GeoConvRender",
            dependencies: [
                "GeoConvCore", "GeoConvIO", "GeoConvFormatKit", "GeoConvGeometry",
                .target(name: "CGeoConvZlib", condition: .when(platforms: pkgConfigPlatforms)),
                .target(name: "CCairo", condition: .when(traits: ["Rendering"])),
                .target(name: "CSQLite", condition: .when(platforms: pkgConfigPlatforms, traits: ["Rendering"])),
            ],
            swiftSettings: strictSwift
        ),
        // Parquet written and read from its specification (Thrift compact footers, PLAIN and
        // dictionary pages); zstd with the Zstd trait.
        .target(
            name: "GeoConvParquet",
            dependencies: [
                "GeoConvCore", "GeoConvIO", "GeoConvBytes",
                .target(name: "CGeoConvZlib", condition: .when(platforms: pkgConfigPlatforms)),
                .target(name: "CZstd", condition: .when(traits: ["Zstd"])),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "GeoConvFlatGeobuf",
            dependencies: ["GeoConvCore", "GeoConvIO", "GeoConvFormatKit", "GeoConvGeometryEncoding", "GeoConvRows"],
            swiftSettings: strictSwift),
        .target(
            name: "GeoConvGeoParquet",
            dependencies: [
                "GeoConvCore", "GeoConvIO", "GeoConvBytes", "GeoConvFormatKit", "GeoConvGeometryEncoding",
                "GeoConvProjection", "GeoConvParquet", "GeoConvRows",
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "GeoConvGeoPackage",
            dependencies: [
                "GeoConvCore", "GeoConvIO", "GeoConvFormatKit", "GeoConvGeometryEncoding", "GeoConvRows",
                "GeoConvProjection",
                .target(name: "CSQLite", condition: .when(platforms: pkgConfigPlatforms, traits: ["GeoPackage"])),
            ],
            swiftSettings: strictSwift
        ),
        // Typed rows shared by the formats with typed columns (GeoParquet, FlatGeobuf): a
        // feature's cells spooled in a tagged binary form, and the column types they settle on.
        // Hidden: not in the product, not in the model.
        .target(
            name: "GeoConvRows",
            dependencies: [
                "GeoConvCore", "GeoConvBytes", "GeoConvGeometryEncoding", "GeoConvIO", "GeoConvFormatKit",
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "GeoConvProjection",
            dependencies: ["GeoConvCore", "GeoConvIO", "GeoConvFormatKit", .target(name: "CPROJ",
                condition: .when(traits: ["PROJ"]))],
            swiftSettings: strictSwift
        ),
        // --jobs: the decorators of the one pump (runs read, transformed and written on
        // workers; reading ahead) and the route that picks one. No codec starts a thread.
        .target(
            name: "GeoConvParallel",
            dependencies: [
                "GeoConvCore", "GeoConvIO", "GeoConvFormatKit",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "GeoConv",
            dependencies: [
                "GeoConvCore", "GeoConvIO", "GeoConvFormatKit", "GeoConvParallel", "GeoConvGeometryEncoding",
                "GeoConvEncodedPolyline", "GeoConvGeoJSON", "GeoConvWKT",
                "GeoConvXML", "GeoConvKML", "GeoConvGPX", "GeoConvCSV", "GeoConvShapefile", "GeoConvGeoParquet", "GeoConvFlatGeobuf", "GeoConvGeoPackage", "GeoConvProjection", "GeoConvGeometry", "GeoConvRender",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "GeoConvCLI",
            // (It imports the model and the XML reader's error type as well as the umbrella.)
            dependencies: ["GeoConv", "GeoConvCore", "GeoConvIO", "GeoConvFormatKit", "GeoConvXML",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSwift
        ),

        // What tests share: fixture paths, the geoconv runner, XSD validation, a recording
        // writer and a drip-feed input.
        .target(
            name: "GeoConvTestSupport",
            dependencies: [
                "GeoConvCore", "GeoConvIO", "GeoConvFormatKit",
                .target(name: "CLibXML2", condition: .when(platforms: pkgConfigPlatforms)),
            ],
            path: "Tests/GeoConvTestSupport",
            swiftSettings: strictSwift
        ),
        // A module's own tests build without the command line (and the XML layer's without
        // any codec); GeoConvTests holds the pipeline's, the CLI's and the cross-format ones.
        .testTarget(name: "GeoConvXMLTests", dependencies: ["GeoConvXML", "GeoConvTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvGeoJSONTests", dependencies: ["GeoConvGeoJSON", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvWKTTests", dependencies: ["GeoConvWKT", "GeoConvTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvEncodedPolylineTests", dependencies: ["GeoConvEncodedPolyline", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvGPXTests", dependencies: ["GeoConvGPX", "GeoConvTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvCSVTests", dependencies: ["GeoConvCSV", "GeoConvTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvShapefileTests", dependencies: ["GeoConvShapefile", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(name: "GeoConvCoreTests", dependencies: ["GeoConvCore", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvGeometryTests",
            dependencies: ["GeoConvGeometry", "GeoConvTestSupport", .target(name: "CPROJ",
                condition: .when(traits: ["PROJ"]))],
            swiftSettings: strictSwift
        ),
        .testTarget(name: "GeoConvProjectionTests", dependencies: ["GeoConvProjection", "GeoConvTestSupport"],
                    swiftSettings: strictSwift),
        .testTarget(name: "GeoConvParquetTests", dependencies: ["GeoConvParquet", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(name: "GeoConvRenderTests", dependencies: ["GeoConvRender", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvFlatGeobufTests", dependencies: ["GeoConvFlatGeobuf", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvGeoParquetTests", dependencies: ["GeoConvGeoParquet", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvKMLTests", dependencies: ["GeoConvKML", "GeoConvXML", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvTests",
            dependencies: [
                "GeoConv", "GeoConvParallel", "GeoConvXML", "GeoConvParquet", "GeoConvCLI", "GeoConvTestSupport",
                .target(name: "CLibXML2", condition: .when(platforms: pkgConfigPlatforms)),
                .target(name: "CSQLite", condition: .when(platforms: pkgConfigPlatforms, traits: ["Rendering"])),
                .target(name: "CPROJ", condition: .when(traits: ["PROJ"])),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "GeoConvGeoPackageTests", dependencies: ["GeoConvGeoPackage", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "GeoConvRowsTests", dependencies: ["GeoConvRows", "GeoConvTestSupport"],
            swiftSettings: strictSwift),
    ]
)
