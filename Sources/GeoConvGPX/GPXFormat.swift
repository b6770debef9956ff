import GeoConvCore
public import GeoConvFormatKit

extension FileFormat {
    /// GPX 1.1 (1.0 read too): waypoints, routes and tracks.
    public static let gpx = FileFormat(
        name: "gpx",
        extensions: ["gpx"],
        summary: "GPX 1.1 (1.0 read): waypoints, routes, tracks with times and elevations",
        capabilities: FormatCapabilities(
            isWGS84Only: true,
            listsValues: { input throws(GeoConvError) in
                try GPXValueListing.values(of: input)
            },
            keepsPropertyOrder: false, writtenOrder: GPXWriter.order(of:),
            gdalReading: .init(driver: "GPX", fileExtension: "gpx"), holdsHeader: [.name, .description],
            heldDocumentMembers: [GPXNames.metadataMember]),
        diagnosticCodes: GPXCode.names,
        sniff: { prefix in
            guard let (byte, index) = FormatSniffing.firstSignificantByte(prefix), byte == UInt8(ascii: "<") else {
                return false
            }
            let head = String(decoding: prefix[index...].prefix(2048), as: UTF8.self)
            return head.contains("<gpx") || head.contains("topografix.com/GPX")
        },
        makeReader: .features { (input, options, diagnostics) throws(GeoConvError) -> any FeatureReader in
            try GPXReader(
                input, options: GPXReadOptions(skipsInvalidFeatures: options.skipInvalid), diagnostics: diagnostics)
        },
        makeWriter: .keyedFeatures { output, options, diagnostics in
            GPXWriter(
                output, options: GPXWriteOptions(precision: options.coordinatePrecision), diagnostics: diagnostics)
        }
    )
}
