#if Shapefile
internal import CShapelib
import Foundation
public import GeoConvCore

/// Writes shapefiles: one per geometry kind, because a shapefile holds one — `out.shp` for
/// the first kind met, `out_points.shp`, `out_multipoints.shp`, `out_lines.shp`,
/// `out_polygons.shp` for the others (a note says which went where), or only the kind
/// `--shp-kind` names (the others reported as dropped). Each with its `.shx`, a `.dbf` of
/// the properties (UTF-8, said by a `.cpg`) and a `.prj`. An output named `.zip` gets them
/// all zipped, named after it (`parcels.zip` holds `parcels.shp`…); so does an output
/// that is not a file (standard output, memory), its files named `out.shp`…, since a
/// stream holds one file and the reader takes a zip from one.
///
/// Shapes are written as they come; the properties are spooled to a temporary file, since
/// a DBF's columns come before its records and a stream's columns are known only at its
/// end. Memory holds one feature and the columns' types and widths. Files are written in a
/// temporary folder beside the output and moved into place when the conversion succeeds.
public struct ShapefileWriter: FeatureWriter {
    private let state: ShapefileWriting

    /// Prepares to write `output` (a `.shp` path; its siblings are named after it).
    public init(_ output: ByteWriter, options: ShapefileWriteOptions, diagnostics: DiagnosticLog) throws(GeoConvError) {
        let path = output.filePath
        state = try ShapefileWriting(output: output, path: path, options: options, diagnostics: diagnostics)
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) {
        try state.begin(header)
    }

    public mutating func write(_ feature: Feature) throws(GeoConvError) {
        try state.write(feature)
    }

    public mutating func finish() throws(GeoConvError) {
        try state.finish()
    }
}

/// The kinds of shapefile geometry, and the name suffix of the file each goes to.
enum ShapeKind: String, CaseIterable, Sendable {
    case points, multipoints, lines, polygons

    func shapeType(withZ z: Bool) -> Int32 {
        switch self {
        case .points: z ? SHPT_POINTZ : SHPT_POINT
        case .multipoints: z ? SHPT_MULTIPOINTZ : SHPT_MULTIPOINT
        case .lines: z ? SHPT_ARCZ : SHPT_ARC
        case .polygons: z ? SHPT_POLYGONZ : SHPT_POLYGON
        }
    }

    /// The kind of a geometry that is not a collection; `nil` for an empty one.
    static func of(_ geometry: Geometry) -> ShapeKind? {
        guard !geometry.isEmpty else { return nil }
        switch geometry {
        case .point: return .points
        case .multiPoint: return .multipoints
        case .lineString, .multiLineString: return .lines
        case .polygon, .multiPolygon, .circle: return .polygons
        case .geometryCollection, .empty: return nil
        }
    }
}
#endif
