/// The characters XML 1.0 cannot hold (§2.2): C0 controls other than tab, line feed and
/// carriage return, and U+FFFE, U+FFFF — found in UTF-8 bytes, for the XML writers that drop
/// them and for what decides, before writing, that they would.
package enum XMLCharacters {
    /// Whether `bytes` (UTF-8) hold a character XML 1.0 cannot hold.
    @inlinable package static func includeForbidden(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in bytes.indices {
            let byte = bytes[index]
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return true }
            if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF,
                bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF
            {
                return true
            }
        }
        return false
    }
}
