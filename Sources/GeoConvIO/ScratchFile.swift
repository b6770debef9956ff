package import GeoConvCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Records written once and read back in any order (a writer that must sort what it was
/// given: FlatGeobuf's features in the order of their spatial index): an unlinked temporary
/// file, appended through a buffer and read with `pread`, so memory holds the buffer only
/// and nothing is left on disk even if the process dies.
package final class ScratchFile {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes appended so far: where the next record starts.
    package private(set) var count = 0
    private var written = 0

    /// Creates an empty scratch file in `TMPDIR` (else `/tmp`).
    package init() throws(GeoConvError) {
        descriptor = try unlinkedTemporaryFile(named: "geoconv-scratch")
        buffer.reserveCapacity(1 << 20)
    }

    deinit { close(descriptor) }

    /// Appends `bytes`; returns where they start.
    @discardableResult
    package func append(_ bytes: ArraySlice<UInt8>) throws(GeoConvError) -> Int {
        let start = count
        buffer.append(contentsOf: bytes)
        count += bytes.count
        if buffer.count >= 1 << 20 { try flush() }
        return start
    }

    /// Appends `bytes`; returns where they start.
    @discardableResult
    package func append(_ bytes: [UInt8]) throws(GeoConvError) -> Int {
        let start = count
        buffer.append(contentsOf: bytes)
        count += bytes.count
        if buffer.count >= 1 << 20 { try flush() }
        return start
    }

    private func flush() throws(GeoConvError) {
        guard !buffer.isEmpty else { return }
        try writeFully(
            descriptor, buffer, what: "the temporary file", diskFullHint: "free some disk space or set TMPDIR elsewhere"
        )
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads `length` bytes from `offset` into `out` (replacing what it held).
    package func read(_ length: Int, at offset: Int, into out: inout [UInt8]) throws(GeoConvError) {
        if offset + length > written { try flush() }
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: repeatElement(0, count: length))
        var failure: Int32 = 0
        out.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var got = 0
            while got < length {
                let n = pread(descriptor, base + got, length - got, off_t(offset + got))
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    failure = n < 0 ? errno : EIO
                    return
                }
                got += n
            }
        }
        guard failure == 0 else {
            throw GeoConvError(.io, "cannot read the temporary file: \(String(cString: strerror(failure)))")
        }
    }
}
