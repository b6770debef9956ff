package import GeoConvCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input copied to a temporary file, so that it can be read more than once (a
/// GeoJSON `crs` member after the features is read before them, as from a named file); or an
/// input in a legacy encoding copied as UTF-8 (`ByteReader.decoded(from:)`).
/// The file and its directory are removed when the last reader of it is done, or when a
/// signal ends the process (`TemporaryFiles`).
package final class SpooledInput {
    package let path: String
    private let directory: String
    private let slot: Int?

    /// Copies what `reader` has left into the spool, through `decoder` when given (text in
    /// a legacy encoding written as UTF-8).
    package init(copying reader: ByteReader, through decoder: TextDecoder? = nil) throws(GeoConvError) {
        // (Named for what it holds: a copy of standard input, or a decoded file.)
        let kind = decoder == nil ? "stdin" : "decoded"
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/geoconv-" + kind + "-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw GeoConvError(
                .io,
                "cannot create a temporary directory in \(base) to hold a copy of the input: "
                    + systemErrorMessage(),
                hint: "set TMPDIR to a writable directory, or give the input by its file name")
        }
        directory = String(cString: made)
        path = directory + "/input"
        slot = TemporaryFiles.register(directory, files: ["input"])
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw GeoConvError(
                .io, "cannot create '\(path)': \(systemErrorMessage())", hint: "set TMPDIR to a writable directory")
        }
        defer { close(fd) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        /// Writes `bytes` whole; false on a failure (`errno` says which).
        func put(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var written = 0
            while written < bytes.count {
                let w = write(fd, bytes.baseAddress! + written, bytes.count - written)
                if w < 0, errno == EINTR { continue }
                guard w > 0 else { return false }
                written += w
            }
            return true
        }
        while true {
            let n = try reader.read(into: chunk)
            let done: Bool
            if let decoder {
                let decoded = decoder.decode(UnsafeRawBufferPointer(rebasing: chunk[..<n]), isLast: n == 0)
                done = decoded.withUnsafeBytes { put($0) }
            } else {
                done = put(UnsafeRawBufferPointer(rebasing: chunk[..<n]))
            }
            guard done else {
                throw GeoConvError(
                    .io, "cannot copy the input to '\(path)': \(systemErrorMessage())",
                    hint: "free some disk space or set TMPDIR elsewhere")
            }
            if n == 0 { break }
        }
    }

    deinit {
        unlink(path)
        rmdir(directory)
        if let slot { TemporaryFiles.unregister(slot) }
    }
}

extension ByteReader {
    /// This input as one that can be read again from its start (`rereading`, `tail`): itself
    /// when it can be, else (standard input) what is left of it copied to a temporary file
    /// first, read under the same name. The copy lives as long as a reader of it.
    package func readableAgain() throws(GeoConvError) -> ByteReader {
        if rereading != nil { return self }
        let spool = try SpooledInput(copying: self)
        let reader = try ByteReader(.file(spool.path), displayName: name)
        reader.keepsAlive = spool
        reader.progress = progress
        return reader
    }
}
