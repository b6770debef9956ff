/// A fixed set of names (property keys, member names) asked about once per property on the
/// per-feature path. A name is first checked by its length and first byte against a small
/// bitmap, so a name outside the set usually costs two loads and no hashing; only a name
/// that passes is looked up.
public struct NameSet: Sendable {
    /// One bit per (first byte, length 1…63); names of 64 bytes or more always go to the set.
    private let filter: [UInt64]
    private let names: Set<String>

    /// Creates a set of `names`.
    public init(_ names: some Sequence<String>) {
        var filter = [UInt64](repeating: 0, count: 256)
        let names = Set(names)
        for name in names {
            guard let first = name.utf8.first else { continue }
            let count = name.utf8.count
            filter[Int(first)] |= count < 64 ? 1 << UInt64(count) : 1
        }
        self.filter = filter
        self.names = names
    }

    /// Whether `name` is in the set.
    @inline(__always)
    public func contains(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first else { return false }
        let count = utf8.count
        let bits = filter[Int(first)]
        guard bits & (count < 64 ? 1 << UInt64(count) : 1) != 0 else { return false }
        return names.contains(name)
    }

    /// The names, in no particular order.
    public var all: Set<String> { names }
}
