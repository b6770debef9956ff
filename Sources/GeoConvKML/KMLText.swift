extension String {
    /// Without leading and trailing whitespace.
    var trimmed: String {
        // The common case, answered from the first and last bytes: ASCII that is not a space
        // or control character cannot be whitespace, so the text is returned as it is.
        // (Read from the contiguous bytes: the UTF-8 view's `last` walks back generically.)
        let plain = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last else { return false }
            return first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F
        }
        if plain == true { return self }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
