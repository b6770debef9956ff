public import GeoConvCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a writer's bytes go.
public enum OutputTarget: Hashable, Sendable {
    /// A file, written to a temporary file beside it and renamed into place on success.
    case file(String)
    /// The process's standard output (`-` on the command line).
    case standardOutput
    /// Memory, readable through `ByteWriter.memoryContents` (for tests and library use).
    case memory
    /// Nowhere: bytes are counted and dropped (for dry runs such as `geoconv info`).
    case discard
}

/// A buffered byte output. File output is atomic: bytes go to a temporary file in the
/// target's directory, which `commit()` renames over the target; `abort()` (or dropping the
/// writer without committing) deletes it, leaving any existing target untouched.
public final class ByteWriter {
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    /// Buffered bytes are handed on past this many; in memory, only when asked (`flush()`,
    /// `commit()`): there the first flush makes the buffer itself the contents, not a copy
    /// (later ones append to them), and `memoryContents`, `bytesWritten` wait for it.
    private let flushThreshold: Int
    private var descriptor: Int32 = -1
    private var temporaryPath: String?
    private var targetPath: String?
    private var committed = false
    private var ownsSpecialFile = false
    private let keepsInMemory: Bool
    /// Everything written, for `.memory` targets (empty otherwise).
    public private(set) var memoryContents: [UInt8] = []
    /// Bytes written so far (handed on: in memory, as of the last `flush()` or `commit()`).
    @exclusivity(unchecked) public private(set) var bytesWritten = 0
    /// The name used in messages.
    public let name: String
    /// The path of the file written (`OutputTarget.file`), for formats that write files
    /// beside it (a shapefile's `.shx`, `.dbf`, `.prj`); `nil` for other targets.
    package var filePath: String? { targetPath }
    /// Whether the bytes are kept in memory (`OutputTarget.memory`).
    package var isMemory: Bool { keepsInMemory }

    /// Whether the bytes go nowhere (`OutputTarget.discard`): what a writer would hold back
    /// for later need not be kept either.
    package let discards: Bool

    /// Opens a target. For a file, creates the temporary file now, so that an unwritable
    /// directory fails before any input is read.
    public init(_ target: OutputTarget) throws(GeoConvError) {
        flushThreshold = target == .memory ? Int.max : 1 << 18
        buffer.reserveCapacity((1 << 18) + 4096)
        discards = target == .discard
        switch target {
        case .standardOutput:
            descriptor = STDOUT_FILENO
            keepsInMemory = false
            name = "<stdout>"
        case .memory:
            keepsInMemory = true
            name = "<memory>"
        case .discard:
            keepsInMemory = false
            name = "<discard>"
        case .file(let path):
            keepsInMemory = false
            name = path
            // A device, FIFO or socket (/dev/null, /dev/stdout, a named pipe) is written in
            // place: replacing it with a renamed file would destroy it.
            var existing = stat()
            if stat(path, &existing) == 0, (existing.st_mode & S_IFMT) != S_IFREG {
                guard (existing.st_mode & S_IFMT) != S_IFDIR else {
                    throw GeoConvError(.usage, "'\(path)' is a directory", hint: "name an output file")
                }
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else {
                    throw GeoConvError(.io, "cannot open '\(path)' for writing: \(systemErrorMessage())")
                }
                descriptor = fd
                ownsSpecialFile = true
                return
            }
            let slash = path.lastIndex(of: "/")
            let directory = slash.map { String(path[...$0]) } ?? ""
            let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
            targetPath = path
            // Preferably an anonymous file (O_TMPFILE) in the target's directory: it has no
            // name until commit() links it, so even SIGKILL or a power cut leaves nothing.
            if let anonymousFlags = ByteWriter.anonymousFileFlags {
                let fd = open(directory.isEmpty ? "." : directory, anonymousFlags | O_RDWR | O_CLOEXEC, 0o600)
                if fd >= 0 {
                    descriptor = fd
                    isAnonymous = true
                    temporaryPath = directory + "." + base + ".geoconv-"
                    return
                }
            }
            var template = Array((directory + "." + base + ".geoconv-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else {
                throw GeoConvError(
                    .io, "cannot create a temporary file beside '\(path)': \(systemErrorMessage())",
                    hint: "check that the directory exists and is writable")
            }
            descriptor = fd
            temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            registerTemporary(temporaryPath)
        }
    }

    deinit { abort() }

    /// The temporary file being written, for `.file` targets before `commit()`.
    public var temporaryFilePath: String? { committed || isAnonymous ? nil : temporaryPath }

    /// Whether the output is an unnamed O_TMPFILE file until commit.
    private var isAnonymous = false
    /// This writer's entry in `TemporaryFiles` while its named temporary file exists.
    private var signalSlot: Int?

    /// `O_TMPFILE` (Linux; not exported to Swift): `__O_TMPFILE | O_DIRECTORY`.
    /// `nil` where the anonymous file could not be named at commit (no /proc).
    private static var anonymousFileFlags: Int32? {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        return access("/proc/self/fd", F_OK) == 0 ? 0o20000000 | O_DIRECTORY : nil
        #else
        return nil
        #endif
    }

    /// Gives the anonymous file a hidden name beside the target (linkat cannot replace a
    /// file), so that rename() can then put it in place atomically.
    private func linkAnonymousFile(prefix: String) throws(GeoConvError) -> String {
        let source = "/proc/self/fd/\(descriptor)"
        for attempt in 0..<100 {
            let name =
                prefix + String(UInt32.random(in: 0...UInt32.max), radix: 36) + (attempt > 0 ? "-\(attempt)" : "")
            if linkat(AT_FDCWD, source, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 { return name }
            if errno != EEXIST { break }
        }
        throw GeoConvError(
            .io, "cannot give the output a name beside '\(targetPath ?? "")': \(systemErrorMessage())",
            hint: "check that the directory is writable")
    }

    /// Appends bytes.
    @inline(__always)
    public func write<C: Sequence<UInt8>>(_ bytes: C) throws(GeoConvError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Appends bytes.
    public func write(_ bytes: [UInt8]) throws(GeoConvError) {
        if discards {
            bytesWritten += bytes.count  // (counted as a flush would, not copied)
            return
        }
        if bytes.count >= flushThreshold, !keepsInMemory, descriptor >= 0 {
            // A large block (a run of records made on another thread) goes to the system as
            // it is, after what is buffered: not copied into the buffer first.
            try flush()
            bytesWritten += bytes.count
            try writeFully(descriptor, bytes, what: "'\(name)'", diskFullHint: "free some disk space and run again")
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Appends a string's UTF-8.
    @inline(__always)
    public func write(_ string: String) throws(GeoConvError) {
        buffer.append(contentsOf: string.utf8)
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Appends a literal's UTF-8 bytes.
    @inline(__always)
    package func write(literal: StaticString) throws(GeoConvError) {
        buffer.append(literal: literal)
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Appends one byte.
    @inline(__always)
    public func write(byte: UInt8) throws(GeoConvError) {
        buffer.append(byte)
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Appends the bytes of the file at `path` (a writer's own temporary file, made whole
    /// before it is known where it goes): into a file on Linux by the kernel (`sendfile`),
    /// not through this process's memory; else read and written a megabyte at a time.
    package func write(contentsOfFileAt path: String) throws(GeoConvError) {
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw GeoConvError(.io, "cannot read back '\(path)': \(systemErrorMessage())") }
        defer { close(source) }
        #if os(Linux)
        if !discards, !keepsInMemory, descriptor >= 0 {
            try flush()
            while true {
                let sent = sendfile(descriptor, source, nil, 1 << 30)
                if sent < 0, errno == EINTR { continue }
                if sent < 0, errno == EINVAL || errno == ENOSYS { break }  // (then by hand, below)
                guard sent >= 0 else {
                    throw GeoConvError(
                        .io, "cannot write '\(name)': \(systemErrorMessage())",
                        hint: "free some disk space and run again")
                }
                if sent == 0 { return }
                bytesWritten += sent
            }
        }
        #endif
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = block.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw GeoConvError(.io, "cannot read back '\(path)': \(systemErrorMessage())") }
            if n == 0 { return }
            try write(Array(block[..<n]))
        }
    }

    /// Memory, written into a buffer `spares` kept (`memoryContents` is that buffer, to be
    /// given back to them when its bytes are used).
    package convenience init(memoryReusing spares: SpareBuffers) throws(GeoConvError) {
        try self.init(.memory)
        var spare = spares.take()
        guard spare.capacity > buffer.capacity else { return }
        swap(&buffer, &spare)
    }

    /// Hands buffered bytes to the operating system.
    public func flush() throws(GeoConvError) {
        bytesWritten += buffer.count
        if keepsInMemory {
            // (The first bytes become the contents as they are: a run's records, made on a
            // worker, are handed over without a copy.)
            if memoryContents.isEmpty {
                swap(&memoryContents, &buffer)
            } else {
                memoryContents += buffer
                buffer.removeAll(keepingCapacity: true)
            }
            return
        }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard descriptor >= 0 else { return }
        try writeFully(descriptor, buffer, what: "'\(name)'", diskFullHint: "free some disk space and run again")
    }

    /// Whether what was written can be read back and rewritten (`replacePrefix(_:with:)`): a
    /// regular file's temporary file, not standard output, a pipe, memory or nowhere.
    package var rewritesPrefix: Bool { descriptor >= 0 && targetPath != nil && !ownsSpecialFile }

    /// Writes `bytes` over the first `bytes.count` bytes written, in place (for a writer that
    /// wrote its start early with room after it, and learnt later that it says more): what
    /// follows is not moved, and writing goes on at the end.
    package func overwritePrefix(_ bytes: [UInt8]) throws(GeoConvError) {
        guard rewritesPrefix else { throw GeoConvError(.io, "'\(name)' cannot be rewritten") }
        try flush()
        guard bytes.count <= bytesWritten else {
            throw GeoConvError(.io, "cannot rewrite '\(name)': the new start is longer than what was written")
        }
        try writeFully(
            descriptor, bytes, at: 0, what: "'\(name)'", diskFullHint: "free some disk space and run again")
    }

    /// Replaces the first `length` bytes written with `bytes`, keeping all that follows (for
    /// a writer that wrote its start early and learnt later that it says more). The rest is
    /// copied aside and back: as costly as writing it again, so only for the exception.
    package func replacePrefix(_ length: Int, with bytes: [UInt8]) throws(GeoConvError) {
        guard rewritesPrefix else { throw GeoConvError(.io, "'\(name)' cannot be rewritten") }
        try flush()
        let total = bytesWritten
        let aside = Spool()
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var offset = length
        while offset < total {
            let n = block.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress, min($0.count, total - offset), off_t(offset))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw GeoConvError(
                    .io,
                    "cannot read back '\(name)': \(n < 0 ? systemErrorMessage() : "it is shorter than was written")")
            }
            try aside.append(Array(block[..<n]))
            offset += n
        }
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw GeoConvError(.io, "cannot rewrite '\(name)': \(systemErrorMessage())")
        }
        bytesWritten = 0
        try write(bytes)
        try aside.drain(into: self)
    }

    /// Flushes, and for a file target renames the temporary file over the target (synced to
    /// disk first when it replaces an existing file).
    public func commit() throws(GeoConvError) {
        try flush()
        if ownsSpecialFile {
            close(descriptor)
            descriptor = -1
            ownsSpecialFile = false
            committed = true
            return
        }
        guard let pendingPath = temporaryPath, let targetPath, !committed else { return }
        let mask = umask(0)
        umask(mask)
        var mode = 0o666 & ~mask
        var existing = stat()
        let replaces = stat(targetPath, &existing) == 0
        if replaces { mode = existing.st_mode & 0o7777 }
        fchmod(descriptor, mode)
        // An existing file is replaced only once the new one is on disk, so that not even a
        // power cut can leave less than one of the two. A new file is not synced (nothing is
        // at stake but itself; cp, GDAL and ogr2ogr never sync): that wait is the disk's
        // whole write of the output.
        if replaces, fsync(descriptor) != 0 {
            let message = systemErrorMessage()
            throw GeoConvError(.io, "cannot write '\(targetPath)': \(message)")
        }
        var temporaryPath = pendingPath
        if isAnonymous {
            temporaryPath = try linkAnonymousFile(prefix: pendingPath)
            registerTemporary(temporaryPath)
        }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, targetPath) == 0 else {
            let message = systemErrorMessage()
            unlink(temporaryPath)
            throw GeoConvError(.io, "cannot move the output into place at '\(targetPath)': \(message)")
        }
        committed = true
        registerTemporary(nil)
    }

    /// Discards the output: deletes the temporary file of a file target. Safe to call twice.
    public func abort() {
        guard !committed else { return }
        if ownsSpecialFile {
            close(descriptor)
            descriptor = -1
            ownsSpecialFile = false
        }
        if let temporaryPath {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
            if !isAnonymous { unlink(temporaryPath) }  // an anonymous file vanishes when closed
            registerTemporary(nil)
        }
        committed = true
        buffer.removeAll()
    }

    /// Notes this writer's named temporary file (or none) for removal on a signal, in place
    /// of the one noted before (see `TemporaryFiles`).
    private func registerTemporary(_ path: String?) {
        if let signalSlot { TemporaryFiles.unregister(signalSlot) }
        signalSlot = path.flatMap { TemporaryFiles.register(file: $0) }
    }

    /// Installs SIGINT, SIGTERM, SIGHUP and SIGPIPE handlers that delete the temporary file of
    /// every output being written (and the other `TemporaryFiles`) and exit, so an interrupted conversion leaves nothing behind
    /// (where O_TMPFILE works the file has no name until commit, so even SIGKILL leaves
    /// nothing), and ignores SIGXFSZ so that a file-size limit is an ordinary write error.
    package static func removeTemporaryFileOnSignal() {
        // Past a file-size limit (ulimit -f), fail the write (EFBIG) and clean up normally
        // rather than being killed.
        signal(SIGXFSZ, SIG_IGN)
        TemporaryFiles.prepare()
        // A parent may have left these blocked (the mask is inherited across exec); a
        // conversion that cannot be interrupted would be worse than one that cleans up.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&handled, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] {
            signal(signalNumber) { received in
                TemporaryFiles.removeAllOnSignal()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}

/// Whether two paths name the same existing file (same device and inode).
public func isSameFile(_ a: String, _ b: String) -> Bool {
    var first = stat()
    var second = stat()
    guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino
}

func systemErrorMessage() -> String { String(cString: strerror(errno)) }

/// Bytes held back to be written later (a document whose header can only be written once
/// every feature was seen: KML's shared styles and schema). Kept in memory up to a
/// threshold, then in an unlinked temporary file, so memory stays bounded and nothing is
/// left on disk even if the process dies.
public final class Spool {
    @exclusivity(unchecked) private var memory: [UInt8] = []
    private var descriptor: Int32 = -1
    private let threshold: Int
    /// The block being written to the temporary file on another thread (so that the thread
    /// filling the spool does not wait for the disk), with its failure if it fails.
    private var writing: BackgroundTask<GeoConvError?>?
    /// Bytes held.
    @exclusivity(unchecked) public private(set) var count = 0

    /// Whether appended bytes are only counted (for output that goes nowhere).
    private let discards: Bool

    /// Creates an empty spool that moves to disk in blocks of `threshold` bytes (one block
    /// filling while the one before is written); with `discards`, one that only counts what
    /// it is given.
    public init(threshold: Int = 2 << 20, discards: Bool = false) {
        self.threshold = threshold
        self.discards = discards
    }

    deinit {
        _ = writing?.value()
        if descriptor >= 0 { close(descriptor) }
    }

    /// Waits for the block being written, throwing its failure.
    private func finishWriting() throws(GeoConvError) {
        guard let task = writing else { return }
        writing = nil
        if let failure = task.value() { throw failure }
    }

    /// Appends bytes.
    public func append(_ bytes: [UInt8]) throws(GeoConvError) {
        count += bytes.count
        if discards { return }
        memory.append(contentsOf: bytes)
        if memory.count >= threshold { try spill() }
    }

    /// Appends a string's UTF-8.
    public func append(_ text: String) throws(GeoConvError) {
        count += text.utf8.count
        if discards { return }
        memory.append(contentsOf: text.utf8)
        if memory.count >= threshold { try spill() }
    }

    private func spill() throws(GeoConvError) {
        if descriptor < 0 { descriptor = try unlinkedTemporaryFile(named: "geoconv-spool") }
        try finishWriting()
        let block = memory
        let fd = descriptor
        memory = []
        memory.reserveCapacity(threshold + (256 << 10))  // room for the feature that crosses the threshold
        writing = BackgroundTask { () -> GeoConvError? in
            do throws(GeoConvError) {
                try writeFully(
                    fd, block, what: "the temporary file", diskFullHint: "free some disk space or set TMPDIR elsewhere")
                return nil
            } catch {
                return error
            }
        }
    }

    /// Writes everything held to `output`, in order, and empties the spool.
    public func drain(into output: ByteWriter) throws(GeoConvError) {
        try drain { bytes throws(GeoConvError) in try output.write(bytes) }
    }

    /// Hands everything held to `write`, in order and in chunks, and empties the spool.
    public func drain(_ write: ([UInt8]) throws(GeoConvError) -> Void) throws(GeoConvError) {
        try finishWriting()
        if descriptor >= 0 {
            try writeFully(
                descriptor, memory, what: "the temporary file",
                diskFullHint: "free some disk space or set TMPDIR elsewhere")
            memory.removeAll()
            guard lseek(descriptor, 0, SEEK_SET) == 0 else {
                throw GeoConvError(.io, "cannot rewind the temporary file: \(systemErrorMessage())")
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw GeoConvError(.io, "cannot read the temporary file: \(systemErrorMessage())")
                }
                if n == 0 { break }
                try write(Array(chunk[..<n]))
            }
            close(descriptor)
            descriptor = -1
        } else {
            try write(memory)
            memory.removeAll()
        }
        count = 0
    }
}

/// A new temporary file in `TMPDIR` (else `/tmp`), unlinked at once so that nothing is left
/// on disk even if the process dies: its descriptor, for `Spool` and `ScratchFile`.
func unlinkedTemporaryFile(named prefix: String) throws(GeoConvError) -> Int32 {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((directory + "/" + prefix + "-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
        throw GeoConvError(
            .io, "cannot create a temporary file in \(directory): \(systemErrorMessage())",
            hint: "set TMPDIR to a writable directory")
    }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return fd
}

/// Writes all of `bytes` to `fd`, where its offset is (`at: nil`) or from byte `at` on
/// (`pwrite`, the offset left alone), retrying short writes and EINTR; a failure names
/// `what` and, for a full disk or a file-size limit, says what to do.
func writeFully(
    _ fd: Int32, _ bytes: [UInt8], at position: Int? = nil, what: String, diskFullHint: String
) throws(GeoConvError) {
    var failure: Int32 = 0
    bytes.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let n =
                if let position {
                    pwrite(fd, base + offset, raw.count - offset, off_t(position + offset))
                } else {
                    Glibc.write(fd, base + offset, raw.count - offset)
                }
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            offset += n
        }
    }
    if failure != 0 {
        throw GeoConvError(
            .io, "cannot write \(what): \(String(cString: strerror(failure)))",
            hint: failure == ENOSPC
                ? diskFullHint : failure == EFBIG ? "a file-size limit was reached (ulimit -f)" : nil)
    }
}
