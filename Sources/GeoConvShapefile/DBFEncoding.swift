#if Shapefile
internal import CShapelib
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GeoConvCore
import GeoConvIO

/// The character set of a DBF's text, decoded to UTF-8: from `--shp-encoding`, else the
/// `.cpg` file beside it, else the language driver id in its header (byte 29) — GDAL's
/// order. With none of them, each value is read as UTF-8 when it is UTF-8 and as
/// ISO-8859-1 when not (reported); GDAL then passes the bytes on as they are.
struct DBFEncoding {
    /// The iconv name (`CP1252`, `ISO-8859-1`, `UTF-8`).
    let name: String
    /// Where it came from, for messages: `.cpg "1252"`, `LDID 87`, `--shp-encoding`, `default`.
    let source: String

    /// Reads what shapelib found (`DBFGetCodePage`: the `.cpg`'s text, or `LDID/n`).
    init(codePage: String?, override: String?) {
        if let override {
            name = Self.iconvName(cpg: override) ?? override
            source = "--shp-encoding \(override)"
        } else if let codePage, codePage.hasPrefix("LDID/"), let id = Int(codePage.dropFirst(5)) {
            name = Self.languageDrivers[id] ?? "ISO-8859-1"
            source = "the DBF's language driver id \(id)"
        } else if let codePage, let name = Self.iconvName(cpg: codePage) {
            self.name = name
            source = "the .cpg file (\"\(codePage)\")"
        } else {
            name = "UTF-8"
            source = codePage.map { "an unknown .cpg (\"\($0)\")" } ?? "no .cpg and no language driver id"
            isGuessed = true
            return
        }
        isGuessed = false
    }

    /// Nothing says the encoding: UTF-8 where the bytes are UTF-8, else ISO-8859-1.
    private(set) var isGuessed = true

    var isUTF8: Bool { name == "UTF-8" }

    /// The iconv name for a `.cpg`'s text (`TextDecoder.iconvName`).
    static func iconvName(cpg: String) -> String? { TextDecoder.iconvName(cpg) }

    /// The DBF language driver ids (dBase, ArcGIS) and their code pages.
    static let languageDrivers: [Int: String] = [
        0x01: "CP437", 0x02: "CP850", 0x03: "CP1252", 0x08: "CP865", 0x09: "CP437", 0x0A: "CP850", 0x0B: "CP437",
        0x0D: "CP437", 0x0E: "CP850", 0x0F: "CP437", 0x10: "CP850", 0x11: "CP437", 0x12: "CP850", 0x13: "SHIFT_JIS",
        0x14: "CP850", 0x15: "CP437", 0x16: "CP850", 0x17: "CP865", 0x18: "CP437", 0x19: "CP437", 0x1A: "CP850",
        0x1B: "CP437", 0x1C: "CP863", 0x1D: "CP850", 0x1F: "CP852", 0x22: "CP852", 0x23: "CP852", 0x24: "CP860",
        0x25: "CP850", 0x26: "CP866", 0x37: "CP850", 0x40: "CP852", 0x4D: "GBK", 0x4E: "CP949", 0x4F: "BIG5",
        0x50: "CP874", 0x57: "ISO-8859-1", 0x58: "CP1252", 0x59: "CP1252", 0x64: "CP852", 0x65: "CP866",
        0x66: "CP865", 0x67: "CP861", 0x6A: "CP737", 0x6B: "CP857", 0x78: "BIG5", 0x79: "CP949", 0x7A: "GBK",
        0x7B: "SHIFT_JIS", 0x7C: "CP874", 0x7D: "CP1255", 0x7E: "CP1256", 0x86: "CP737", 0x87: "CP852",
        0x88: "CP857", 0xC8: "CP1250", 0xC9: "CP1251", 0xCA: "CP1254", 0xCB: "CP1253", 0xCC: "CP1257",
    ]
}

/// Text of a DBF decoded to Swift strings through iconv (UTF-8 checked as is).
final class DBFTextDecoder {
    let encoding: DBFEncoding
    private let converter: iconv_t?
    private var output = [CChar](repeating: 0, count: 1024)
    /// Whether a value had bytes that are not text in the encoding (read as U+FFFD).
    private(set) var sawInvalidBytes = false
    /// Whether a value, with no encoding said, was not UTF-8 and was read as ISO-8859-1.
    private(set) var readLatin1 = false

    /// - Throws: `usage` when iconv knows no such encoding.
    init(_ encoding: DBFEncoding) throws(GeoConvError) {
        self.encoding = encoding
        if encoding.isUTF8 {
            converter = nil
            return
        }
        let handle = iconv_open("UTF-8", encoding.name)
        guard let handle, Int(bitPattern: handle) != -1 else {
            throw GeoConvError(
                .usage, "the DBF's text encoding \(encoding.name) (from \(encoding.source)) is not known here",
                hint: "name another with --shp-encoding (e.g. CP1252, ISO-8859-1, UTF-8)")
        }
        converter = handle
    }

    deinit {
        if let converter { iconv_close(converter) }
    }

    /// Whether iconv converts from the encoding `name` here.
    static func knows(_ name: String) -> Bool {
        guard let handle = iconv_open("UTF-8", name), Int(bitPattern: handle) != -1 else { return false }
        iconv_close(handle)
        return true
    }

    /// `bytes` (without their terminator) as a string.
    func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let converter, bytes.contains(where: { $0 >= 0x80 }) else {
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            if encoding.isGuessed {
                readLatin1 = true
                var text = ""
                text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
                return text
            }
            sawInvalidBytes = true
            return String(decoding: bytes, as: UTF8.self)
        }
        if output.count < bytes.count * 4 + 4 { output = [CChar](repeating: 0, count: bytes.count * 4 + 4) }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count * 2)
        iconv(converter, nil, nil, nil, nil)  // reset the state
        var inPointer = UnsafeMutablePointer(
            mutating: UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self))
        var inLeft = bytes.count
        output.withUnsafeMutableBufferPointer { out in
            while inLeft > 0 {
                var outPointer: UnsafeMutablePointer<CChar>? = out.baseAddress
                var outLeft = out.count
                var inOptional: UnsafeMutablePointer<CChar>? = inPointer
                let status = iconv(converter, &inOptional, &inLeft, &outPointer, &outLeft)
                let produced = out.count - outLeft
                result.append(contentsOf: UnsafeRawBufferPointer(start: out.baseAddress, count: produced))
                inPointer = inOptional ?? inPointer
                if status == -1 {
                    if errno == E2BIG { continue }
                    // A byte that is not a character of the encoding: U+FFFD, then on.
                    sawInvalidBytes = true
                    result.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    inPointer += 1
                    inLeft -= 1
                }
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
#endif
