public import Foundation
public import GeoConvCore

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
    /// GDAL's ogrinfo, if installed.
    public static let ogrinfo: String? = ["/usr/bin/ogrinfo", "/usr/local/bin/ogrinfo"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    /// GDAL's ogr2ogr, if installed.
    public static let ogr2ogr: String? = ["/usr/bin/ogr2ogr", "/usr/local/bin/ogr2ogr"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The standard output of `executable` run with `arguments`; an error with the end of its
    /// standard error when it exits with another status than 0, unless `anyStatus` (ogr2ogr
    /// writes the layers it can and fails on the others). (Standard error goes to a file, so
    /// that a tool writing much there cannot block on a full pipe.)
    public static func output(of executable: String, _ arguments: [String], anyStatus: Bool = false) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-tool-\(UUID()).txt")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let errors = try FileHandle(forWritingTo: errorsFile)
        defer { try? errors.close() }
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 || anyStatus else {
            let message = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
            throw GeoConvError(
                .io, "\(executable) exited \(process.terminationStatus): \(message.suffix(2000))")
        }
        return data
    }
}
