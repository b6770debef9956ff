import GeoConvCore
import GeoConvIO

/// The input read in pieces of 256 KB and handed out in the sizes FlatGeobuf asks for (a
/// feature's four-byte size, then its bytes: `ByteReader` reads what it is asked, and a
/// point feature is about a hundred bytes).
final class FlatGeobufInput {
    let input: ByteReader
    private var chunk: [UInt8] = []
    /// The next byte of `chunk` to hand out, and how many of its bytes the last read filled.
    private var next = 0
    private var filled = 0

    init(_ input: ByteReader) { self.input = input }

    /// `count` bytes appended to `bytes`, or an error naming `what` ends early; with
    /// `endsCleanly`, the input's end before the first byte appends nothing. (Bytes are
    /// appended as they come: a damaged size that asks for gigabytes meets the end of the file
    /// first, with memory for the bytes that are there.)
    func read(_ count: Int, what: String, into bytes: inout [UInt8], endsCleanly: Bool = false) throws(GeoConvError) {
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
            bytes.append(contentsOf: chunk[next..<(next + n)])
            next += n
            copied += n
        }
    }

    private func refill() throws(GeoConvError) {
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: 256 << 10) }
        next = 0
        let input = input
        do {
            filled = try chunk.withUnsafeMutableBytes { buffer in try input.read(into: buffer) }
        } catch let error as GeoConvError {
            throw error
        } catch {
            throw GeoConvError(.io, "reading \(input.name) failed: \(error)")
        }
    }
}
