import GeoConvCore
import GeoConvIO

/// The input read in pieces of 256 KB and handed out in the sizes FlatGeobuf asks for (a
/// feature's four-byte size, then its bytes: `ByteReader` reads what it is asked, and a
/// point feature is about a hundred bytes).
final class FlatGeobufInput {
    let input: ByteReader
    /// The piece read last, in storage of its own (read through a pointer: nothing retained
    /// per feature); allocated at the first read.
    private var chunk = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// The next byte of `chunk` to hand out, and how many of its bytes the last read filled.
    private var next = 0
    private var filled = 0

    init(_ input: ByteReader) { self.input = input }

    deinit { chunk.deallocate() }

    /// `count` bytes appended to `bytes`, or an error naming `what` ends early; with
    /// `endsCleanly`, the input's end before the first byte appends nothing. (Bytes are
    /// appended as they come: a damaged size that asks for gigabytes meets the end of the file
    /// first, with memory for the bytes that are there.)
    func read(_ count: Int, what: String, into bytes: inout [UInt8], endsCleanly: Bool = false) throws(GeoConvError) {
        try read(count, what: what, endsCleanly: endsCleanly) { bytes.append(contentsOf: $0) }
    }

    /// `count` bytes of the input appended to `buffer` (as `read(_:what:into:endsCleanly:)`).
    func read(_ count: Int, what: String, into buffer: FlatBuffer, endsCleanly: Bool = false) throws(GeoConvError) {
        try read(count, what: what, endsCleanly: endsCleanly) { buffer.append($0) }
    }

    /// `count` bytes of the input handed to `append` as they come, piece by piece.
    private func read(
        _ count: Int, what: String, endsCleanly: Bool, append: (UnsafeRawBufferPointer) -> Void
    ) throws(GeoConvError) {
        var copied = 0
        while copied < count {
            if next == filled {
                try refill()
                if filled == 0 {
                    if endsCleanly && copied == 0 { return }
                    throw GeoConvError(
                        .invalidInput,
                        "the file ends inside \(what): \(copied) of its \(count) bytes are there, "
                            + "the file is truncated",
                        at: SourceLocation(file: input.name, byteOffset: input.bytesRead),
                        hint: "the FlatGeobuf file was cut short; copy or write it again")
                }
            }
            let n = min(count - copied, filled - next)
            append(UnsafeRawBufferPointer(rebasing: chunk[next..<(next + n)]))
            next += n
            copied += n
        }
    }

    /// The size and count of the features that start in the bytes read ahead, up to `limit`
    /// bytes, without taking them (from their size prefixes: their bytes may lie beyond);
    /// `nil` at the end of the input or when no whole size prefix is read ahead.
    func peekFeatures(limit: Int) throws(GeoConvError) -> (bytes: Int, features: Int)? {
        if next == filled { try refill() }
        var position = next
        var bytes = 0
        var features = 0
        while bytes < limit, position + 4 <= filled {
            let size = Int(UInt32(littleEndian: chunk.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
            bytes += 4 + size
            features += 1
            position += 4 + size
        }
        return features == 0 ? nil : (bytes, features)
    }

    private func refill() throws(GeoConvError) {
        if chunk.isEmpty { chunk = .allocate(byteCount: 256 << 10, alignment: 8) }
        next = 0
        filled = try input.read(into: chunk)
    }
}
