#if Shapefile
internal import CShapelib
import Foundation
public import GeoConvCore
public import GeoConvIO
public import GeoConvFormatKit

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
public struct ShapefileWriter: LossKeyedWriter {
    private let state: ShapefileWriting

    /// Prepares to write `output` (a `.shp` path; its siblings are named after it).
    public init(_ output: ByteWriter, options: ShapefileWriteOptions, diagnostics: DiagnosticLog) throws(GeoConvError) {
        let path = output.filePath
        state = try ShapefileWriting(output: output, path: path, options: options, diagnostics: diagnostics)
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) {
        try state.begin(header)
    }

    /// Into nowhere, the key of what a shape and its record lose
    /// (`ShapefileWriting.lossKey(of:shape:)`).
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        state.lossKey(of: feature, shape: shape)
    }

    /// Counts the records of features not written (`ShapefileWriting.countAgain(_:times:)`).
    public mutating func countAgain(_ key: LossKey, times: Int) { state.countAgain(key, times: times) }

    public mutating func write(_ feature: Feature) throws(GeoConvError) {
        try state.write(feature)
    }

    public mutating func finish() throws(GeoConvError) {
        try state.finish()
    }
}

/// Which shapefile each feature goes to: the output's own name for the first kind (and for
/// features without a geometry), `out_KIND` for each other kind, in the order first met; a
/// collection's members each to the file of their kind.
struct ShapefileLayout {
    /// The kind of each file, in order (`nil` while a file holds only features without one).
    private(set) var kinds: [ShapeKind?] = []

    /// The file a shape of `kind` (`nil`: none) goes to, when it is one the layout has already
    /// given that kind (and would give it again).
    func existingFile(for kind: ShapeKind?) -> Int? {
        if let kind { return kinds.firstIndex(of: kind) }
        return kinds.isEmpty ? nil : 0
    }

    /// The file a shape of `kind` (`nil`: none) goes to; a new file's index is `kinds.count - 1`.
    mutating func file(for kind: ShapeKind?) -> Int {
        if let kind, let index = kinds.firstIndex(of: kind) { return index }
        if !kinds.isEmpty, kinds[0] == nil || kind == nil {
            if kinds[0] == nil { kinds[0] = kind }
            return 0
        }
        kinds.append(kind)
        return kinds.count - 1
    }

    /// The index of each record the files hold, in the order they are read back (file by
    /// file): `FormatCapabilities.writtenOrder`.
    static func order(of geometries: [Geometry?]) -> [Int] {
        var layout = ShapefileLayout()
        var files: [[Int]] = []
        for (index, geometry) in geometries.enumerated() {
            let shapes: [Geometry?] =
                switch geometry {
                case .geometryCollection(let members)?: ShapefileWriting.flattened(members)
                case let geometry?: geometry.isEmpty ? [nil] : [geometry]
                case nil: [nil]
                }
            for shape in shapes {
                let file = layout.file(for: shape.flatMap(ShapeKind.of))
                if file == files.count { files.append([]) }
                files[file].append(index)
            }
        }
        return files.flatMap { $0 }
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
