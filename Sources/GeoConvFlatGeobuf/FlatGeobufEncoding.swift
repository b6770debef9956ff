import GeoConvCore
import GeoConvFormatKit
import GeoConvRows

/// The model made into FlatGeobuf's tables (`feature.fbs`, `header.fbs`): a geometry's
/// `Geometry` table, a row's property bytes, the header.
enum FlatGeobufEncoding {
    /// The `GeometryType` number of a kind (a circle is written as the polygon it becomes).
    static func typeNumber(_ kind: GeometryKind) -> UInt8 {
        switch kind {
        case .point: 1
        case .lineString: 2
        case .polygon, .circle: 3
        case .multiPoint: 4
        case .multiLineString: 5
        case .multiPolygon: 6
        case .geometryCollection: 7
        }
    }

    /// The `Geometry` table of `geometry`: `xy` (and `z` when the file has altitudes, 0 where
    /// a position has none), `ends` where a polygon's rings (when more than one) or a
    /// multi-line's lines end, `parts` for a multi-polygon's polygons and a collection's
    /// members; `type` when `typed` (the header's type is Unknown, or a collection's member).
    static func table(_ geometry: Geometry, hasZ: Bool, typed: Bool) -> FlatBufferBuilder.Table {
        var table = FlatBufferBuilder.Table()
        var xy: [Double] = []
        var z: [Double] = []
        func add(_ c: Coordinate) {
            xy.append(c.longitude)
            xy.append(c.latitude)
            if hasZ { z.append(c.altitude ?? 0) }
        }
        // (GDAL reads a multi-line's lines only through `ends`, even one line's.)
        func addPaths(_ paths: [Path], alwaysEnds: Bool) {
            var ends: [UInt32] = []
            for path in paths {
                for c in path { add(c) }
                ends.append(UInt32(xy.count / 2))
            }
            if ends.count > 1 || alwaysEnds { table.add(0, .uint32s(ends)) }
        }
        switch geometry {
        case .point(let c): add(c)
        case .lineString(let path): for c in path { add(c) }
        case .multiPoint(let points): for c in points { add(c) }
        case .polygon(let rings): addPaths([rings.outer] + rings.holes, alwaysEnds: false)
        case .multiLineString(let lines): addPaths(lines, alwaysEnds: true)
        case .multiPolygon(let polygons):
            table.add(7, .tables(polygons.map { self.table(.polygon($0), hasZ: hasZ, typed: true) }))
        case .geometryCollection(let members):
            table.add(7, .tables(members.map { self.table($0, hasZ: hasZ, typed: true) }))
        case .circle, .empty:
            break  // (circles are polygons by now; empty geometries are written as none)
        }
        if !xy.isEmpty {
            table.add(1, .doubles(xy))
            if hasZ { table.add(2, .doubles(z)) }
        }
        if typed { table.add(6, .uint8(typeNumber(geometry.kind))) }
        return table
    }

    /// The point of a spooled row's WKB (`wkb`, its range in `bytes`) when it is a plain 2-D
    /// point (ISO WKB, little-endian, no coordinate NaN); `nil` for anything else.
    static func plainPoint(_ bytes: [UInt8], _ wkb: Range<Int>) -> (x: Double, y: Double)? {
        guard wkb.count == 21, bytes[wkb.lowerBound] == 1, bytes[wkb.lowerBound + 1] == 1,
            bytes[wkb.lowerBound + 2] == 0, bytes[wkb.lowerBound + 3] == 0, bytes[wkb.lowerBound + 4] == 0
        else { return nil }
        var at = wkb.lowerBound + 5
        let x = SpooledRow.readDouble(bytes, &at)
        let y = SpooledRow.readDouble(bytes, &at)
        return x.isNaN || y.isNaN ? nil : (x, y)
    }

    /// The geometry table of a spooled row's WKB (`wkb`, its range in `bytes`) when it is a
    /// 2-D line or polygon (ISO WKB, little-endian, every line and ring with positions, all
    /// finite), made from the bytes as `table(_:hasZ:typed:)` makes it from the geometry
    /// `WKB.read` gives (the same fields in the same order); `nil` for anything else, which
    /// takes that way. (Reading the geometry first made a path per ring of every polygon.)
    static func lineOrPolygonTable(_ bytes: [UInt8], _ wkb: Range<Int>, typed: Bool) -> FlatBufferBuilder.Table? {
        func u32(_ at: Int) -> Int {
            var value = 0
            for k in 0..<4 { value |= Int(bytes[at + k]) << (8 * k) }
            return value
        }
        guard wkb.count >= 9, bytes[wkb.lowerBound] == 1 else { return nil }
        let code = u32(wkb.lowerBound + 1)
        guard code == 2 || code == 3 else { return nil }
        var at = wkb.lowerBound + 5
        let paths = code == 2 ? 1 : u32(at)
        if code == 3 { at += 4 }
        guard paths > 0 else { return nil }
        var xy: [Double] = []
        xy.reserveCapacity((wkb.upperBound - at) / 8)
        var ends: [UInt32] = []
        for _ in 0..<paths {
            guard at + 4 <= wkb.upperBound else { return nil }
            let count = u32(at)
            at += 4
            guard count > 0, count <= (wkb.upperBound - at) / 16 else { return nil }
            for _ in 0..<(2 * count) {
                let value = SpooledRow.readDouble(bytes, &at)
                guard value.isFinite else { return nil }
                xy.append(value)
            }
            ends.append(UInt32(xy.count / 2))
        }
        guard at == wkb.upperBound else { return nil }
        var table = FlatBufferBuilder.Table()
        if ends.count > 1 { table.add(0, .uint32s(ends)) }
        table.add(1, .doubles(xy))
        if typed { table.add(6, .uint8(typeNumber(code == 2 ? .lineString : .polygon))) }
        return table
    }

    /// A feature of one 2-D point under a header that names the geometry type, written into
    /// `out` (replacing what it held) byte for byte as `FlatBufferBuilder` lays out the table
    /// of `table(.point(…), hasZ: false, typed: false)` and the properties: the feature's
    /// vtable (fields 0 and 1), the feature (offsets to the geometry and the properties), the
    /// geometry's vtable (field 1 only), the geometry (offset to `xy`), `xy`, the properties.
    /// (Most features of a points file; the builder's tables and arrays made per feature were
    /// a tenth of writing a million points.)
    static func pointFeature(x: Double, y: Double, properties: [UInt8], into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: repeatElement(0, count: 68))
        out.withUnsafeMutableBytes { raw in
            func u32(_ value: UInt32, _ at: Int) {
                raw.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt32.self)
            }
            func u16(_ value: UInt16, _ at: Int) {
                raw.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt16.self)
            }
            u32(UInt32(64 + properties.count), 0)  // the size after this prefix
            u32(12, 4)  // the root: the feature at 16
            for (k, value) in [8, 12, 4, 8].enumerated() { u16(UInt16(value), 8 + 2 * k) }  // its vtable
            u32(8, 16)  // the feature: its vtable 8 bytes back,
            u32(16, 20)  // the geometry at 36,
            u32(40, 24)  // the properties at 64
            for (k, value) in [8, 8, 0, 4].enumerated() { u16(UInt16(value), 28 + 2 * k) }  // xy only, at 4
            u32(8, 36)  // the geometry: its vtable 8 bytes back,
            u32(4, 40)  // xy at 44:
            u32(2, 44)
            raw.storeBytes(of: x.bitPattern.littleEndian, toByteOffset: 48, as: UInt64.self)
            raw.storeBytes(of: y.bitPattern.littleEndian, toByteOffset: 56, as: UInt64.self)
            u32(UInt32(properties.count), 64)  // the properties at 64
        }
        out.append(contentsOf: properties)
    }

    /// `geometry` without the empty members of its collections (GDAL stops reading a file at a
    /// member without coordinates); `nil` when it has none.
    static func withoutEmptyMembers(_ geometry: Geometry) -> Geometry? {
        guard case .geometryCollection(let members) = geometry else { return nil }
        var changed = false
        var kept: [Geometry] = []
        for member in members {
            if member.isEmpty {
                changed = true
            } else if let inner = withoutEmptyMembers(member) {
                changed = true
                kept.append(inner)
            } else {
                kept.append(member)
            }
        }
        return changed ? .geometryCollection(kept) : nil
    }

    /// The column type a column of these kinds is written as: arrays and objects alone are
    /// `Json`; otherwise the widest type that holds every value, text when they are mixed.
    static func columnType(_ kinds: ColumnKinds) -> FlatGeobufHeader.ColumnType {
        if !kinds.isEmpty, kinds.isSubset(of: .nested) { return .json }
        switch kinds.columnType {
        case .boolean: return .bool
        case .int64: return .long
        case .uint64: return .unsignedLong
        case .double: return .double
        case .text: return .string
        }
    }

    /// Appends a spooled row's cells (`at` at their count) as FlatGeobuf property bytes:
    /// each non-null value's column number (two bytes) and its value in the column's type.
    static func appendProperties(
        _ row: [UInt8], at start: Int, types: [FlatGeobufHeader.ColumnType], to out: inout [UInt8]
    ) {
        var at = start
        let cells = Int(SpooledRow.readVarint(row, &at) ?? 0)
        var text: [UInt8] = []
        for _ in 0..<cells {
            let column = Int(SpooledRow.readVarint(row, &at) ?? 0)
            let tag = row[at]
            at += 1
            guard tag != SpooledValue.tagNull else { continue }
            append(UInt16(column), to: &out)
            switch types[column] {
            case .bool: out.append(tag == SpooledValue.tagTrue ? 1 : 0)
            case .long: append(UInt64(bitPattern: SpooledRow.integer(row, &at)), to: &out)
            case .unsignedLong: append(SpooledRow.unsignedInteger(tag, row, &at), to: &out)
            case .double: append(SpooledRow.real(tag, row, &at).bitPattern, to: &out)
            default:
                text.removeAll(keepingCapacity: true)
                SpooledRow.appendText(tag, row, &at, to: &text)
                append(UInt32(text.count), to: &out)
                out.append(contentsOf: text)
            }
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    /// The `Crs` table for a CRS as geoconv names it: an authority's code in any spelling
    /// files use (`EPSG:n`, `urn:ogc:def:crs:EPSG::n`, an OGC URL; WGS84 for none) by the
    /// authority and its number (or code text), anything else (WKT) as WKT.
    static func crsTable(_ crs: String?) -> FlatBufferBuilder.Table {
        var table = FlatBufferBuilder.Table()
        guard let crs else {
            table.add(0, .string("EPSG"))
            table.add(1, .int32(4326))
            return table
        }
        if let (authority, code) = CRSNames.authorityAndCode(crs) {
            table.add(0, .string(authority.uppercased()))
            if let number = Int32(code) {
                table.add(1, .int32(number))
            } else {
                table.add(5, .string(code.uppercased()))
            }
        } else {
            table.add(4, .string(crs))
        }
        return table
    }
}
