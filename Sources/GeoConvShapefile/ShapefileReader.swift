#if Shapefile
import Foundation
public import GeoConvCore
public import GeoConvIO
public import GeoConvFormatKit

/// Reads a shapefile — its `.shp` named, the `.shx`, `.dbf`, `.prj` and `.cpg` beside it —
/// or every shapefile in a `.zip`, one after the other, feature by feature (one shape and
/// one DBF record in memory at a time).
///
/// The header's CRS is the `.prj`'s (none when it is WGS84 longitude/latitude), so the
/// pipeline reprojects to WGS84 for the formats that are, and WKT/WKB keep it. Records
/// marked deleted are skipped, as GDAL skips them.
public struct ShapefileReader: FeatureReader {
    private var paths: [(path: String, name: String)]
    private let archive: ShapefileArchive?
    private var layer: ShapefileLayer?
    private var index = 0
    private let options: ShapefileReadOptions
    private let diagnostics: DiagnosticLog
    private let inputName: String
    private var losses = ShapeGeometry.Losses()
    private var reportedLosses = ShapeGeometry.Losses()
    private var crs: String?
    public private(set) var lastLocation: SourceLocation?

    /// Opens `input`: a `.shp` file by its path, or a zip archive (a file or standard input).
    public init(_ input: ByteReader, options: ShapefileReadOptions, diagnostics: DiagnosticLog) throws(GeoConvError) {
        self.options = options
        self.diagnostics = diagnostics
        inputName = input.name
        let start = try input.peek(4)
        if start == [0x50, 0x4B, 0x03, 0x04] {
            let archive = try ShapefileArchive(input)
            self.archive = archive
            paths = archive.shapefiles
            guard !paths.isEmpty else {
                throw GeoConvError(
                    .invalidInput, "'\(input.name)' holds no shapefile (.shp)",
                    hint: "a zipped shapefile holds x.shp with x.shx and x.dbf, at any folder depth")
            }
        } else {
            archive = nil
            guard let path = input.filePath else {
                throw GeoConvError(
                    .usage,
                    "a shapefile cannot be read from standard input: its .shp needs its .shx and .dbf beside it",
                    hint: "give the .shp's path, or pipe a .zip holding the shapefile")
            }
            guard start.count == 4, start == [0x00, 0x00, 0x27, 0x0A] else {
                throw GeoConvError(
                    .invalidInput, "'\(input.name)' is not a shapefile: a .shp starts with the file code 9994",
                    at: SourceLocation(file: input.name, byteOffset: 0),
                    hint: "check the file, or name its format with --from")
            }
            paths = [(path, input.name)]
        }
    }

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader {
        var header = DocumentHeader()
        let first = try open(0)
        crs = ShapefileProjection.crs(ofPRJ: first.projection)
        header.crs = crs
        if paths.count > 1 {
            diagnostics.note(
                ShapefileCode.layersMerged,
                "the \(paths.count) shapefiles in '\(inputName)' are read one after the other as one collection (\(paths.map(\.name).joined(separator: ", ")))"
            )
        }
        layer = first
        return header
    }

    private func open(_ position: Int) throws(GeoConvError) -> ShapefileLayer {
        let layer = try ShapefileLayer(
            path: paths[position].path, displayName: paths[position].name, encodingOverride: options.encoding)
        if layer.restored != nil {
            try diagnostics.warn(
                ShapefileCode.shxRestored,
                "'\(layer.displayName)' has no .shx: its index is rebuilt from the .shp (GDAL needs SHAPE_RESTORE_SHX=YES for that)",
                at: SourceLocation(file: layer.displayName), hint: "keep the .shx with the .shp")
        }
        if let unknown = layer.unknownCodePage {
            try diagnostics.warn(
                ShapefileCode.unknownCodePage,
                "'\(layer.displayName)': the .cpg says \"\(unknown.given)\", which names no encoding "
                    + "known here: its text is read as \(unknown.readAs), as GDAL reads it",
                at: SourceLocation(file: layer.displayName),
                hint: "name the encoding with --shp-encoding (e.g. CP1252, UTF-8) if the text "
                    + "looks wrong")
        }
        if !layer.renamedFields.isEmpty {
            let list = layer.renamedFields.map { "\($0.0) → \($0.1)" }.joined(separator: ", ")
            try diagnostics.warn(
                ShapefileCode.duplicateFieldRenamed,
                "'\(layer.displayName)' names a field more than once: the later ones are renamed as GDAL renames them (\(list))",
                at: SourceLocation(file: layer.displayName), hint: "give every field of the .dbf a name of its own")
        }
        if !layer.hasAttributes {
            try diagnostics.warn(
                ShapefileCode.dbfMissing,
                "'\(layer.displayName)' has no .dbf beside it: its features have no attributes",
                at: SourceLocation(file: layer.displayName), hint: "put the .dbf of the same name beside the .shp")
        } else if layer.recordCount != layer.shapeCount {
            try diagnostics.warn(
                ShapefileCode.recordCountMismatch,
                "'\(layer.displayName)' has \(layer.shapeCount) shapes but its .dbf \(layer.recordCount) records: shapes beyond the records have no attributes, records beyond the shapes are not read",
                at: SourceLocation(file: layer.displayName),
                hint: "the .shp and .dbf are from different versions of the data")
        }
        return layer
    }

    public mutating func next() throws(GeoConvError) -> Feature? {
        while true {
            guard let current = layer else { return nil }
            guard index < current.shapeCount else {
                try finish(current)
                guard let next = paths.indices.first(where: { paths[$0].path == current.path }).map({ $0 + 1 }),
                    next < paths.count
                else {
                    layer = nil
                    return nil
                }
                let opened = try open(next)
                let nextCRS = ShapefileProjection.crs(ofPRJ: opened.projection)
                guard nextCRS == crs else {
                    throw GeoConvError(
                        .invalidInput,
                        "the shapefiles in '\(inputName)' are in different CRSs (\(paths[0].name) and \(opened.displayName))",
                        at: SourceLocation(file: opened.displayName), hint: "unzip them and convert each on its own")
                }
                layer = opened
                index = 0
                continue
            }
            let i = index
            index += 1
            lastLocation = SourceLocation(file: current.displayName, byteOffset: current.offset(of: i))
            if current.isDeleted(i) {
                diagnostics.note(
                    ShapefileCode.deletedRecordSkipped,
                    "records marked deleted in the .dbf are skipped, as GDAL skips them",
                    at: lastLocation)
                continue
            }
            let geometry: Geometry?
            switch current.geometry(i, losses: &losses) {
            case .success(let read): geometry = read
            case .failure(let error):
                guard options.skipsInvalid else { throw error }
                try diagnostics.warn(
                    ShapefileCode.invalidShapeSkipped, "skipped a shape that cannot be read: \(error.message)",
                    at: error.location)
                continue
            }
            try reportLosses(at: lastLocation)
            var feature = Feature(geometry: geometry, properties: current.properties(i))
            // As the CSV and GeoParquet readers: `name`/`title` fields (any case) give the title,
            // `description`/`snippet` the snippet, and stay properties (`TitleProperties`).
            TitleProperties.derive(into: &feature)
            return feature
        }
    }

    /// Reports what the shapes read so far held that the model does not, once per kind.
    private mutating func reportLosses(at location: SourceLocation?) throws(GeoConvError) {
        if losses.measures, !reportedLosses.measures {
            reportedLosses.measures = true
            try diagnostics.warn(
                ShapefileCode.measuresDropped, "M (measure) values are dropped: the model keeps x, y and z",
                at: location,
                hint: "GDAL keeps them as XYM; no format geoconv writes but WKB could")
        }
        if losses.multipatch, !reportedLosses.multipatch {
            reportedLosses.multipatch = true
            try diagnostics.warn(
                ShapefileCode.multipatchAsPolygons,
                "MultiPatch shapes (3D surfaces) are read as MultiPolygons: each triangle of a strip or fan a polygon",
                at: location,
                hint: "as GDAL reads them (a TIN there); the triangles' strip and fan structure is not kept")
        }
        if losses.orphanHoles, !reportedLosses.orphanHoles {
            reportedLosses.orphanHoles = true
            try diagnostics.warn(
                ShapefileCode.orphanHole,
                "a counter-clockwise ring inside no clockwise ring is read as a polygon of its own, as GDAL reads it",
                at: location, hint: "outer rings of a shapefile polygon are clockwise, holes counter-clockwise")
        }
    }

    /// Reports what a layer's text decoding met.
    private func finish(_ layer: ShapefileLayer) throws(GeoConvError) {
        if let decoder = layer.decoder, decoder.readLatin1 {
            try diagnostics.warn(
                ShapefileCode.encodingGuessed,
                "some text of '\(layer.displayName)' is not UTF-8 and nothing says its encoding (\(decoder.encoding.source)): it is read as ISO-8859-1",
                at: SourceLocation(file: layer.displayName),
                hint: "name the DBF's encoding with --shp-encoding if it is another (CP1252, CP850…)")
        }
        if let decoder = layer.decoder, decoder.sawInvalidBytes {
            try diagnostics.warn(
                ShapefileCode.invalidText,
                "some text of '\(layer.displayName)' is not \(decoder.encoding.name) (from \(decoder.encoding.source)): those bytes are read as U+FFFD",
                at: SourceLocation(file: layer.displayName), hint: "name the DBF's encoding with --shp-encoding")
        }
    }
}
#endif
