#if Shapefile
internal import CShapelib
import GeoConvCore
import GeoConvFormatKit
internal import GeoConvProjection

/// The DBFs of the shapefiles written, from the spool, once the columns are known: UTF-8
/// text (a `.cpg` says so), each column's type widened across the file (logical, integer,
/// real, text), dBase's limits reported — 10-byte field names, 254-byte text, 2 GB files.
enum ShapefileDBFWriting {
    /// Writes the DBFs (and `.cpg`s); when `counting` (`geoconv info`: the output is
    /// discarded), only checks and reports what writing them would.
    static func write(
        files: [ShapefileWriting.File], spool: inout ShapefileSpool, schema: inout DBFSchema,
        diagnostics: DiagnosticLog, counting: Bool
    ) throws(GeoConvError) {
        let renamed = schema.assignFieldNames()
        if !renamed.isEmpty {
            try diagnostics.warn(
                ShapefileCode.fieldRenamed,
                "DBF field names hold 10 bytes: \(renamed.map { "\"\($0.0)\" is written as \"\($0.1)\"" }.joined(separator: ", "))",
                hint: "GDAL renames them the same way; write GeoJSON or GeoParquet to keep long names")
        }
        for column in schema.columns where column.sawNested {
            try diagnostics.warn(
                ShapefileCode.nestedValueAsJSON,
                "the property \"\(column.property)\" holds arrays or objects: they are written as JSON text")
        }
        for column in schema.columns where column.kind == .logical {
            try diagnostics.warn(
                ShapefileCode.booleanAsInteger,
                "the property \"\(column.property)\" holds booleans: they are written as integers 1 "
                    + "and 0, as GDAL writes them (it reads a DBF logical field as text)",
                hint: "they read back as numbers")
        }
        for (property, feature) in schema.integersAsReal {
            // GDAL's AUTODETECT_TYPE types such a column Real too.
            diagnostics.note(
                ShapefileCode.integersAsReal,
                "the property \"\(property)\" holds integers and reals: its field is real, and its "
                    + "integers are written with decimals (12 as 12.0), the first in feature "
                    + "\(feature + 1)")
        }
        // GDAL reads such a DBF the same way: an empty text field is null, and the spaces that
        // pad a field are trimmed at both ends.
        try warnPerColumn(
            schema.unkeptText, ShapefileCode.textTrimmed, diagnostics: diagnostics,
            hint: "write GeoJSON, GeoParquet or CSV to keep the text as it is"
        ) { property in
            "the property \"\(property)\" holds text a DBF does not keep as written: empty text reads back as "
                + "null, spaces at either end are trimmed and a NUL ends the text"
        }
        for column in schema.columns where column.sawMixed || column.sawNumberAsText {
            try diagnostics.warn(
                ShapefileCode.valueAsText,
                "the property \"\(column.property)\" holds values of several types: its column "
                    + "is text, and its numbers and booleans are read back as text")
        }
        var writers: [DBFFileWriter] = []
        // Each file's columns: those its features hold (in the schema's order).
        let fileColumns = files.indices.map { index in
            schema.columns.indices.filter { schema.columns[$0].files.contains(index) }
        }
        for (fileIndex, file) in files.enumerated() {
            var fields = fileColumns[fileIndex].map { schema.columns[$0] }.map { column in
                let (type, width, decimals) = fieldType(column)
                return DBFFileWriter.Field(
                    name: column.fieldName, type: UInt8(bitPattern: type), width: width,
                    decimals: decimals)
            }
            // A DBF record needs a field: GDAL adds FID the same way.
            if fields.isEmpty {
                fields = [DBFFileWriter.Field(name: "FID", type: UInt8(ascii: "N"), width: 11, decimals: 0)]
            }
            guard DBFFileWriter.recordLength(fields) <= 65_535 else {
                let column = fileColumns[fileIndex].last.map { schema.columns[$0].property } ?? ""
                throw GeoConvError(
                    .limitExceeded,
                    "the DBF of '\(file.finalBase).shp' cannot take the column \"\(column)\": a record "
                        + "holds at most 65,535 bytes",
                    hint: "keep fewer properties with --select")
            }
            let fileBytes =
                DBFFileWriter.recordLength(fields) * file.records
                + DBFFileWriter.headerLength(fields: fields.count)
            guard fileBytes <= ShapefileWriting.maximumFileBytes else {
                throw GeoConvError(
                    .limitExceeded, "'\(file.finalBase).dbf' would pass 2 GB, the most a DBF holds",
                    hint: "keep fewer properties (--select) or features (--where, --bbox, --limit), "
                        + "or write GeoJSON, GeoParquet or KML")
            }
            if counting { continue }
            writers.append(try DBFFileWriter(path: file.temporaryBase + ".dbf", fields: fields, records: file.records))
            try writeCodePage(file.temporaryBase + ".cpg")
        }
        if !counting { try writeRecords(&spool, schema: schema, fileColumns: fileColumns, into: &writers) }
        for index in writers.indices { try writers[index].close() }
        try warnPerColumn(
            schema.truncatedText, ShapefileCode.textTruncated, diagnostics: diagnostics,
            hint: "write GeoJSON, GeoParquet or KML to keep long text"
        ) { property in
            "the property \"\(property)\" holds text longer than 254 bytes, cut to 254 (at a character's end): "
                + "a DBF text field holds no more"
        }
        try warnPerColumn(
            schema.rounded, ShapefileCode.numberRounded, diagnostics: diagnostics,
            hint: "write GeoJSON or GeoParquet to keep every digit"
        ) { property in
            "the reals of \"\(property)\" are written with at most 15 decimals: some are rounded"
        }
    }

    /// Warns once per column, naming it (`message`) and the first feature (0-based) it was seen in.
    private static func warnPerColumn(
        _ columns: [(property: String, feature: Int)], _ code: ShapefileCode,
        diagnostics: DiagnosticLog, hint: String,
        _ message: (String) -> String
    ) throws(GeoConvError) {
        for (property, feature) in columns {
            try diagnostics.warn(code, message(property) + ", the first in feature \(feature + 1)", hint: hint)
        }
    }

    /// Each spooled record into its file's DBF, in order.
    private static func writeRecords(
        _ spool: inout ShapefileSpool, schema: DBFSchema, fileColumns: [[Int]],
        into writers: inout [DBFFileWriter]
    ) throws(GeoConvError) {
        var counts = [Int](repeating: 0, count: writers.count)
        try spool.forEach(columns: schema.columns.count) { (fileIndex, record) throws(GeoConvError) in
            guard fileIndex < writers.count else { return }
            let row = counts[fileIndex]
            counts[fileIndex] += 1
            try writers[fileIndex].beginRecord()
            if fileColumns[fileIndex].isEmpty {
                writers[fileIndex].appendField(String(row), width: 11, rightAligned: true)
                return
            }
            for columnIndex in fileColumns[fileIndex] {
                let column = schema.columns[columnIndex]
                let (type, width, decimals) = fieldType(column)
                guard let value = record[columnIndex], value != .null else {
                    writers[fileIndex].appendNull(type: UInt8(bitPattern: type), width: width)
                    continue
                }
                switch (column.kind, value) {
                case (.logical?, .bool(let b)):
                    writers[fileIndex].appendField(b ? "1" : "0", width: width)
                case (.integer?, .number(let n)):
                    writers[fileIndex].appendField(
                        n.intValue.map(String.init) ?? n.literal, width: width,
                        rightAligned: true)
                case (.real?, .number(let n)):
                    writers[fileIndex].appendField(
                        DBFSchema.realText(n.doubleValue, decimals: decimals), width: width,
                        rightAligned: true)
                default:
                    var text: String
                    switch value {
                    case .string(let s): text = s
                    case .number(let n): text = n.literal
                    case .bool(let b): text = b ? "true" : "false"
                    default: text = String(decoding: JSONText.compact(value), as: UTF8.self)
                    }
                    // (Reported from the schema: `truncatedText`.)
                    if text.utf8.count > DBFSchema.maximumTextWidth {
                        text = DBFSchema.cut(text, to: DBFSchema.maximumTextWidth)
                    }
                    writers[fileIndex].appendField(text, width: width)
                }
            }
        }
    }

    /// The DBF type, width and decimals of a column.
    static func fieldType(_ column: DBFSchema.Column) -> (CChar, Int, Int) {
        switch column.kind {
        case .logical?: return (CChar(UInt8(ascii: "N")), 1, 0)  // as GDAL: 1 and 0
        case .integer?: return (CChar(UInt8(ascii: "N")), max(1, min(column.integerWidth, 20)), 0)
        case .real?:
            let decimals = min(column.decimals, 15)
            return (
                CChar(UInt8(ascii: "N")),
                min(max(column.integerWidth + 1 + decimals, 3), DBFSchema.maximumNumberWidth + 8), decimals
            )
        case .text?, nil: return (CChar(UInt8(ascii: "C")), max(1, min(column.width, DBFSchema.maximumTextWidth)), 0)
        }
    }

    /// The `.cpg` beside the DBF: its text is UTF-8.
    private static func writeCodePage(_ path: String) throws(GeoConvError) {
        var file = try BufferedFile(creating: path)
        "UTF-8".utf8.forEach { file.append($0) }
        try file.close()
    }
}

/// The `.prj` written for a CRS: Esri's WKT of WGS84 longitude/latitude for none, the WKT
/// itself for one given as WKT (a `.prj` read, `--t-srs` in WKT), Esri's Web Mercator for
/// EPSG:3857 and its aliases; another CRS (named by code, PROJJSON) as PROJ writes it in
/// Esri's WKT, as GDAL writes it; without PROJ, no `.prj`, reported.
enum ShapefileProjectionText {
    static let wgs84 =
        #"GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]"#
    static let webMercator =
        #"PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",0.0],PARAMETER["Standard_Parallel_1",0.0],PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0]]"#

    static func prj(for crs: String?, diagnostics: DiagnosticLog) throws(GeoConvError) -> String? {
        guard let crs else { return wgs84 }
        if WGS84Names.contains(crs) { return wgs84 }
        let upper = crs.uppercased()
        // Web Mercator in any spelling files use (`urn:ogc:def:crs:EPSG::3857`, an OGC URL).
        if let (authority, code) = CRSNames.authorityAndCode(crs), authority == "epsg" || authority == "esri",
            ["3857", "900913", "102100", "102113", "3785"].contains(code)
        {
            return webMercator
        }
        let wktKeywords = [
            "GEOGCS[", "PROJCS[", "GEOGCRS[", "PROJCRS[", "GEODCRS[", "COMPD_CS[", "COMPOUNDCRS[", "BOUNDCRS[",
        ]
        if wktKeywords.contains(where: { upper.hasPrefix($0) }) { return crs }
        // A CRS named by code or given as PROJJSON (a projected GeoParquet's): Esri's WKT of it,
        // as GDAL writes a .prj, when PROJ is linked.
        if let wkt = ESRIWKTText.of(crs) { return wkt }
        try diagnostics.warn(
            ShapefileCode.prjNotWritten,
            "no .prj is written for \(crs): it is not WKT, and PROJ (when linked) cannot write it "
                + "as Esri's WKT",
            hint: "give the CRS as WKT with --t-srs, or reproject to WGS84 (--t-srs EPSG:4326)")
        return nil
    }
}
#endif
