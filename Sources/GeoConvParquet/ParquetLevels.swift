import GeoConvBytes
package import GeoConvCore

/// Parquet's RLE / bit-packing hybrid (parquet-format `Encodings.md`): a varint header
/// whose low bit says a bit-packed run (`groups << 1 | 1`, groups of eight values packed
/// least significant bit first) or a repeated run (`count << 1`, the value in
/// ⌈width/8⌉ little-endian bytes). Definition levels and dictionary indices use it.
package enum ParquetHybrid {
    /// Appends `values` (each below 2^`width`): runs of eight or more equal values as
    /// repeated runs, the rest bit-packed (the last group padded with zeros).
    package static func encode(_ values: [UInt32], width: Int, to out: inout [UInt8]) {
        guard width > 0 else {
            if !values.isEmpty { ByteEncoding.appendVarint(UInt64(values.count) << 1, to: &out) }
            return
        }
        var i = 0
        var literal: [UInt32] = []
        func flushLiteral(_ out: inout [UInt8]) {
            guard !literal.isEmpty else { return }
            while literal.count % 8 != 0 { literal.append(0) }
            ByteEncoding.appendVarint(UInt64(literal.count / 8) << 1 | 1, to: &out)
            var buffer: UInt64 = 0
            var bits = 0
            for value in literal {
                buffer |= UInt64(value) << UInt64(bits)
                bits += width
                while bits >= 8 {
                    out.append(UInt8(truncatingIfNeeded: buffer))
                    buffer >>= 8
                    bits -= 8
                }
            }
            if bits > 0 { out.append(UInt8(truncatingIfNeeded: buffer)) }
            literal.removeAll(keepingCapacity: true)
        }
        while i < values.count {
            var run = 1
            while i + run < values.count, values[i + run] == values[i] { run += 1 }
            // A repeated run only from a group boundary of the literal, so padding stays at the end.
            if run >= 8, literal.count % 8 == 0 {
                flushLiteral(&out)
                ByteEncoding.appendVarint(UInt64(run) << 1, to: &out)
                var value = values[i]
                for _ in 0..<((width + 7) / 8) {
                    out.append(UInt8(truncatingIfNeeded: value))
                    value >>= 8
                }
                i += run
            } else {
                literal.append(values[i])
                i += 1
                // A literal run's groups are counted in 6 bits of a one-byte header at best; cap it.
                if literal.count == 504 { flushLiteral(&out) }
            }
        }
        flushLiteral(&out)
    }

    /// Appends `count` copies of `value` as one repeated run.
    package static func encodeRun(_ value: UInt32, count: Int, width: Int, to out: inout [UInt8]) {
        guard count > 0 else { return }
        ByteEncoding.appendVarint(UInt64(count) << 1, to: &out)
        var v = value
        for _ in 0..<((width + 7) / 8) {
            out.append(UInt8(truncatingIfNeeded: v))
            v >>= 8
        }
    }

    /// Decodes `count` values of `width` bits from `bytes` into `values`; an error at
    /// `base` + the offset where the runs end early.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, width: Int, count: Int, into values: inout [UInt32],
        base: Int
    ) throws(GeoConvError) {
        values.removeAll(keepingCapacity: true)
        values.reserveCapacity(count)
        guard width <= 32 else { throw failure("a bit width of \(width)", at: base) }
        var offset = 0
        let valueBytes = (width + 7) / 8
        while values.count < count {
            var header: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard offset < bytes.count, shift < 64 else {
                    throw failure("the levels or indices end early", at: base + offset)
                }
                let b = bytes[offset]
                offset += 1
                header |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { break }
                shift += 7
            }
            if header & 1 == 0 {
                let run = Int(clamping: header >> 1)
                guard offset + valueBytes <= bytes.count else {
                    throw failure("a repeated run ends early", at: base + offset)
                }
                var value: UInt32 = 0
                for k in 0..<valueBytes { value |= UInt32(bytes[offset + k]) << UInt32(8 * k) }
                offset += valueBytes
                let take = min(run, count - values.count)
                values.append(contentsOf: repeatElement(value, count: take))
            } else {
                let groups = Int(clamping: header >> 1)
                let total = groups.multipliedReportingOverflow(by: 8)
                guard !total.overflow else { throw failure("a bit-packed run of \(groups) groups", at: base + offset) }
                let byteCount = groups * width
                guard offset + byteCount <= bytes.count || width == 0 else {
                    throw failure("a bit-packed run ends early", at: base + offset)
                }
                var buffer: UInt64 = 0
                var bits = 0
                var consumed = 0
                let mask: UInt64 = width == 32 ? 0xFFFF_FFFF : (1 << UInt64(width)) - 1
                // Only the values still wanted are unpacked (a run's padding, or more, is skipped).
                for _ in 0..<min(total.partialValue, count - values.count) {
                    while bits < width {
                        buffer |= UInt64(bytes[offset + consumed]) << UInt64(bits)
                        consumed += 1
                        bits += 8
                    }
                    let value = UInt32(truncatingIfNeeded: buffer & mask)
                    buffer >>= UInt64(width)
                    bits -= width
                    values.append(value)
                }
                offset += byteCount
            }
        }
    }

    package static func failure(_ what: String, at offset: Int) -> GeoConvError {
        GeoConvError(
            .invalidInput, "a Parquet page is damaged: \(what)", at: SourceLocation(byteOffset: offset),
            hint: "check that the file is complete")
    }

    /// The number of bits for values up to `maximum`.
    package static func width(forMaximum maximum: Int) -> Int {
        var width = 0
        while (1 << width) <= maximum { width += 1 }
        return width
    }
}
