#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The arithmetic that keeps a run's places the document's: line breaks counted in the
/// bytes a run or its marker stands for, and the padding that keeps libxml2's chunk
/// boundaries where they were.
extension KMLSplitter {
    /// Spaces that take `length` to `target` modulo `parserChunk`.
    static func chunkPadding(from length: Int, to target: Int) -> Int {
        ((target - length) % parserChunk + parserChunk) % parserChunk
    }

    /// How many line breaks `bytes` hold, and how many bytes follow the last one (all of
    /// them when there is none).
    static func lineBreaks(in bytes: [UInt8]) -> (count: Int, lastLine: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            let (count, last) = lineBreaks(in: buffer)
            return (count, buffer.count - (last.map { $0 + 1 } ?? 0))
        }
    }

    /// How many line breaks `bytes` hold, and the index of the last one (`memchr` from break
    /// to break: a run of Placemarks has one every few dozen bytes).
    static func lineBreaks(in bytes: UnsafeBufferPointer<UInt8>) -> (count: Int, last: Int?) {
        guard let start = bytes.baseAddress else { return (0, nil) }
        var count = 0, last: Int?, from = 0
        while from < bytes.count, let hit = memchr(start + from, 0x0A, bytes.count - from) {
            count += 1
            let index = start.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            last = index
            from = index + 1
        }
        return (count, last)
    }
}
