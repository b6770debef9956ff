#if Shapefile
internal import CShapelib
import GeoConvCore

/// The DBFs of the shapefiles written, from the spool, once the columns are known: UTF-8
/// text (a `.cpg` says so), each column's type widened across the file (logical, integer,
/// real, text), dBase's limits reported — 10-byte field names, 254-byte text, 2 GB files.
enum ShapefileDBFWriting {
    static func write(files: [ShapefileWriting.File], spool: inout ShapefileSpool, schema: inout DBFSchema,
                      diagnostics: DiagnosticLog) throws(GeoConvError)
    {
        let renamed = schema.assignFieldNames()
        if !renamed.isEmpty {
            try diagnostics.warn("shapefile.field-renamed",
                                 "DBF field names hold 10 bytes: \(renamed.map { "\"\($0.0)\" is written as \"\($0.1)\"" }.joined(separator: ", "))",
                                 hint: "GDAL renames them the same way; write GeoJSON or GeoParquet to keep long names")
        }
        for column in schema.columns where column.sawNested {
            try diagnostics.warn("shapefile.nested-value-as-json", "the property \"\(column.property)\" holds arrays or objects: they are written as JSON text")
        }
        if schema.columns.contains(where: { $0.kind == .logical }) {
            try diagnostics.warn("shapefile.boolean-as-integer", "booleans are written as integers 1 and 0, as GDAL writes them (it reads a DBF logical field as text)",
                                 hint: "they read back as numbers")
        }
        for column in schema.columns where column.sawMixed {
            diagnostics.note("shapefile.value-as-text", "the property \"\(column.property)\" holds values of several types: its column is text, and its numbers and booleans are read back as text")
        }
        var handles: [DBFHandle] = []
        defer { handles.forEach { DBFClose($0) } }
        // Each file's columns: those its features hold (in the schema's order).
        let fileColumns = files.indices.map { index in
            schema.columns.indices.filter { schema.columns[$0].files.contains(index) }
        }
        for (fileIndex, file) in files.enumerated() {
            var hooks = ShapelibHooks.quiet()
            guard let handle = DBFCreateLL(file.temporaryBase + ".dbf", "UTF-8", &hooks) else {
                throw GeoConvError(.io, "cannot create '\(file.finalBase).dbf'", hint: "check that the output's folder is writable")
            }
            handles.append(handle)
            for column in fileColumns[fileIndex].map({ schema.columns[$0] }) {
                let (type, width, decimals) = fieldType(column)
                guard DBFAddNativeFieldType(handle, column.fieldName, type, Int32(width), Int32(decimals)) >= 0 else {
                    throw GeoConvError(.limitExceeded, "the DBF of '\(file.finalBase).shp' cannot take the column \"\(column.property)\": a record holds at most 65,535 bytes",
                                       hint: "keep fewer properties with --select")
                }
            }
            if fileColumns[fileIndex].isEmpty {
                // A DBF record needs a field: GDAL adds FID the same way.
                _ = DBFAddNativeFieldType(handle, "FID", CChar(UInt8(ascii: "N")), 11, 0)
            }
            let recordBytes = Int(handle.pointee.nRecordLength) * file.records + Int(handle.pointee.nHeaderLength)
            guard recordBytes <= ShapefileWriting.maximumFileBytes else {
                throw GeoConvError(.limitExceeded, "'\(file.finalBase).dbf' would pass 2 GB, the most a DBF holds",
                                   hint: "keep fewer properties (--select) or features (--where, --bbox, --limit), or write GeoJSON, GeoParquet or KML")
            }
        }
        var counts = [Int](repeating: 0, count: files.count)
        var truncated = false, rounded = false
        try spool.forEach { (fileIndex, record) throws(GeoConvError) in
            guard fileIndex < handles.count else { return }
            let handle = handles[fileIndex]
            let row = Int32(counts[fileIndex])
            counts[fileIndex] += 1
            if fileColumns[fileIndex].isEmpty {
                _ = DBFWriteIntegerAttribute(handle, row, 0, row)
                return
            }
            for (i, columnIndex) in fileColumns[fileIndex].enumerated() {
                let column = schema.columns[columnIndex]
                let field = Int32(i)
                guard let value = record[column.property], value != .null else {
                    _ = DBFWriteNULLAttribute(handle, row, field)
                    continue
                }
                let (_, width, decimals) = fieldType(column)
                switch (column.kind, value) {
                case (.logical?, .bool(let b)):
                    writeDirectly(handle, row, field, b ? "1" : "0")
                case (.integer?, .number(let n)):
                    writeDirectly(handle, row, field, rightAligned(n.intValue.map(String.init) ?? n.literal, width))
                case (.real?, .number(let n)):
                    let text = DBFSchema.realText(n.doubleValue, decimals: decimals)
                    if Double(text) != n.doubleValue { rounded = true }
                    writeDirectly(handle, row, field, rightAligned(text, width))
                default:
                    var text: String
                    switch value {
                    case .string(let s): text = s
                    case .number(let n): text = n.literal
                    case .bool(let b): text = b ? "true" : "false"
                    default: text = String(decoding: JSONText.compact(value), as: UTF8.self)
                    }
                    if text.utf8.count > DBFSchema.maximumTextWidth {
                        text = DBFSchema.cut(text, to: DBFSchema.maximumTextWidth)
                        truncated = true
                    }
                    _ = DBFWriteStringAttribute(handle, row, field, text)
                }
            }
        }
        if truncated {
            try diagnostics.warn("shapefile.text-truncated", "text longer than 254 bytes is cut to 254 (at a character's end): a DBF text field holds no more",
                                 hint: "write GeoJSON, GeoParquet or KML to keep long text")
        }
        if rounded {
            try diagnostics.warn("shapefile.number-rounded", "real numbers are written with at most 15 decimals: some are rounded",
                                 hint: "write GeoJSON or GeoParquet to keep every digit")
        }
    }

    /// The DBF type, width and decimals of a column.
    static func fieldType(_ column: DBFSchema.Column) -> (CChar, Int, Int) {
        switch column.kind {
        case .logical?: return (CChar(UInt8(ascii: "N")), 1, 0)  // as GDAL: 1 and 0
        case .integer?: return (CChar(UInt8(ascii: "N")), max(1, min(column.integerWidth, 20)), 0)
        case .real?:
            let decimals = min(column.decimals, 15)
            return (CChar(UInt8(ascii: "N")), min(max(column.integerWidth + 1 + decimals, 3), DBFSchema.maximumNumberWidth + 8), decimals)
        case .text?, nil: return (CChar(UInt8(ascii: "C")), max(1, min(column.width, DBFSchema.maximumTextWidth)), 0)
        }
    }

    private static func rightAligned(_ text: String, _ width: Int) -> String {
        let count = text.utf8.count
        return count >= width ? text : String(repeating: " ", count: width - count) + text
    }

    private static func writeDirectly(_ handle: DBFHandle, _ row: Int32, _ field: Int32, _ text: String) {
        var bytes = Array(text.utf8CString)
        _ = bytes.withUnsafeMutableBytes { DBFWriteAttributeDirectly(handle, row, field, $0.baseAddress) }
    }
}

/// The `.prj` written for a CRS: Esri's WKT of WGS84 longitude/latitude for none, the WKT
/// itself for one given as WKT (a `.prj` read, `--t-srs` in WKT), Esri's Web Mercator for
/// EPSG:3857 and its aliases; another CRS named by code is written with no `.prj`,
/// reported (geoconv's formats keep no database of CRS definitions).
enum ShapefileProjectionText {
    static let wgs84 = #"GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]"#
    static let webMercator = #"PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",0.0],PARAMETER["Standard_Parallel_1",0.0],PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0]]"#

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
        let wktKeywords = ["GEOGCS[", "PROJCS[", "GEOGCRS[", "PROJCRS[", "GEODCRS[", "COMPD_CS[", "COMPOUNDCRS[", "BOUNDCRS["]
        if wktKeywords.contains(where: { upper.hasPrefix($0) }) { return crs }
        try diagnostics.warn("shapefile.prj-not-written", "no .prj is written for \(crs): geoconv writes a .prj from WKT, and \(crs) was given by name",
                             hint: "give the CRS as WKT with --t-srs, or reproject to WGS84 (--t-srs EPSG:4326)")
        return nil
    }
}
#endif
