import GeoConvCore
public import GeoConvFormatKit

extension FileFormat {
    /// KML 2.2 (2.1 and prefixed documents are read too).
    public static let kml = FileFormat(
        name: "kml",
        extensions: ["kml"],
        summary: "KML 2.2: placemarks, styles, folders, ExtendedData, tracks, overlays",
        capabilities: FormatCapabilities(
            isWGS84Only: true, holdsCircles: true, drawsCirclesAsPolygons: true,
            listsValues: { input throws(GeoConvError) in
                try KMLValueListing.values(of: input)
            },
            keepsPropertyOrder: false, styleReferenceKey: "styleUrl",
            mergesGeometryKinds: true, holdsStyleAsElements: true,
            gdalReading: .init(driver: "LIBKML", fileExtension: "kml"),
            holdsHeader: [.name, .description, .camera, .tileLayers], heldDocumentMembers: [ModelKey.view.name]),
        diagnosticCodes: KMLCode.names,
        sniff: { prefix in
            guard let (byte, index) = FormatSniffing.firstSignificantByte(prefix), byte == UInt8(ascii: "<") else {
                return false
            }
            let head = String(decoding: prefix[index...].prefix(2048), as: UTF8.self)
            return head.contains("<kml") || head.contains(":kml") || head.contains("opengis.net/kml")
        },
        // The reader finds runs of Placemarks as it reads (its splitter's fast path, faster on
        // one thread too); who takes them, and on which threads, is the scheduler's business.
        makeReader: .runs { (input, options, diagnostics) throws(GeoConvError) -> any FeatureRunReader in
            try KMLReader(
                input, options: KMLReadOptions(skipsInvalidFeatures: options.skipInvalid, cutsRuns: true),
                diagnostics: diagnostics)
        },
        makeWriter: .keyedRecords { output, options, diagnostics in
            KMLWriter(
                output, options: KMLWriteOptions(precision: options.coordinatePrecision), diagnostics: diagnostics)
        }
    )

    /// KMZ: a zip archive holding `doc.kml`.
    public static let kmz = FileFormat(
        name: "kmz",
        extensions: ["kmz"],
        summary: "KMZ: zipped KML (doc.kml first), with zip-bomb limits",
        capabilities: FormatCapabilities(
            isWGS84Only: true, holdsCircles: true, drawsCirclesAsPolygons: true, holdsEmbeddedFiles: true,
            writesFeaturesAs: "kml",
            listsValues: { input throws(GeoConvError) in
                try KMLValueListing.values(of: KMZ.openMainKML(input).kml)
            },
            keepsPropertyOrder: false, styleReferenceKey: "styleUrl",
            mergesGeometryKinds: true, holdsStyleAsElements: true,
            holdsHeader: [.name, .description, .camera, .tileLayers], heldDocumentMembers: [ModelKey.view.name]),
        diagnosticCodes: KMLCode.names,
        sniff: { prefix in prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) },
        makeReader: .features { (input, options, diagnostics) throws(GeoConvError) -> any FeatureReader in
            try KMZReader(
                input, options: KMLReadOptions(skipsInvalidFeatures: options.skipInvalid, cutsRuns: true),
                diagnostics: diagnostics)
        },
        makeWriter: .keyedFeatures { (output, options, diagnostics) throws(GeoConvError) -> any LossKeyedWriter in
            try KMZWriter(
                output, options: KMLWriteOptions(precision: options.coordinatePrecision),
                sourceDirectory: options.sourceDirectory,
                diagnostics: diagnostics)
        }
    )
}
