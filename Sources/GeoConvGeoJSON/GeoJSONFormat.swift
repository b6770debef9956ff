import GeoConvCore
public import GeoConvFormatKit

extension GeoJSONReader: ValidatingReader {}

/// Whether a document starting `{` holds one object per line (a text sequence): a `}`
/// then a newline then `{` within the first bytes.
private func looksLineDelimited(_ prefix: [UInt8], from index: Int) -> Bool {
    guard let newline = prefix[index...].firstIndex(of: 0x0A), newline > index, newline + 1 < prefix.endIndex else {
        return false
    }
    return prefix[newline - 1] == UInt8(ascii: "}") && prefix[newline + 1] == UInt8(ascii: "{")
}

/// The options GeoJSON's writers take (`ConversionOptions.formatOptions`).
public enum GeoJSONOptions {
    /// Indented output.
    public static let pretty = FormatOption<Bool>(
        name: "pretty", key: "PRETTY", sides: .write,
        help: "Indent GeoJSON output.")
    /// A `bbox` on every feature and on the collection.
    public static let boundingBoxes = FormatOption<Bool>(
        name: "write-bbox", key: "WRITE_BBOX", sides: .write,
        help: "Write a bbox on every GeoJSON feature and on the collection (GDAL's WRITE_BBOX).")
    /// Text sequences' records delimited by RS (RFC 8142) rather than newlines; by default
    /// RS for `.geojsons` files only.
    public static let recordSeparator = FormatOption<Bool>(
        name: "rs", key: "RS", sides: .write,
        help: "Delimit GeoJSON text sequence records with RS (RFC 8142); default for .geojsons only.")
    /// Geometry written exactly as read: rings not rewound to RFC 7946's orientation, nor cut
    /// at the antimeridian (the loss report then says the output is not RFC 7946).
    public static let keepsGeometry = FormatOption<Bool>(
        name: "keep-geometry", key: "KEEP_GEOMETRY", sides: .write,
        help:
            "Write GeoJSON geometry exactly as read: no RFC 7946 rewinding or antimeridian cut (the output is then not RFC 7946)."
    )
}

extension FileFormat {
    /// GeoJSON (RFC 7946; the 2008 form with `crs` is read too).
    public static let geoJSON = FileFormat(
        name: "geojson",
        extensions: ["geojson", "json"],
        summary: "GeoJSON FeatureCollection, Feature or geometry (RFC 7946)",
        capabilities: FormatCapabilities(
            isWGS84Only: true, holdsCircles: true,
            makeValidator: { input, _, diagnostics throws(GeoConvError) in
                // (Standard input copied to a file first, so that a "crs" after the features is read before them.)
                var reader = GeoJSONReader(
                    try input.readableAgain(), options: GeoJSONReadOptions(), diagnostics: diagnostics)
                reader.collectsProblems = true
                return reader
            },
            listsValues: { input throws(GeoConvError) in try GeoJSONValueListing.values(of: input) },
            rewindsRings: true, gdalReading: .init(driver: "GeoJSON", fileExtension: "geojson"), holdsHeader: .all
        ),
        options: [GeoJSONOptions.pretty, GeoJSONOptions.boundingBoxes, GeoJSONOptions.keepsGeometry].map(\.declared),
        diagnosticCodes: GeoJSONCode.names,
        sniff: { prefix in
            guard let (byte, index) = FormatSniffing.firstSignificantByte(prefix), byte == UInt8(ascii: "{") else {
                return false
            }
            return !looksLineDelimited(prefix, from: index)
        },
        makeReader: .markers { input, options, diagnostics throws(GeoConvError) in
            var readOptions = GeoJSONReadOptions(skipsInvalidFeatures: options.skipInvalid)
            readOptions.sourceCRSIsGiven = options.sourceCRS != nil
            // Standard input is copied to a file first (unless --s-srs says what the
            // coordinates are), so that a "crs" after the features is read before them.
            return GeoJSONReader(
                readOptions.sourceCRSIsGiven ? input : try input.readableAgain(), options: readOptions,
                diagnostics: diagnostics)
        },
        makeWriter: .keyedRecords { output, options, diagnostics in
            GeoJSONWriter(
                output,
                options: GeoJSONWriteOptions(
                    precision: options.coordinatePrecision,
                    pretty: options.formatOptions[GeoJSONOptions.pretty] ?? false,
                    writesBoundingBoxes: options.formatOptions[GeoJSONOptions.boundingBoxes] ?? false,
                    rfc7946: !(options.formatOptions[GeoJSONOptions.keepsGeometry] ?? false)),
                diagnostics: diagnostics)
        }
    )

    /// GeoJSON text sequences: RFC 8142 (RS-delimited, `.geojsons`) and newline-delimited
    /// GeoJSON (`.geojsonl`, `.ndjson`), one Feature or geometry per record.
    public static let geoJSONSequence = FileFormat(
        name: "geojsonseq",
        extensions: ["geojsons", "geojsonl", "geojsonseq", "ndjson", "jsonl"],
        summary: "GeoJSON text sequence: one Feature per record (RFC 8142 RS-delimited, or one per line)",
        capabilities: FormatCapabilities(
            isWGS84Only: true, holdsCircles: true, lineRecords: LineRecords(),
            impliedOptions: { path, role, options in
                // RFC 8142's own extension means RS-delimited records.
                if role == .output, options.formatOptions[GeoJSONOptions.recordSeparator] == nil, let path,
                    path.hasSuffix(".geojsons")
                {
                    options.formatOptions[GeoJSONOptions.recordSeparator] = true
                }
            },
            makeValidator: { input, _, diagnostics in
                var reader = GeoJSONReader(
                    input, options: GeoJSONReadOptions(isSequence: true), diagnostics: diagnostics)
                reader.collectsProblems = true
                return reader
            },
            listsValues: { input throws(GeoConvError) in try GeoJSONValueListing.values(of: input) },
            rewindsRings: true, gdalReading: .init(driver: "GeoJSONSeq", fileExtension: "geojsonl"), holdsHeader: []
        ),
        options: [GeoJSONOptions.recordSeparator, GeoJSONOptions.boundingBoxes, GeoJSONOptions.keepsGeometry]
            .map(\.declared),
        diagnosticCodes: GeoJSONCode.names,
        sniff: { prefix in
            guard let (byte, index) = FormatSniffing.firstSignificantByte(prefix) else { return false }
            if byte == 0x1E { return true }
            return byte == UInt8(ascii: "{") && looksLineDelimited(prefix, from: index)
        },
        makeReader: .markers { input, options, diagnostics in
            GeoJSONReader(
                input, options: GeoJSONReadOptions(isSequence: true, skipsInvalidFeatures: options.skipInvalid),
                diagnostics: diagnostics)
        },
        makeWriter: .keyedRecords { output, options, diagnostics in
            GeoJSONWriter(
                output,
                options: GeoJSONWriteOptions(
                    precision: options.coordinatePrecision, pretty: false,
                    writesBoundingBoxes: options.formatOptions[GeoJSONOptions.boundingBoxes] ?? false,
                    rfc7946: !(options.formatOptions[GeoJSONOptions.keepsGeometry] ?? false),
                    sequence: options.formatOptions[GeoJSONOptions.recordSeparator] == true
                        ? .recordSeparator : .newline),
                diagnostics: diagnostics)
        }
    )
}
