#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Element names made into strings once (a document repeats a few names many times), in 64
/// slots chosen by length and first and last byte: a slot's bytes (names of at most
/// `slotBytes`), their count (0 while empty) and its string. Plain memory, so that asking
/// costs no reference counting on every tag; its owner calls `deallocate()`.
struct XMLNameCache {
    private static let slots = 64, slotBytes = 32
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: slots * slotBytes)
    private let counts: UnsafeMutablePointer<Int>
    private let strings: UnsafeMutablePointer<String>

    init() {
        counts = .allocate(capacity: Self.slots)
        counts.initialize(repeating: 0, count: Self.slots)
        strings = .allocate(capacity: Self.slots)
        strings.initialize(repeating: "", count: Self.slots)
    }

    /// The string of the name `name` (not empty), from the cache when it holds it.
    func name(of name: UnsafeBufferPointer<UInt8>) -> String {
        guard let start = name.baseAddress, !name.isEmpty else { return "" }
        let length = name.count
        let slot = (length &* 31 &+ Int(start[0]) &* 7 &+ Int(start[length - 1])) & (Self.slots - 1)
        let slotBytes = bytes + slot &* Self.slotBytes
        if counts[slot] == length, memcmp(slotBytes, start, length) == 0 { return strings[slot] }
        let string = String(decoding: name, as: UTF8.self)
        if length <= Self.slotBytes {
            slotBytes.update(from: start, count: length)
            counts[slot] = length
            strings[slot] = string
        }
        return string
    }

    /// Frees the cache's memory; it is not used again.
    func deallocate() {
        bytes.deallocate()
        counts.deallocate()
        strings.deinitialize(count: Self.slots)
        strings.deallocate()
    }
}
