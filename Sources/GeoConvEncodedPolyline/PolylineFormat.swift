import GeoConvCore
public import GeoConvFormatKit

/// The options encoded-polyline files take (`ConversionOptions.formatOptions`).
public enum PolylineOptions {
    /// Decimal digits the coordinates are encoded with: 5 (Google) or 6 (OSRM, Valhalla);
    /// 0…13 accepted. By default 6 for `.polyline6` files, else 5.
    public static let precision = FormatOption<Int>(
        name: "polyline-precision", key: "PRECISION", sides: [.read, .write],
        help: "Encoded-polyline precision: 5 (Google) or 6 (OSRM, Valhalla); 0…13 accepted. Default 6 for .polyline6, "
            + "else 5; for reading and writing alike (--oo PRECISION=6 --co PRECISION=5 set them apart).",
        allowed: (
            "0…13 (5 for Google, 6 for OSRM and Valhalla)",
            { EncodedPolyline.supportedPrecisions.contains($0) }
        ))
}

extension FileFormat {
    /// Google encoded polylines, one feature per line (see `PolylineFileReader` for the grammar).
    public static let encodedPolyline = FileFormat(
        name: "polyline",
        extensions: ["polyline", "polyline5", "polyline6", "encpoly"],
        summary: "Google encoded polylines, one feature per line",
        capabilities: FormatCapabilities(
            isWGS84Only: true, lineRecords: LineRecords(),
            impliedOptions: { path, _, options in
                // OSRM and Valhalla's precision-6 polylines are named `.polyline6`.
                if options.formatOptions[PolylineOptions.precision] == nil {
                    options.formatOptions[PolylineOptions.precision] =
                        path?.hasSuffix(".polyline6") == true ? 6 : EncodedPolyline.defaultPrecision
                }
            },
            writtenOrder: PolylineFileWriter.heldFeatures(_:), defaultDecimals: 5, holdsHeader: []
        ),
        options: [PolylineOptions.precision.declared],
        diagnosticCodes: PolylineCode.names,
        sniff: { prefix in
            // Only the polyline alphabet, separators, parentheses and '#' comments.
            guard !prefix.isEmpty else { return false }
            var sawPolylineByte = false
            for byte in prefix {
                switch byte {
                case 63...126: sawPolylineByte = true
                case 9, 10, 13, 32, 40, 41, 35: continue
                default: return false
                }
            }
            return sawPolylineByte && prefix.first != UInt8(ascii: "{") && prefix.first != UInt8(ascii: "[")
        },
        makeReader: .features { input, options, diagnostics in
            PolylineFileReader(
                input,
                options: PolylineFileOptions(
                    precision: options.formatOptions[PolylineOptions.precision] ?? EncodedPolyline.defaultPrecision,
                    skipsInvalidLines: options.skipInvalid),
                diagnostics: diagnostics)
        },
        makeWriter: .keyedRecords { output, options, diagnostics in
            PolylineFileWriter(
                output,
                options: PolylineFileOptions(
                    precision: options.formatOptions[PolylineOptions.precision] ?? EncodedPolyline.defaultPrecision),
                diagnostics: diagnostics)
        }
    )
}
