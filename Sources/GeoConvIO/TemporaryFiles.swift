import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files and directories being filled — an output file before `commit()`
/// renames it into place, a KMZ's `doc.kml` and archive before they are copied into the
/// output, standard input copied aside — which the signal handler
/// `ByteWriter.removeTemporaryFileOnSignal()` installs removes, so that an interrupted
/// conversion leaves nothing behind. (Only SIGKILL, which no process can handle, still
/// leaves a named file; where `O_TMPFILE` works an output has no name until commit.)
///
/// Each owner (a `ByteWriter`, a KMZ writer, a spooled input) registers its own paths and
/// unregisters them when it is done with them, so that any number of conversions in one
/// process each have theirs removed. Signals are process-wide, so the registry is too: a
/// fixed table of C strings, changed under a lock and read by the handler without
/// allocating or locking. Each slot is a null-terminated list of paths, removed in order
/// (`unlink`), its last one with `rmdir` when the slot holds a directory.
package enum TemporaryFiles {
    private static let slots = 64
    nonisolated(unsafe) private static let table:
        UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?> = {
            let table = UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>.allocate(
                capacity: slots)
            table.initialize(repeating: nil, count: slots)
            return table
        }()
    /// Whether a slot's last path is a directory (set and read with its list).
    nonisolated(unsafe) private static let endsWithDirectory: UnsafeMutablePointer<Bool> = {
        let flags = UnsafeMutablePointer<Bool>.allocate(capacity: slots)
        flags.initialize(repeating: false, count: slots)
        return flags
    }()
    private static let lock = Mutex(())

    /// Notes a temporary file for removal on a signal; returns the slot to hand to
    /// `unregister`, `nil` when all slots are taken (the file is then only removed as usual,
    /// when its owner is done).
    package static func register(file path: String) -> Int? { register(paths: [path], directory: false) }

    /// Notes `directory` and the files it will hold (names in it) for removal on a signal;
    /// returns the slot to hand to `unregister` (`nil` as for a file).
    package static func register(_ directory: String, files: [String]) -> Int? {
        register(paths: files.map { directory + "/" + $0 } + [directory], directory: true)
    }

    private static func register(paths: [String], directory: Bool) -> Int? {
        lock.withLock { _ -> Int? in
            guard let slot = (0..<slots).first(where: { table[$0] == nil }) else { return nil }
            let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: paths.count + 1)
            for (index, path) in paths.enumerated() { (list + index).initialize(to: strdup(path)) }
            (list + paths.count).initialize(to: nil)
            endsWithDirectory[slot] = directory
            table[slot] = list
            return slot
        }
    }

    /// Forgets what its owner has removed, renamed or handed on.
    package static func unregister(_ slot: Int) {
        lock.withLock { _ in
            guard slot >= 0, slot < slots, let list = table[slot] else { return }
            table[slot] = nil
            var index = 0
            while let path = list[index] {
                free(path)
                index += 1
            }
            list.deallocate()
        }
    }

    /// The paths registered now, in slot order (for tests).
    package static func registeredPaths() -> [String] {
        lock.withLock { _ -> [String] in
            var paths: [String] = []
            for slot in 0..<slots {
                guard let list = table[slot] else { continue }
                var index = 0
                while let path = list[index] {
                    paths.append(String(cString: path))
                    index += 1
                }
            }
            return paths
        }
    }

    /// Makes the table before any signal can ask for it.
    package static func prepare() {
        _ = table
        _ = endsWithDirectory
    }

    /// Removes every registered file, and directory once emptied (from a signal handler:
    /// only `unlink` and `rmdir`, no locks, no allocation).
    package static func removeAllOnSignal() {
        for slot in 0..<slots {
            guard let list = table[slot] else { continue }
            var index = 0
            while let path = list[index] {
                if endsWithDirectory[slot], list[index + 1] == nil { rmdir(path) } else { unlink(path) }
                index += 1
            }
        }
    }
}
