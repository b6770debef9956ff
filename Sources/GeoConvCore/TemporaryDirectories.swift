#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Temporary directories being filled (a KMZ's `doc.kml` and archive before it is copied
/// into the output), which the signal handler `ByteWriter.removeTemporaryFileOnSignal()`
/// installs removes with the files named in them, so that an interrupted conversion leaves
/// no directory behind. (Only SIGKILL, which no process can handle, still leaves one.)
///
/// A few fixed slots of C strings, so that the handler reads them without allocating or
/// locking: each slot a null-terminated list, the files first and the directory last.
package enum TemporaryDirectories {
    private static let slots = 8
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>.allocate(capacity: slots)
        table.initialize(repeating: nil, count: slots)
        return table
    }()
    private static let lock = Mutex(())

    /// Notes `directory` and the files it will hold (names in it) for removal on a signal;
    /// returns the slot to hand to `unregister`, `nil` when all slots are taken (the
    /// directory is then only removed as usual, when its owner is done).
    package static func register(_ directory: String, files: [String]) -> Int? {
        lock.withLock { _ -> Int? in
            guard let slot = (0..<slots).first(where: { table[$0] == nil }) else { return nil }
            let paths = files.map { directory + "/" + $0 } + [directory]
            let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: paths.count + 1)
            for (index, path) in paths.enumerated() { (list + index).initialize(to: strdup(path)) }
            (list + paths.count).initialize(to: nil)
            table[slot] = list
            return slot
        }
    }

    /// Forgets a directory its owner has removed.
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

    /// Makes the table before any signal can ask for it.
    package static func prepare() { _ = table }

    /// Removes every registered directory's files and the directory (from a signal handler:
    /// only `unlink` and `rmdir`, no locks, no allocation).
    static func removeAllOnSignal() {
        for slot in 0..<slots {
            guard let list = table[slot] else { continue }
            var index = 0
            while let path = list[index] {
                if list[index + 1] == nil { rmdir(path) } else { unlink(path) }
                index += 1
            }
        }
    }
}
