/// A fixed set of names (property keys, member names) asked about once per property on the
/// per-feature path. A name is first checked by its length and first byte against a small
/// bitmap, so a name outside the set usually costs two loads and no hashing; only a name
/// that passes is looked up.
///
/// Meant for constants (`static let`): its storage is made once and never freed, so the
/// set is a plain value of two pointers. Reading it costs no reference counting — which
/// matters under `--jobs`, where every worker asks the same sets about every property and
/// retaining shared storage would make the threads fight over its reference count.
package struct NameSet: @unchecked Sendable {  // the storage is never changed after `init`
    /// One bit per (first byte, length 1…63); names of 64 bytes or more always go to the set.
    private let filter: UnsafePointer<UInt64>
    private let storage: Unmanaged<Storage>

    private final class Storage {
        let names: Set<String>
        init(_ names: Set<String>) { self.names = names }
    }

    /// Creates a set of `names`, kept for the life of the process.
    package init(_ names: some Sequence<String>) {
        let filter = UnsafeMutablePointer<UInt64>.allocate(capacity: 256)
        filter.initialize(repeating: 0, count: 256)
        let names = Set(names)
        for name in names {
            guard let first = name.utf8.first else { continue }
            let count = name.utf8.count
            filter[Int(first)] |= count < 64 ? 1 << UInt64(count) : 1
        }
        self.filter = UnsafePointer(filter)
        storage = Unmanaged.passRetained(Storage(names))
    }

    /// Whether `name` is in the set.
    @inline(__always)
    package func contains(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first else { return false }
        let count = utf8.count
        let bits = filter[Int(first)]
        guard bits & (count < 64 ? 1 << UInt64(count) : 1) != 0 else { return false }
        return storage._withUnsafeGuaranteedRef { $0.names.contains(name) }
    }

    /// The names, in no particular order.
    package var all: Set<String> { storage.takeUnretainedValue().names }
}
