#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
import GeoConvCore
// zlib: the system-library target where pkg-config finds it (Linux), the SDK's module on Apple platforms.
#if canImport(CGeoConvZlib)
internal import CGeoConvZlib
#elseif canImport(zlib)
internal import zlib
#endif

/// PNG encoding for tiles: 8-bit RGBA, un-premultiplied from Cairo's ARGB32, each row
/// filtered with Sub (or None when that is smaller to guess: rows that are all clear),
/// deflated at zlib's fastest level. Cairo's own writer (libpng's defaults: every filter
/// tried per row, level 6) spent two thirds of a tile pyramid's time; the files are about
/// a third larger, which tiles served over HTTP barely feel.
enum PNGEncoder {
    /// `argb` (premultiplied 0xAARRGGBB, `width` × `height`) as PNG bytes.
    static func encode(
        argb: UnsafeBufferPointer<UInt32>, width: Int, height: Int, stride: Int
    ) throws(GeoConvError) -> [UInt8] {
        // Raw scanlines: a filter byte, then RGBA.
        let rowBytes = 1 + 4 * width
        var raw = [UInt8](repeating: 0, count: rowBytes * height)
        raw.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = y * rowBytes
                out[row] = 1  // Sub: each byte less the one 4 to its left
                var previous: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
                for x in 0..<width {
                    let value = argb[y * stride + x]
                    let a = UInt8(truncatingIfNeeded: value >> 24)
                    var r = UInt8(truncatingIfNeeded: value >> 16)
                    var g = UInt8(truncatingIfNeeded: value >> 8)
                    var b = UInt8(truncatingIfNeeded: value)
                    if a != 0 && a != 255 {
                        r = UInt8(min(255, (Int(r) * 255 + Int(a) / 2) / Int(a)))
                        g = UInt8(min(255, (Int(g) * 255 + Int(a) / 2) / Int(a)))
                        b = UInt8(min(255, (Int(b) * 255 + Int(a) / 2) / Int(a)))
                    }
                    let at = row + 1 + 4 * x
                    out[at] = r &- previous.0
                    out[at + 1] = g &- previous.1
                    out[at + 2] = b &- previous.2
                    out[at + 3] = a &- previous.3
                    previous = (r, g, b, a)
                }
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendUInt32(UInt32(width), to: &header)
        appendUInt32(UInt32(height), to: &header)
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        chunk("IHDR", header, to: &png)
        chunk("IDAT", try deflate(raw), to: &png)
        chunk("IEND", [], to: &png)
        return png
    }

    private static func deflate(_ bytes: [UInt8]) throws(GeoConvError) -> [UInt8] {
        var bound = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(bound))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &bound, source.baseAddress, uLong(source.count), Z_BEST_SPEED)
            }
        }
        guard status == Z_OK else { throw GeoConvError(.io, "zlib could not compress a tile (status \(status))") }
        out.removeSubrange(Int(bound)...)
        return out
    }

    private static func chunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendUInt32(UInt32(data.count), to: &png)
        let start = png.count
        png += Array(type.utf8)
        png += data
        let crc = png[start...].withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        appendUInt32(UInt32(crc), to: &png)
    }

    private static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
#endif
