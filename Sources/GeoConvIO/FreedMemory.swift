#if canImport(Glibc)
import Glibc
#endif

/// Memory the process freed, handed back to the system.
package enum FreedMemory {
    #if canImport(Glibc)
    /// glibc's `malloc_trim`, found at run time (its header, `malloc.h`, is not in the
    /// Glibc module); `nil` with another C library.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif

    /// Hands the heap's free pages back to the system (glibc keeps them for the next
    /// allocations; `malloc_trim` returns them; elsewhere there is nothing to do). Called
    /// before a writer's last phase takes memory of its own (a GeoPackage's SQLite cache, a
    /// sort): without it, the pages reading freed still counted in the process's peak, and
    /// that phase's came on top.
    package static func release() {
        #if canImport(Glibc)
        _ = trim?(0)
        #endif
    }
}
