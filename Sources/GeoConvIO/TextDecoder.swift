package import GeoConvCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Text in a legacy encoding (Windows-1252, ISO-8859-x, Shift_JIS, GBK…) decoded to UTF-8 by
/// the C library's iconv, chunk by chunk: a character cut by a chunk's end waits for the next.
/// A byte that is no character of the encoding is read as U+FFFD and counted.
package final class TextDecoder {
    /// The iconv name of the encoding.
    package let encoding: String
    /// Bytes that were no character of the encoding (each read as U+FFFD).
    package private(set) var invalidBytes = 0
    private let converter: iconv_t
    private var pending: [UInt8] = []

    /// - Throws: `usage` when iconv knows no such encoding.
    package init(from encoding: String, optionName: String) throws(GeoConvError) {
        let handle = iconv_open("UTF-8", encoding)
        guard let handle, Int(bitPattern: handle) != -1 else {
            throw GeoConvError(
                .usage, "the text encoding \"\(encoding)\" is not one this system knows",
                hint: "name another with \(optionName) (e.g. CP1252, ISO-8859-1, ISO-8859-15, "
                    + "SHIFT_JIS; `iconv -l` lists them)")
        }
        self.encoding = encoding
        converter = handle
    }

    deinit { iconv_close(converter) }

    /// The UTF-8 of `chunk` (after what an earlier chunk left pending); at the end
    /// (`isLast`), a character left incomplete is read as U+FFFD.
    package func decode(_ chunk: UnsafeRawBufferPointer, isLast: Bool) -> [UInt8] {
        var input = pending
        input.append(contentsOf: chunk)
        pending.removeAll(keepingCapacity: true)
        var result: [UInt8] = []
        result.reserveCapacity(input.count * 2 + 16)
        var output = [UInt8](repeating: 0, count: max(64, input.count * 4))
        input.withUnsafeMutableBytes { source in
            guard let base = source.baseAddress else { return }
            var inPointer: UnsafeMutablePointer<CChar>? = base.assumingMemoryBound(to: CChar.self)
            var inLeft = source.count
            output.withUnsafeMutableBytes { target in
                while inLeft > 0 {
                    var outPointer: UnsafeMutablePointer<CChar>? =
                        target.baseAddress?.assumingMemoryBound(to: CChar.self)
                    var outLeft = target.count
                    let status = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                    result.append(contentsOf: UnsafeRawBufferPointer(rebasing: target[..<(target.count - outLeft)]))
                    guard status == -1 else { continue }
                    let failure = errno
                    if failure == E2BIG { continue }
                    if failure == EINVAL, !isLast, let at = inPointer {
                        // A character cut by the chunk's end: kept for the next chunk.
                        pending.append(contentsOf: UnsafeRawBufferPointer(start: at, count: inLeft))
                        inLeft = 0
                        continue
                    }
                    // Not a character of the encoding (or one left incomplete at the end).
                    invalidBytes += 1
                    result.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    inPointer = inPointer.map { $0 + 1 }
                    inLeft -= 1
                }
            }
        }
        return result
    }

    /// The iconv name for an encoding as people and files write it (a `.cpg`'s text, an
    /// option's value): `UTF-8`, `1252` / `ANSI 1252` / `CP1252` / `windows-1252`, `88591` /
    /// `8859-1` / `ISO-8859-1`, `LATIN1`, `936` (GBK), `950` (BIG5), `932` (SHIFT_JIS)…;
    /// `nil` for empty text.
    package static func iconvName(_ given: String) -> String? {
        let text = String(given.uppercased().filter { !$0.isWhitespace && $0 != "\u{FEFF}" })
        if text.isEmpty { return nil }
        if text == "UTF-8" || text == "UTF8" || text == "65001" { return "UTF-8" }
        var digits = text
        for prefix in ["ANSI", "OEM", "CP", "WINDOWS-", "IBM"] where digits.hasPrefix(prefix) {
            digits = String(digits.dropFirst(prefix.count))
        }
        if digits.hasPrefix("ISO") { digits = String(digits.dropFirst(3).drop { $0 == "-" || $0 == "_" }) }
        if digits.hasPrefix("8859") {
            let part = digits.dropFirst(4).drop { $0 == "-" || $0 == "_" }
            return part.isEmpty ? nil : "ISO-8859-\(part)"
        }
        if !digits.isEmpty, digits.allSatisfy(\.isNumber) {
            switch digits {
            case "936": return "GBK"
            case "950": return "BIG5"
            case "932": return "SHIFT_JIS"
            case "949": return "CP949"
            default: return "CP\(digits)"
            }
        }
        if text == "LATIN1" { return "ISO-8859-1" }
        return text
    }
}

extension ByteReader {
    /// This input decoded from `decoder`'s encoding to UTF-8: copied through it to a
    /// temporary file (memory stays bounded), read under the same name. The copy lives as
    /// long as a reader of it; `decoder.invalidBytes` then says how many bytes were no text.
    package func decoded(by decoder: TextDecoder) throws(GeoConvError) -> ByteReader {
        let spool = try SpooledInput(copying: self, through: decoder)
        let reader = try ByteReader(.file(spool.path), displayName: name)
        reader.keepsAlive = spool
        reader.progress = progress
        return reader
    }
}
