package import GeoConvCore

#if canImport(CGeoConvZlib)
internal import CGeoConvZlib
#else
internal import zlib
#endif
#if Zstd
internal import CZstd
#endif

/// Page compression: none, gzip (zlib, always there) and zstd (libzstd, with the `Zstd`
/// trait) both ways; Snappy — pyarrow's and geopandas' default — decompressed by
/// `Snappy`, written from its format description.
package enum ParquetCompression {
    /// The codecs geoconv writes, by the names `--parquet-compression` takes.
    package static var writable: [String: ParquetCodec] {
        var codecs: [String: ParquetCodec] = ["none": .uncompressed, "gzip": .gzip]
        #if Zstd
        codecs["zstd"] = .zstd
        #endif
        return codecs
    }

    /// The default: zstd where it is built in, else gzip.
    package static var defaultCodec: ParquetCodec {
        #if Zstd
        .zstd
        #else
        .gzip
        #endif
    }

    package static func compress(_ bytes: [UInt8], _ codec: ParquetCodec) throws(GeoConvError) -> [UInt8] {
        switch codec {
        case .uncompressed: return bytes
        case .gzip: return try gzip(bytes)
        case .zstd:
            #if Zstd
            return try zstdCompress(bytes)
            #else
            throw unavailable(codec)
            #endif
        default: throw unavailable(codec)
        }
    }

    /// `bytes` decompressed to exactly `size` bytes; a located error otherwise.
    package static func decompress(
        _ bytes: UnsafeRawBufferPointer, _ codec: ParquetCodec, size: Int,
        at offset: Int
    ) throws(GeoConvError) -> [UInt8] {
        // A page says how big it is; what no codec reaches (beyond 1024 : 1, or 512 MB) is refused
        // before memory is taken for it, as a zip bomb is.
        guard size >= 0, size <= maximumPageBytes, codec != .uncompressed || size == bytes.count,
            size <= bytes.count * 1024 + (1 << 20)
        else {
            throw GeoConvError(
                .invalidInput, "a page of \(bytes.count) bytes says it holds \(size) bytes (\(codec.name))",
                at: SourceLocation(byteOffset: offset),
                hint: "check that the file is complete; geoconv reads pages of up to 512 MB")
        }
        let result: [UInt8]
        switch codec {
        case .uncompressed: result = Array(bytes)
        case .snappy: result = try Snappy.decompress(bytes, size: size, at: offset)
        case .gzip: result = try gunzip(bytes, size: size, at: offset)
        case .zstd:
            #if Zstd
            result = try zstdDecompress(bytes, size: size, at: offset)
            #else
            throw unavailable(codec)
            #endif
        default: throw unavailable(codec)
        }
        guard result.count == size else {
            throw GeoConvError(
                .invalidInput, "a \(codec.name) page decompresses to \(result.count) bytes; its header says \(size)",
                at: SourceLocation(byteOffset: offset), hint: "check that the file is complete")
        }
        return result
    }

    /// The largest page read, uncompressed.
    package static let maximumPageBytes = 512 << 20

    package static func unavailable(_ codec: ParquetCodec) -> GeoConvError {
        #if Zstd
        let built = "none, gzip, snappy (reading) and zstd"
        #else
        let built = "none, gzip and snappy (reading); zstd needs the Zstd trait"
        #endif
        return GeoConvError(
            .unsupported, "Parquet pages compressed with \(codec.name) cannot be read or written here (\(built))",
            hint: "rewrite the file with another codec, e.g. pyarrow's compression='zstd' or 'snappy'")
    }

    private static func gzip(_ bytes: [UInt8]) throws(GeoConvError) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip wrapper (RFC 1952), as Parquet's GZIP codec has.
        guard
            deflateInit2_(
                &stream, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else {
            throw GeoConvError(.io, "zlib cannot start compressing")
        }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            throw GeoConvError(.io, "zlib failed compressing a page (status \(status))")
        }
        out.removeLast(out.count - Int(stream.total_out))
        return out
    }

    private static func gunzip(
        _ bytes: UnsafeRawBufferPointer, size: Int, at offset: Int
    ) throws(GeoConvError) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 32: gzip or zlib, detected from the header.
        guard inflateInit2_(&stream, 47, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GeoConvError(.io, "zlib cannot start decompressing")
        }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: max(size, 1))
        let status = out.withUnsafeMutableBufferPointer { target in
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = uInt(bytes.count)
            stream.next_out = target.baseAddress
            stream.avail_out = uInt(target.count)
            return inflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END || (status == Z_BUF_ERROR && Int(stream.total_out) == size) else {
            throw GeoConvError(
                .invalidInput, "a gzip page does not decompress (zlib status \(status))",
                at: SourceLocation(byteOffset: offset),
                hint: "check that the file is complete")
        }
        out.removeLast(out.count - Int(stream.total_out))
        return out
    }

    #if Zstd
    /// zstd at level 1, as Arrow writes it by default.
    private static func zstdCompress(_ bytes: [UInt8]) throws(GeoConvError) -> [UInt8] {
        var failed = false
        let out = [UInt8](unsafeUninitializedCapacity: ZSTD_compressBound(bytes.count)) { target, count in
            let written = bytes.withUnsafeBytes { source in
                ZSTD_compress(target.baseAddress, target.count, source.baseAddress, source.count, 1)
            }
            failed = ZSTD_isError(written) != 0
            count = failed ? 0 : written
        }
        guard !failed else { throw GeoConvError(.io, "zstd failed compressing a page") }
        return out
    }

    private static func zstdDecompress(
        _ bytes: UnsafeRawBufferPointer, size: Int, at offset: Int
    ) throws(GeoConvError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        let written = out.withUnsafeMutableBytes { target in
            ZSTD_decompress(target.baseAddress, target.count, bytes.baseAddress, bytes.count)
        }
        guard ZSTD_isError(written) == 0 else {
            throw GeoConvError(
                .invalidInput, "a zstd page does not decompress: \(String(cString: ZSTD_getErrorName(written)))",
                at: SourceLocation(byteOffset: offset), hint: "check that the file is complete")
        }
        out.removeLast(out.count - written)
        return out
    }
    #endif
}

/// Snappy decompression, from Google's format description (snappy `format_description.txt`):
/// the uncompressed length as a varint, then elements whose tag's low two bits say a
/// literal (length in the tag or in 1–4 following bytes) or a copy of earlier output with
/// a 1-, 2- or 4-byte offset (copies may overlap what they write).
package enum Snappy {
    /// Decompresses `bytes`, which must say they hold `size` bytes.
    package static func decompress(
        _ bytes: UnsafeRawBufferPointer, size: Int, at base: Int
    )
        throws(GeoConvError) -> [UInt8]
    {
        var offset = 0
        func fail(_ what: String) -> GeoConvError {
            GeoConvError(
                .invalidInput, "a snappy page is damaged: \(what)", at: SourceLocation(byteOffset: base + offset),
                hint: "check that the file is complete")
        }
        var length: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 35 else { throw fail("its length does not end") }
            let b = bytes[offset]
            offset += 1
            length |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { break }
            shift += 7
        }
        guard length == UInt64(size) else { throw fail("it says it holds \(length) bytes; its page says \(size)") }
        var out: [UInt8] = []
        out.reserveCapacity(Int(length))
        while offset < bytes.count {
            let tag = bytes[offset]
            offset += 1
            switch tag & 3 {
            case 0:
                var literal = Int(tag >> 2)
                if literal >= 60 {
                    let extra = literal - 59
                    guard offset + extra <= bytes.count else { throw fail("a literal's length ends early") }
                    literal = 0
                    for k in 0..<extra { literal |= Int(bytes[offset + k]) << (8 * k) }
                    offset += extra
                }
                literal += 1
                guard offset + literal <= bytes.count, out.count + literal <= Int(length) else {
                    throw fail("a literal runs past the end")
                }
                out.append(contentsOf: bytes[offset..<(offset + literal)])
                offset += literal
            default:
                let count: Int
                let distance: Int
                switch tag & 3 {
                case 1:
                    guard offset < bytes.count else { throw fail("a copy ends early") }
                    count = 4 + Int((tag >> 2) & 7)
                    distance = Int(tag >> 5) << 8 | Int(bytes[offset])
                    offset += 1
                case 2:
                    guard offset + 2 <= bytes.count else { throw fail("a copy ends early") }
                    count = Int(tag >> 2) + 1
                    distance = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
                    offset += 2
                default:
                    guard offset + 4 <= bytes.count else { throw fail("a copy ends early") }
                    count = Int(tag >> 2) + 1
                    distance =
                        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(
                            bytes[offset + 3]) << 24
                    offset += 4
                }
                guard distance > 0, distance <= out.count, out.count + count <= Int(length) else {
                    throw fail("a copy reaches outside the output")
                }
                let start = out.count - distance
                for k in 0..<count { out.append(out[start + k]) }
            }
        }
        guard out.count == Int(length) else { throw fail("it holds \(out.count) bytes, not the \(length) it says") }
        return out
    }
}
