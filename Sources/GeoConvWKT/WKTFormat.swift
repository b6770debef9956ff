import GeoConvCore
public import GeoConvFormatKit
import GeoConvGeometryEncoding

private let hexDigits = Set("0123456789abcdefABCDEF".utf8)

/// The value of two hex digits, or `nil`.
func hexByte(_ high: UInt8, _ low: UInt8) -> UInt8? {
    func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
    guard let h = nibble(high), let l = nibble(low) else { return nil }
    return h << 4 | l
}

/// The options WKT's and WKB's readers and writers take (`ConversionOptions.formatOptions`).
public enum WKTOptions {
    /// The largest angle, in degrees, one segment spans when curves (CIRCULARSTRING…) are
    /// linearised; 4° by default, as GDAL.
    public static let arcStep = WKTParser.arcStepOption
    /// The SRID of EWKT/EWKB output: a target CRS, `EPSG:srid`. The data is reprojected to it
    /// (as with `--t-srs`) and the SRID written, even 4326; it is never a label put on data
    /// in another CRS.
    public static let srid = FormatOption<Int>(
        name: "srid", key: "SRID", sides: .write,
        help: "The SRID to write in EWKT / EWKB output (SRID=n;).")

    /// `--srid N` (or `--co SRID=N`) as the conversion's target CRS `EPSG:N`; a usage error
    /// when `--t-srs` names another CRS.
    @Sendable static func resolve(_ options: inout ConversionOptions) throws(GeoConvError) {
        guard let srid = options.creationOptions[srid] ?? options.formatOptions[srid] else { return }
        let target = "EPSG:\(srid)"
        if let given = options.targetCRS {
            let same = srid == 4326 ? WGS84Names.contains(given) : given.uppercased() == target
            guard same else {
                throw GeoConvError(
                    .usage, "--srid \(srid) and --t-srs \(given) name different CRSs",
                    hint: "--srid N is the target CRS EPSG:N; give one of them")
            }
        }
        options.targetCRS = target
    }
}

extension FileFormat {
    /// WKT and EWKT, one geometry per line.
    public static let wkt = FileFormat(
        name: "wkt",
        extensions: ["wkt", "ewkt"],
        summary: "Well-Known Text (OGC, ISO Z/M, EWKT SRID), one geometry per line",
        capabilities: FormatCapabilities(
            holdsEmptyMembers: true, lineRecords: GeometryLineEncoding.wkt.lineRecords,
            resolvesOptions: WKTOptions.resolve,
            writtenOrder: GeometryWriter.heldFeatures(_:), holdsHeader: []),
        options: [WKTOptions.srid.declared, WKTOptions.arcStep.declared],
        diagnosticCodes: WKTCode.names,
        sniff: { prefix in
            guard let (_, index) = FormatSniffing.firstSignificantByte(prefix) else { return false }
            let head = String(decoding: prefix[index...].prefix(32), as: UTF8.self).uppercased()
            return [
                "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION",
                "SRID=",
            ]
            .contains { head.hasPrefix($0) }
        },
        makeReader: .features { input, options, diagnostics in
            GeometryLineReader(
                input, encoding: .wkt, skipsInvalid: options.skipInvalid,
                arcStep: options.formatOptions[WKTOptions.arcStep] ?? WKTParser.defaultArcStep, diagnostics: diagnostics
            )
        },
        makeWriter: .keyedRecords { output, options, diagnostics in
            GeometryWriter(
                output, form: .wkt, precision: options.coordinatePrecision,
                srid: options.formatOptions[WKTOptions.srid], diagnostics: diagnostics)
        }
    )

    /// Hexadecimal WKB / EWKB, one geometry per line.
    public static let wkbHex = FileFormat(
        name: "wkbhex",
        aliases: ["hexwkb", "wkb-hex"],
        extensions: ["wkbhex", "hexwkb"],
        summary: "hexadecimal WKB/EWKB (PostGIS's text form), one geometry per line",
        capabilities: FormatCapabilities(
            holdsEmptyMembers: true, lineRecords: GeometryLineEncoding.wkbHex.lineRecords,
            resolvesOptions: WKTOptions.resolve,
            writtenOrder: GeometryWriter.heldFeatures(_:), holdsHeader: []),
        options: [WKTOptions.srid.declared, WKTOptions.arcStep.declared],
        diagnosticCodes: WKTCode.names,
        sniff: { prefix in
            guard let (_, index) = FormatSniffing.firstSignificantByte(prefix) else { return false }
            let head = prefix[index...].prefix(18)
            return head.count >= 10 && (head.starts(with: Array("01".utf8)) || head.starts(with: Array("00".utf8)))
                && head.allSatisfy { hexDigits.contains($0) || $0 == 0x0A || $0 == 0x0D }
        },
        makeReader: .features { input, options, diagnostics in
            GeometryLineReader(
                input, encoding: .wkbHex, skipsInvalid: options.skipInvalid,
                arcStep: options.formatOptions[WKTOptions.arcStep] ?? WKTParser.defaultArcStep, diagnostics: diagnostics
            )
        },
        makeWriter: .keyedRecords { output, options, diagnostics in
            GeometryWriter(
                output, form: .wkbHex, precision: nil, srid: options.formatOptions[WKTOptions.srid],
                diagnostics: diagnostics)
        }
    )

    /// Binary WKB / EWKB: one geometry.
    public static let wkb = FileFormat(
        name: "wkb",
        extensions: ["wkb", "ewkb"],
        summary: "binary WKB/EWKB, one geometry",
        capabilities: FormatCapabilities(
            holdsEmptyMembers: true, resolvesOptions: WKTOptions.resolve, holdsOneGeometry: true, holdsHeader: []),
        options: [WKTOptions.srid.declared, WKTOptions.arcStep.declared],
        diagnosticCodes: WKTCode.names,
        sniff: { prefix in
            prefix.count >= 5 && (prefix[0] == 0 || prefix[0] == 1)
                && prefix.contains(where: { $0 < 9 && $0 != 0 && $0 != 1 })
        },
        makeReader: .features { (input, options, diagnostics) throws(GeoConvError) -> any FeatureReader in
            try WKBFileReader(
                input, arcStep: options.formatOptions[WKTOptions.arcStep] ?? WKTParser.defaultArcStep,
                diagnostics: diagnostics)
        },
        makeWriter: .keyedRecords { output, options, diagnostics in
            GeometryWriter(
                output, form: .wkbBinary, precision: nil, srid: options.formatOptions[WKTOptions.srid],
                diagnostics: diagnostics)
        }
    )
}
