import Foundation
public import GeoConv

/// Reads GeoJSON (or a sequence) from text, returning header, features and warnings.
public func readGeoJSON(
    _ text: String, sequence: Bool = false, skipInvalid: Bool = false, name: String = "test.geojson"
) throws(GeoConvError)
    -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog)
{
    try readGeoJSON(bytes: Array(text.utf8), sequence: sequence, skipInvalid: skipInvalid, name: name)
}

public func readGeoJSON(
    bytes: [UInt8], sequence: Bool = false, skipInvalid: Bool = false, name: String = "test.geojson"
) throws(GeoConvError)
    -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog)
{
    let diagnostics = DiagnosticLog()
    var reader = GeoJSONReader(
        try ByteReader(.memory(bytes, name: name)),
        options: GeoJSONReadOptions(isSequence: sequence, skipsInvalidFeatures: skipInvalid),
        diagnostics: diagnostics)
    let header = try reader.readHeader()
    var features: [Feature] = []
    while let feature = try reader.next() { features.append(feature) }
    return (header, features, diagnostics)
}

/// Writes features as GeoJSON (or a sequence) into memory.
public func writeGeoJSON(
    _ features: [Feature], header: DocumentHeader = DocumentHeader(),
    options: GeoJSONWriteOptions = GeoJSONWriteOptions(),
    strict: Bool = false
) throws(GeoConvError) -> (text: String, diagnostics: DiagnosticLog) {
    let output = try ByteWriter(.memory)
    let diagnostics = DiagnosticLog(strict: strict)
    var writer = GeoJSONWriter(output, options: options, diagnostics: diagnostics)
    try writer.begin(header)
    for feature in features { try writer.write(feature) }
    try writer.finish()
    return (String(decoding: output.memoryContents, as: UTF8.self), diagnostics)
}

public func readKML(
    path: String
) throws(GeoConvError) -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog) {
    let diagnostics = DiagnosticLog()
    let input = try ByteReader(.file(path))
    var header = DocumentHeader()
    var features: [Feature] = []
    if path.hasSuffix(".kmz") {
        var reader = try KMZReader(input, diagnostics: diagnostics)
        header = try reader.readHeader()
        while let feature = try reader.next() { features.append(feature) }
    } else {
        var reader = try KMLReader(input, diagnostics: diagnostics)
        header = try reader.readHeader()
        while let feature = try reader.next() { features.append(feature) }
    }
    return (header, features, diagnostics)
}

public func writeKML(
    _ features: [Feature], header: DocumentHeader = DocumentHeader()
) throws(GeoConvError) -> (text: String, diagnostics: DiagnosticLog) {
    let output = try ByteWriter(.memory)
    let diagnostics = DiagnosticLog()
    var writer = KMLWriter(output, diagnostics: diagnostics)
    try writer.begin(header)
    for feature in features { try writer.write(feature) }
    try writer.finish()
    return (String(decoding: output.memoryContents, as: UTF8.self), diagnostics)
}

public func readKML(text: String) throws(GeoConvError) -> [Feature] {
    let diagnostics = DiagnosticLog()
    var reader = try KMLReader(try ByteReader(.memory(Array(text.utf8), name: "written.kml")), diagnostics: diagnostics)
    _ = try reader.readHeader()
    var features: [Feature] = []
    while let feature = try reader.next() { features.append(feature) }
    return features
}

/// Whether two geometries are the same shape: rings compared closed and counter-clockwise.
public func sameShape(_ a: Geometry?, _ b: Geometry?) -> Bool {
    func normalized(_ path: Path) -> [Coordinate] {
        var ring = path.closed.coordinates
        if path.closed.count >= 4, !path.closed.isCounterClockwise { ring.reverse() }
        return ring
    }
    func rings(_ r: PolygonRings) -> [[Coordinate]] { r.rings.map(normalized) }
    switch (a, b) {
    case (.polygon(let x)?, .polygon(let y)?): return rings(x) == rings(y)
    case (.multiPolygon(let x)?, .multiPolygon(let y)?): return x.map(rings) == y.map(rings)
    case (.geometryCollection(let x)?, .geometryCollection(let y)?):
        return x.count == y.count && zip(x, y).allSatisfy { sameShape($0, $1) }
    default: return a == b
    }
}

/// A small deterministic generator so random tests repeat exactly.
public struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Tools some tests run when this machine has them.
public enum Tools {
    /// A Python 3 interpreter, if one is installed.
    public static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/root/.pyenv/shims/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}
