extension String {
    /// The text with the control characters that a terminal would act on (C0 other than
    /// line feed, DEL and C1) written as `\u{1B}`, so that a value echoed from the input
    /// in a message cannot move the cursor, recolour the terminal or hide text.
    ///
    /// Messages quote names and values from the files they describe; every error, warning
    /// and validation problem passes through this when it is described.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var text = ""
        text.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            if Self.needsEscape(scalar) {
                text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x0A) || (value >= 0x7F && value <= 0x9F)
    }
}
