public import GeoConvCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a reader's bytes come from.
public enum InputSource: Hashable, Sendable {
    /// A file on disk.
    case file(String)
    /// The process's standard input (`-` on the command line).
    case standardInput
    /// Bytes in memory, with a name for messages.
    case memory([UInt8], name: String)

    /// The name used in messages: the path, `<stdin>`, or the memory buffer's name.
    public var displayName: String {
        switch self {
        case .file(let path): path
        case .standardInput: "<stdin>"
        case .memory(_, let name): name
        }
    }
}

/// Reads an input in chunks, counting the bytes read (for progress and error offsets).
public final class ByteReader {
    private enum Backing {
        case descriptor(Int32, owned: Bool)
        case memory([UInt8], position: Int)
    }

    private var backing: Backing
    /// The source again, when it can be read a second time from its start (a file, memory).
    private let rereadableSource: InputSource?
    /// The input's name for messages.
    public let name: String
    /// The path of the file read, for formats whose data is several files side by side (a
    /// shapefile's `.shp`, `.dbf`, `.prj`); `nil` for standard input and memory.
    package var filePath: String? {
        if case .file(let path)? = rereadableSource { return path }
        return nil
    }
    /// Bytes handed out so far.
    public private(set) var bytesRead = 0
    /// What must live as long as this reader (the temporary copy of standard input it reads).
    package var keepsAlive: AnyObject?
    /// Also counts the bytes handed out, readable from other threads (a progress bar).
    public var progress: ProgressCounter?
    /// The input's size when it is a regular file or memory; `nil` for pipes.
    public let totalBytes: Int?
    /// For a run cut from an input (`FeatureRun.input(named:)`): the whole input's first
    /// bytes, from which a reader decides what an input's start decides (RS-delimited text
    /// sequence or not, a WKT file's SRID); `nil` when these bytes start the input.
    package var enclosingInputStart: [UInt8]?
    /// Whether these bytes start the input, where a UTF-8 byte order mark may stand (one is
    /// not skipped in a run cut from further on).
    package var startsInput: Bool { enclosingInputStart == nil }
    /// The most bytes one read hands out, `nil` for as many as the caller asks: `1` makes a
    /// drip-feed, as a slow pipe delivers, for tests that every reader copes with bytes
    /// arriving one at a time.
    package var maximumReadSize: Int?
    /// How many of the input's first bytes `inputStart()` gives.
    package static let inputStartLength = 64

    /// The whole input's first bytes (up to `inputStartLength`): peeked when these bytes
    /// start it, else those of the input this run was cut from.
    package func inputStart() throws(GeoConvError) -> [UInt8] {
        if let enclosingInputStart { return enclosingInputStart }
        return try peek(ByteReader.inputStartLength)
    }

    /// Opens a source for reading.
    public convenience init(_ source: InputSource) throws(GeoConvError) {
        try self.init(source, displayName: source.displayName)
    }

    /// Opens a source for reading under another name in messages (a KML extracted from a
    /// KMZ to a temporary file is `trails.kmz/doc.kml`, not the temporary path).
    package init(_ source: InputSource, displayName: String) throws(GeoConvError) {
        name = displayName
        switch source {
        case .file, .memory: rereadableSource = source
        case .standardInput: rereadableSource = nil
        }
        switch source {
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw GeoConvError(
                    .io, "cannot open '\(path)': \(systemErrorMessage())",
                    hint: "check that the file exists and is readable")
            }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw GeoConvError(.io, "'\(path)' is a directory, not a file", hint: "name a file to read")
            }
            totalBytes = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
            backing = .descriptor(fd, owned: true)
        case .standardInput:
            backing = .descriptor(STDIN_FILENO, owned: false)
            var info = stat()
            totalBytes = fstat(STDIN_FILENO, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        case .memory(let bytes, _):
            backing = .memory(bytes, position: 0)
            totalBytes = bytes.count
        }
    }

    deinit {
        if case .descriptor(let fd, owned: true) = backing { close(fd) }
    }

    /// The input's last `count` bytes (fewer when it is shorter), read without moving this
    /// reader; `nil` when the input is not a regular file or memory (a pipe).
    package func tail(_ count: Int) -> [UInt8]? {
        guard let totalBytes else { return nil }
        let length = min(count, totalBytes)
        guard length > 0 else { return [] }
        switch backing {
        case .memory(let bytes, _):
            return Array(bytes[(bytes.count - length)...])
        case .descriptor(let fd, _):
            var result = [UInt8](repeating: 0, count: length)
            var done = 0
            while done < length {
                let got = result.withUnsafeMutableBytes { buffer in
                    pread(fd, buffer.baseAddress! + done, length - done, off_t(totalBytes - length + done))
                }
                if got <= 0 { return nil }
                done += got
            }
            return result
        }
    }

    /// How to read the same input again from its start, independently of this reader (a
    /// second pass: KML styles defined after their use); `nil` for standard input.
    package var rereading: (@Sendable () throws(GeoConvError) -> ByteReader)? {
        guard let source = rereadableSource else { return nil }
        let displayName = name
        nonisolated(unsafe) let keep = keepsAlive  // (only kept, never used)
        return { () throws(GeoConvError) in
            let reader = try ByteReader(source, displayName: displayName)
            reader.keepsAlive = keep
            return reader
        }
    }

    private var pending: [UInt8] = []
    private var pendingStart = 0

    /// Up to `count` bytes from the current position without consuming them (for sniffing
    /// the format of standard input). Fewer come back only at the end of the input.
    public func peek(_ count: Int) throws(GeoConvError) -> [UInt8] {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { chunk.deallocate() }
        while pending.count - pendingStart < count {
            let n = try readSource(into: chunk)
            if n == 0 { break }
            pending += chunk[..<n]
        }
        return Array(pending[pendingStart..<min(pending.count, pendingStart + count)])
    }

    /// Fills as much of `buffer` as one read gives; returns 0 at the end of the input.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(GeoConvError) -> Int {
        if pendingStart < pending.count, let base = buffer.baseAddress {
            let n = min(buffer.count, pending.count - pendingStart, max(1, maximumReadSize ?? Int.max))
            pending.withUnsafeBytes { raw in base.copyMemory(from: raw.baseAddress! + pendingStart, byteCount: n) }
            pendingStart += n
            if pendingStart == pending.count {
                pending = []
                pendingStart = 0
            }
            bytesRead += n
            progress?.add(n)
            return n
        }
        let n = try readSource(into: buffer)
        bytesRead += n
        progress?.add(n)
        return n
    }

    private func readSource(into whole: UnsafeMutableRawBufferPointer) throws(GeoConvError) -> Int {
        let buffer = maximumReadSize.map { UnsafeMutableRawBufferPointer(rebasing: whole.prefix(max(1, $0))) } ?? whole
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        switch backing {
        case .descriptor(let fd, _):
            while true {
                let n = Glibc.read(fd, base, buffer.count)
                if n >= 0 {
                    return n
                }
                if errno == EINTR { continue }
                throw GeoConvError(
                    .io, "cannot read '\(name)': \(systemErrorMessage())",
                    at: SourceLocation(file: name, byteOffset: bytesRead))
            }
        case .memory(let bytes, let position):
            let n = min(buffer.count, bytes.count - position)
            if n > 0 {
                bytes.withUnsafeBytes { source in
                    buffer.baseAddress?.copyMemory(from: source.baseAddress! + position, byteCount: n)
                }
            }
            backing = .memory(bytes, position: position + n)
            return n
        }
    }

    /// Reads everything that is left (for small inputs such as a `.wkb` file), refusing more than `limit` bytes.
    public func readAll(limit: Int) throws(GeoConvError) -> [UInt8] {
        var result: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n = try read(into: chunk)
            if n == 0 { return result }
            result += chunk[..<n]
            if result.count > limit {
                throw GeoConvError(
                    .limitExceeded, "'\(name)' is larger than \(limit) bytes",
                    hint: "split the input, or use a streaming format")
            }
        }
    }

    /// Whether `bytes(in:)` can read any part of the input again: a regular file or memory
    /// (not a pipe).
    package var readsRanges: Bool {
        switch backing {
        case .memory: true
        case .descriptor: totalBytes != nil
        }
    }

    /// The input's bytes in `range`, read again (`pread`, which leaves the reading position
    /// alone); `nil` when the input cannot be read again (`readsRanges`).
    package func bytes(in range: Range<Int>) throws(GeoConvError) -> [UInt8]? {
        var bytes: [UInt8] = []
        return try append(range, to: &bytes) ? bytes : nil
    }

    /// Appends the bytes at `range` of the input to `buffer`, read again (`pread`, which
    /// leaves the reading position alone); false when the input cannot be read again.
    package func append(_ range: Range<Int>, to buffer: inout [UInt8]) throws(GeoConvError) -> Bool {
        switch backing {
        case .memory(let bytes, _):
            guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return false }
            buffer.append(contentsOf: bytes[range])
            return true
        case .descriptor(let fd, _):
            guard totalBytes != nil else { return false }
            let start = buffer.count
            buffer.reserveCapacity(start + range.count)
            var filled = 0
            var failure: Int32 = 0
            // Read straight into the buffer's new tail (no array per range).
            buffer.append(contentsOf: repeatElement(0, count: range.count))
            buffer.withUnsafeMutableBytes { raw in
                while filled < range.count {
                    let n = pread(
                        fd, raw.baseAddress! + start + filled, range.count - filled, off_t(range.lowerBound + filled))
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else {
                        failure = n == 0 ? -1 : errno
                        return
                    }
                    filled += n
                }
            }
            guard failure == 0 else {
                buffer.removeSubrange(start...)
                throw GeoConvError(
                    .io,
                    "cannot read '\(name)' again at byte \(range.lowerBound + filled): \(failure == -1 ? "it is shorter than before" : String(cString: strerror(failure)))",
                    hint: "do not change the input while geoconv reads it")
            }
            return true
        }
    }
}

/// Splits an input into lines without copying them, tracking line numbers and byte offsets.
/// Accepts `\n` and `\r\n` endings; a final line without a newline counts.
public final class LineReader {
    private let reader: ByteReader
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    private var atEnd = false
    private var discarded = 0
    /// The longest line accepted; a longer one is an error rather than unbounded memory.
    public let maximumLineLength: Int
    /// The 1-based number of the line last returned.
    public private(set) var lineNumber = 0
    /// The byte offset of the start of the line last returned.
    public private(set) var lineOffset = 0

    /// The input's name for messages.
    public var name: String { reader.name }
    /// Bytes consumed from the input so far.
    public var bytesRead: Int { reader.bytesRead }
    /// The input's total size when known.
    public var totalBytes: Int? { reader.totalBytes }

    /// Creates a line reader over a byte reader.
    public init(_ reader: ByteReader, maximumLineLength: Int = 1 << 30, bufferSize: Int = 1 << 20) {
        self.reader = reader
        self.maximumLineLength = maximumLineLength
        capacity = max(16, bufferSize)
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// The next line without its terminator, or `nil` at the end. The buffer is valid only
    /// until the next call.
    public func nextLine() throws(GeoConvError) -> UnsafeBufferPointer<UInt8>? {
        var searchFrom = start
        while true {
            if let newline = find(from: searchFrom) {
                let lineStart = start
                start = newline + 1
                var length = newline - lineStart
                if length > 0, storage[lineStart + length - 1] == 13 { length -= 1 }
                return deliver(lineStart, length)
            }
            if atEnd {
                guard start < end else { return nil }
                let lineStart = start
                var length = end - start
                start = end
                if length > 0, storage[lineStart + length - 1] == 13 { length -= 1 }
                return deliver(lineStart, length)
            }
            let searched = end - start
            try refill()
            searchFrom = start + searched
        }
    }

    private func deliver(_ lineStart: Int, _ length: Int) -> UnsafeBufferPointer<UInt8> {
        lineNumber += 1
        lineOffset = discarded + lineStart
        return UnsafeBufferPointer(start: storage + lineStart, count: length)
    }

    private func find(from index: Int) -> Int? {
        guard index < end else { return nil }
        guard let hit = memchr(storage + index, 10, end - index) else { return nil }
        return storage.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    private func refill() throws(GeoConvError) {
        if start > 0 {
            let live = end - start
            if live > 0 { (storage).update(from: storage + start, count: live) }
            discarded += start
            end = live
            start = 0
        }
        if end == capacity {
            guard capacity < maximumLineLength else {
                throw GeoConvError(
                    .limitExceeded, "line \(lineNumber + 1) is longer than \(maximumLineLength) bytes",
                    at: SourceLocation(file: name, line: lineNumber + 1),
                    hint: "one line holds one feature; split the input")
            }
            let newCapacity = min(maximumLineLength, capacity * 2)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: storage, count: end)
            storage.deallocate()
            storage = grown
            capacity = newCapacity
        }
        let n = try reader.read(into: UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end))
        if n == 0 { atEnd = true }
        end += n
    }
}

/// A byte count shared between the thread reading an input and one showing progress.
public final class ProgressCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// Creates a counter at zero.
    public init() {}

    /// Adds `bytes`.
    public func add(_ bytes: Int) { count.add(bytes, ordering: .relaxed) }

    /// The bytes counted so far.
    public var value: Int { count.load(ordering: .relaxed) }
}

/// The first error reading an input raised inside a parser that passes errors on as
/// `any Error` (libxml2's read callback), kept typed for the reader that made the parser: it
/// reports the input's own error, not the parser's account of it.
package final class ReadFailure {
    /// The error, once reading failed.
    package private(set) var error: GeoConvError?

    package init() {}

    /// Runs `read`, keeping its error before passing it on.
    package func recording<T>(_ read: () throws(GeoConvError) -> T) throws(GeoConvError) -> T {
        do throws(GeoConvError) {
            return try read()
        } catch {
            if self.error == nil { self.error = error }
            throw error
        }
    }
}
