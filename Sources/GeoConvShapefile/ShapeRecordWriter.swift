#if Shapefile
internal import CShapelib
import GeoConvCore
import GeoConvIO

/// The `.shp` and `.shx` of one shapefile, written record by record in geoconv's own code
/// (ESRI Shapefile Technical Description, 1998): big-endian record headers, little-endian
/// contents; polygons' outer rings clockwise and holes counter-clockwise, every ring closed.
/// The 100-byte headers (file length, bounds) are written when the files close. Z files
/// carry no measures, as shapelib writes them. (shapelib still reads shapefiles.) Without a
/// base path it only counts (`geoconv info`: the output is discarded).
struct ShapeRecordWriter {
    private var shp: BufferedFile?
    private var shx: BufferedFile?
    /// The file's shape type: `SHPT_NULL` until the first geometry decides it.
    var shapeType: Int32 = SHPT_NULL
    private(set) var records = 0
    private var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double, minZ: Double, maxZ: Double)?

    /// Writes `base.shp` and `base.shx`, or the `.shp` into `output` when given (see
    /// `BufferedFile.init(into:)`).
    init(base: String?, shpInto output: ByteWriter? = nil) throws(GeoConvError) {
        guard let base else { return }
        if let output {
            shp = BufferedFile(into: output)
        } else {
            shp = try BufferedFile(creating: base + ".shp")
        }
        shx = try BufferedFile(creating: base + ".shx")
        shp?.append(repeating: 0, count: 100)
        shx?.append(repeating: 0, count: 100)
    }

    /// The `.shp`'s size so far, in bytes.
    private(set) var byteCount = 100

    private var hasZ: Bool {
        shapeType == SHPT_POINTZ || shapeType == SHPT_MULTIPOINTZ || shapeType == SHPT_ARCZ
            || shapeType == SHPT_POLYGONZ
    }

    /// The bytes of a null shape's record, and of a point's, after the record's header.
    private static let nullBytes = 4
    private var pointBytes: Int { hasZ ? 28 : 20 }

    /// Counts `times` null shapes (`null`) or points more, as writing them would (`geoconv
    /// info`, counting features it does not write).
    mutating func countAgain(null: Bool, times: Int) {
        records += times
        byteCount += times * (8 + (null ? Self.nullBytes : pointBytes))
    }

    /// Appends a null shape.
    mutating func writeNull() throws(GeoConvError) {
        beginRecord(contentBytes: Self.nullBytes)
        shp?.appendLittleEndian(SHPT_NULL)
        try flushIfFull()
    }

    /// Appends `geometry` as a shape of the file's type (of `kind`).
    mutating func write(_ geometry: Geometry, kind: ShapeKind) throws(GeoConvError) {
        if case .point(let c) = geometry, kind == .points {
            // The common small shape, without building parts.
            let z = hasZ
            beginRecord(contentBytes: pointBytes)
            guard shp != nil else { return }
            shp?.appendLittleEndian(shapeType)
            shp?.appendLittleEndian(c.longitude)
            shp?.appendLittleEndian(c.latitude)
            if z { shp?.appendLittleEndian(c.altitude ?? 0) }
            include(c)
            return try flushIfFull()
        }
        var parts: [[Coordinate]] = []
        switch geometry {
        case .point(let c): parts = [[c]]
        case .multiPoint(let points): parts = [points]
        case .lineString(let path): parts = [path.coordinates]
        case .multiLineString(let lines): parts = lines.map(\.coordinates)
        case .polygon(let rings): parts = Self.oriented(rings)
        case .multiPolygon(let polygons): parts = polygons.flatMap(Self.oriented)
        case .circle, .geometryCollection, .empty: parts = []
        }
        parts.removeAll { $0.isEmpty }
        try write(parts: parts, multiPart: kind == .lines || kind == .polygons)
    }

    private mutating func write(parts: [[Coordinate]], multiPart: Bool) throws(GeoConvError) {
        let pointCount = parts.reduce(0) { $0 + $1.count }
        guard pointCount > 0 else { return try writeNull() }
        let z = hasZ
        // Type, box, counts, part starts, points, then z range and values.
        let partBytes = multiPart ? 4 + 4 * parts.count : 0
        let contentBytes = 4 + 32 + 4 + partBytes + 16 * pointCount + (z ? 16 + 8 * pointCount : 0)
        beginRecord(contentBytes: contentBytes)
        guard shp != nil else { return }
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        var minZ = Double.infinity
        var maxZ = -Double.infinity
        for part in parts {
            for c in part {
                minX = min(minX, c.longitude)
                maxX = max(maxX, c.longitude)
                minY = min(minY, c.latitude)
                maxY = max(maxY, c.latitude)
                minZ = min(minZ, c.altitude ?? 0)
                maxZ = max(maxZ, c.altitude ?? 0)
                include(c)
            }
        }
        shp?.appendLittleEndian(shapeType)
        for value in [minX, minY, maxX, maxY] { shp?.appendLittleEndian(value) }
        if multiPart { shp?.appendLittleEndian(Int32(parts.count)) }
        shp?.appendLittleEndian(Int32(pointCount))
        if multiPart {
            var start: Int32 = 0
            for part in parts {
                shp?.appendLittleEndian(start)
                start += Int32(part.count)
            }
        }
        for part in parts {
            for c in part {
                shp?.appendLittleEndian(c.longitude)
                shp?.appendLittleEndian(c.latitude)
            }
        }
        if z {
            shp?.appendLittleEndian(minZ)
            shp?.appendLittleEndian(maxZ)
            for part in parts { for c in part { shp?.appendLittleEndian(c.altitude ?? 0) } }
        }
        try flushIfFull()
    }

    /// The record's header in the `.shp` and its index entry in the `.shx`.
    private mutating func beginRecord(contentBytes: Int) {
        records += 1
        shx?.appendBigEndian(Int32(truncatingIfNeeded: byteCount / 2))
        shx?.appendBigEndian(Int32(truncatingIfNeeded: contentBytes / 2))
        shp?.appendBigEndian(Int32(truncatingIfNeeded: records))
        shp?.appendBigEndian(Int32(truncatingIfNeeded: contentBytes / 2))
        byteCount += 8 + contentBytes
    }

    private mutating func include(_ c: Coordinate) {
        let z = hasZ ? c.altitude ?? 0 : 0
        guard let b = bounds else {
            bounds = (c.longitude, c.latitude, c.longitude, c.latitude, z, z)
            return
        }
        bounds = (
            min(b.minX, c.longitude), min(b.minY, c.latitude), max(b.maxX, c.longitude), max(b.maxY, c.latitude),
            min(b.minZ, z), max(b.maxZ, z)
        )
    }

    private mutating func flushIfFull() throws(GeoConvError) {
        try shp?.flushIfFull()
        try shx?.flushIfFull()
    }

    /// Closes the files without finishing them (a conversion that failed).
    mutating func abandon() {
        shp?.abandon()
        shx?.abandon()
    }

    /// Writes both headers and closes the files.
    mutating func close() throws(GeoConvError) {
        let shpHeader = header(fileBytes: byteCount)
        let shxHeader = header(fileBytes: 100 + 8 * records)
        try shp?.close(header: shpHeader)
        try shx?.close(header: shxHeader)
    }

    /// File code 9994, the length in 16-bit words, version 1000, the type and the bounds
    /// (x, y, z; measures 0).
    private func header(fileBytes: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(100)
        func big(_ value: Int32) { withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) } }
        func little(_ value: Int32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        func littleDouble(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        big(9994)
        for _ in 0..<5 { big(0) }
        big(Int32(truncatingIfNeeded: fileBytes / 2))
        little(1000)
        little(shapeType)
        let b = bounds ?? (0, 0, 0, 0, 0, 0)
        for value in [b.minX, b.minY, b.maxX, b.maxY, b.minZ, b.maxZ, 0, 0] { littleDouble(value) }
        return bytes
    }

    /// The rings of a polygon closed, the outer one clockwise and the holes counter-clockwise.
    static func oriented(_ rings: PolygonRings) -> [[Coordinate]] {
        let outer = rings.outer.closed
        var result = [(outer.isCounterClockwise ? outer.reversedPath : outer).coordinates]
        for hole in rings.holes {
            let ring = hole.closed
            result.append((ring.planarSignedDoubleArea < 0 ? ring.reversedPath : ring).coordinates)
        }
        return result
    }
}
#endif
