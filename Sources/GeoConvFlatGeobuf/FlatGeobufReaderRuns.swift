public import GeoConvCore
public import GeoConvFormatKit

/// `--jobs` on FlatGeobuf: the size-prefixed features after the header and index cut into
/// runs of whole features, each read on another thread by a reader that knows the header.
/// A cut reads each size prefix and copies the features' bytes: nothing is parsed.
extension FlatGeobufReader: FeatureRunReader {
    /// Whether features are read in the file's order (the header is read, and the spatial
    /// index did not pick the features to read).
    public var cutsFeatureRuns: Bool { header != nil && found == nil }

    /// The size and count of the features ahead, counted from their size prefixes in the
    /// bytes read ahead (up to `size`), without taking them.
    public mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)? {
        guard cutsFeatureRuns else { return nil }
        return try source.peekFeatures(limit: size)
    }

    /// The next run of whole features of at least `size` bytes (fewer at the end of the
    /// file); `nil` when none is left.
    public mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> FeatureRun? {
        guard cutsFeatureRuns, let header else { return nil }
        let start = offset
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size + size / 4)
        while bytes.count < size {
            let before = bytes.count
            try source.read(4, what: "a feature's size", into: &bytes, endsCleanly: true)
            if bytes.count == before { break }
            let length = Self.littleEndian(bytes[before...])
            try source.read(length, what: "a feature", into: &bytes)
            offset += 4 + length
        }
        guard !bytes.isEmpty else { return nil }
        var run = FeatureRun(bytes: bytes, line: 1, byteOffset: start, recordsBefore: 0)
        run.makeReader = { [header] input, diagnostics in
            FlatGeobufReader(run: input, header: header, diagnostics: diagnostics)
        }
        return run
    }
}
