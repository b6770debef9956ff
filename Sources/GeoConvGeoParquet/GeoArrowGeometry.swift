import GeoConvCore
import GeoConvIO
import GeoConvParquet

/// A geometry column in one of GeoParquet 1.1's native (GeoArrow) encodings: the geometry as
/// nested lists of `struct<x, y[, z][, m]>` coordinates — a point a struct, a linestring or a
/// multipoint a list of them, a polygon (rings) or a multilinestring (lines) a list of lists,
/// a multipolygon a list of lists of lists (GeoParquet 1.1, "Native encodings"; the
/// "separated" layout, the only one GeoParquet allows).
struct GeoArrowGeometry {
    /// The six encodings, by their names in the `geo` metadata.
    enum Encoding: String, CaseIterable {
        case point, linestring, polygon, multipoint, multilinestring, multipolygon

        /// How many lists wrap a coordinate.
        var depth: Int {
            switch self {
            case .point: 0
            case .linestring, .multipoint: 1
            case .polygon, .multilinestring: 2
            case .multipolygon: 3
            }
        }
    }

    let encoding: Encoding
    let x: ParquetLeaf
    let y: ParquetLeaf
    let z: ParquetLeaf?
    /// Whether the coordinates have M values (dropped, reported).
    let hasM: Bool
    /// The levels at which the geometry itself, and each list's entry, are defined.
    let geometryDefinition: Int
    let entryDefinitions: [Int]

    /// The column `name`'s coordinate leaves in `encoding` (its name in the metadata), or an
    /// error naming what does not fit.
    init(
        _ encodingName: String, column name: String, leaves: [ParquetLeaf], at location: SourceLocation
    ) throws(GeoConvError) {
        guard let encoding = Encoding(rawValue: encodingName.lowercased()) else {
            throw GeoConvError(
                .unsupported,
                "the geometry column \"\(name)\" is encoded as \(encodingName); geoconv reads WKB "
                    + "and GeoParquet's native encodings (point, linestring, polygon and their multi- forms)",
                at: location,
                hint: "write the file with WKB geometry (geopandas to_parquet's default, GDAL's GEOMETRY_ENCODING=WKB)")
        }
        let own = leaves.filter { $0.path.first == name }
        func leaf(_ axis: String) -> ParquetLeaf? { own.first { $0.path.last?.lowercased() == axis } }
        guard let x = leaf("x"), let y = leaf("y"),
            own.allSatisfy({ $0.maxRepetition == encoding.depth && $0.element.type == .double }),
            x.definitions.count == y.definitions.count
        else {
            throw GeoConvError(
                .invalidInput,
                "the geometry column \"\(name)\" is said to be \(encoding.rawValue), but its fields "
                    + "(\(own.map(\.dottedName).joined(separator: ", "))) are not \(encoding.depth) lists deep "
                    + "of x and y doubles",
                at: location, hint: "check the file with pyarrow: the column's type should be GeoArrow's")
        }
        self.encoding = encoding
        self.x = x
        self.y = y
        z = leaf("z")
        hasM = leaf("m") != nil
        geometryDefinition = x.definitions.first ?? 0
        entryDefinitions = x.repeated.indices.filter { x.repeated[$0] }.map { x.definitions[$0] }
    }

    /// A row group's coordinate columns, and where the next row starts in them.
    struct Columns {
        var x: DecodedColumn
        var y: DecodedColumn
        var z: DecodedColumn?
        var entry = 0
        var value = 0
    }

    /// The next row's geometry from `columns` (`nil` when null).
    func next(_ columns: inout Columns) -> Geometry? {
        let d = encoding.depth
        if d == 0 {
            defer { columns.entry += 1 }
            guard columns.entry < columns.x.present.count, columns.x.present[columns.entry] else { return nil }
            // (GeoArrow writes an empty point as NaN, NaN.)
            let c = coordinate(&columns)
            return c.longitude.isNaN && c.latitude.isNaN ? .empty(.point) : .point(c)
        }
        let levels = columns.x.definitionLevels
        let repeats = columns.x.repetitionLevels
        // (The decoder gives as many of each; a damaged file is not trusted to.)
        let count = min(levels.count, repeats.count, columns.x.present.count)
        guard columns.entry < count else { return nil }
        let first = Int(levels[columns.entry])
        if first < geometryDefinition {
            columns.entry += 1
            return nil
        }
        // Every geometry as polygons of rings of coordinates: the shallower encodings have
        // one polygon (and one ring) a row. A list's new element starts where an entry repeats
        // at its level or above (the row's first entry starts them all) and is defined there.
        var polygons: [[[Coordinate]]] = d == 3 ? [] : (d == 2 ? [[]] : [[[]]])
        var isFirst = true
        repeat {
            let level = Int(levels[columns.entry])
            let r = isFirst ? 0 : Int(repeats[columns.entry])
            isFirst = false
            if d == 3 {
                if r <= 1, level >= entryDefinitions[0] { polygons.append([]) }
                if r <= 2, level >= entryDefinitions[1], !polygons.isEmpty { polygons[polygons.count - 1].append([]) }
            } else if d == 2, r <= 1, level >= entryDefinitions[0] {
                polygons[0].append([])
            }
            if columns.x.present[columns.entry] {
                let c = coordinate(&columns)
                let p = polygons.count - 1
                if p >= 0, !polygons[p].isEmpty { polygons[p][polygons[p].count - 1].append(c) }
            }
            columns.entry += 1
        } while columns.entry < count && repeats[columns.entry] != 0
        return geometry(polygons)
    }

    /// The entry's coordinate (its value in each column, which has one where x has).
    private func coordinate(_ columns: inout Columns) -> Coordinate {
        defer { columns.value += 1 }
        let i = columns.value
        func value(_ column: DecodedColumn) -> Double {
            guard case .reals(let values) = column.values, i < values.count else { return .nan }
            return values[i]
        }
        let altitude = columns.z.map { value($0) }
        return Coordinate(latitude: value(columns.y), longitude: value(columns.x), altitude: altitude)
    }

    /// The model's geometry of the rows' nested coordinates.
    private func geometry(_ polygons: [[[Coordinate]]]) -> Geometry {
        let rings = polygons.first ?? []
        let coordinates = rings.first ?? []
        switch encoding {
        case .point: return coordinates.first.map(Geometry.point) ?? .empty(.point)
        case .linestring: return coordinates.isEmpty ? .empty(.lineString) : .lineString(Path(coordinates))
        case .multipoint: return coordinates.isEmpty ? .empty(.multiPoint) : .multiPoint(coordinates)
        case .polygon:
            guard let outer = rings.first else { return .empty(.polygon) }
            return .polygon(PolygonRings(outer: Path(outer), holes: rings.dropFirst().map { Path($0) }))
        case .multilinestring:
            return rings.isEmpty ? .empty(.multiLineString) : .multiLineString(rings.map { Path($0) })
        case .multipolygon:
            guard !polygons.isEmpty else { return .empty(.multiPolygon) }
            return .multiPolygon(
                polygons.map { rings in
                    PolygonRings(outer: Path(rings.first ?? []), holes: rings.dropFirst().map { Path($0) })
                })
        }
    }
}
