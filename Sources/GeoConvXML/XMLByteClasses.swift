/// The byte classes the fast XML path scans by: 256-entry tables, one load per byte instead
/// of a chain of comparisons. Plain memory, made once and never written after (nor freed).
extension XMLByteTokenizer {
    /// The bytes text is scanned for (1): '<', '&', '>', controls but tab, and bytes from 0x80.
    nonisolated(unsafe) static let textSpecials = byteTable { table in
        for byte in 0..<0x20 where byte != 0x09 { table[byte] = 1 }  // (a tab needs no look)
        for byte in 0x80..<0x100 { table[byte] = 1 }
        for byte in [UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: ">")] { table[Int(byte)] = 1 }
    }

    /// The bytes an attribute value is scanned for (1): quotes, '<', '&', controls (tab
    /// included: it is rewritten) and bytes from 0x80.
    nonisolated(unsafe) static let valueSpecials = byteTable { table in
        for byte in 0..<0x20 { table[byte] = 1 }
        for byte in 0x80..<0x100 { table[byte] = 1 }
        for byte in [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: "&")] {
            table[Int(byte)] = 1
        }
    }

    /// What each byte is in an ASCII name: 1 a name start (letter, '_'), 2 a name byte
    /// (digit, '-', '.'), 3 a colon, 0 none of them.
    nonisolated(unsafe) static let nameBytes = byteTable { table in
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") {
            table[Int(byte)] = 1
            table[Int(byte) - 32] = 1
        }
        table[Int(UInt8(ascii: "_"))] = 1
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = 2 }
        table[Int(UInt8(ascii: "-"))] = 2
        table[Int(UInt8(ascii: "."))] = 2
        table[Int(UInt8(ascii: ":"))] = 3
    }

    /// A table of 256 zeros that `fill` sets classes in.
    private static func byteTable(_ fill: (UnsafeMutablePointer<UInt8>) -> Void) -> UnsafePointer<UInt8> {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        table.initialize(repeating: 0, count: 256)
        fill(table)
        return UnsafePointer(table)
    }
}
