#if Shapefile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GeoConvCore
import GeoConvIO

/// A file written front to back through a 1 MB buffer, whose header may be written last
/// (`close(header:)`): one `write` per megabyte and no seek, where shapelib's writer seeks,
/// reads and writes for every record. Into a file of its own, or into the conversion's
/// output when that is a file whose start can be rewritten (the main `.shp`: not written
/// twice).
struct BufferedFile {
    /// The file's own handle, or the output (`init(into:)`): one of them.
    private var handle: FileHandleBox?
    private let output: ByteWriter?
    private var buffer: [UInt8] = []
    /// Bytes written so far, buffered ones included.
    private(set) var count = 0

    init(creating path: String) throws(GeoConvError) {
        handle = try FileHandleBox(creating: path, permissions: 0o666)
        output = nil
        buffer.reserveCapacity(1 << 20)
    }

    /// Writes into `output`, which must rewrite its start (`ByteWriter.rewritesPrefix`) and
    /// have nothing written yet.
    init(into output: ByteWriter) {
        precondition(output.rewritesPrefix && output.bytesWritten == 0, "the .shp's header goes at the output's start")
        self.output = output
        buffer.reserveCapacity(1 << 20)
    }

    mutating func append(_ byte: UInt8) {
        buffer.append(byte)
        count += 1
    }

    mutating func append(repeating byte: UInt8, count n: Int) {
        buffer.append(contentsOf: repeatElement(byte, count: n))
        count += n
    }

    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        count += bytes.count
    }

    mutating func appendBigEndian(_ value: Int32) {
        withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    mutating func appendLittleEndian(_ value: Int32) {
        withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func appendLittleEndian(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { append(contentsOf: $0) }
    }

    /// Writes the buffer out once it holds a megabyte.
    mutating func flushIfFull() throws(GeoConvError) {
        if buffer.count >= 1 << 20 { try flush() }
    }

    mutating func flush() throws(GeoConvError) {
        guard !buffer.isEmpty else { return }
        try output?.write(buffer)
        try handle?.writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Closes the file without writing what is buffered (a conversion that failed; the
    /// output is abandoned by its owner).
    mutating func abandon() {
        handle?.closeFile()
    }

    /// Flushes, writes `header` over the file's first bytes, and closes it (the output is
    /// committed by its owner).
    mutating func close(header: [UInt8] = []) throws(GeoConvError) {
        try flush()
        if !header.isEmpty {
            try output?.overwritePrefix(header)
            try handle?.writeAll(header, at: 0)
        }
        handle?.closeFile()
    }
}
#endif

#if Shapefile
/// A dBase III file written front to back (the record count is known before the first
/// record): the header and field descriptors, then each record as a deletion flag and its
/// fields at their widths, then the end-of-file mark. The bytes shapelib's `DBFCreate` would
/// write, with its fixed date (1995-07-26: an output does not change with the day it is made).
struct DBFFileWriter {
    struct Field {
        var name: String
        var type: UInt8
        var width: Int
        var decimals: Int
    }

    private var file: BufferedFile
    let fields: [Field]

    /// The bytes of a header with `fields` (32 + 32 per field + 1).
    static func headerLength(fields: Int) -> Int { 32 + 32 * fields + 1 }

    /// The bytes of a record with `fields` (the deletion flag and the fields' widths).
    static func recordLength(_ fields: [Field]) -> Int { 1 + fields.reduce(0) { $0 + $1.width } }

    init(path: String, fields: [Field], records: Int) throws(GeoConvError) {
        file = try BufferedFile(creating: path)
        self.fields = fields
        var header = [UInt8](repeating: 0, count: Self.headerLength(fields: fields.count))
        header[0] = 0x03
        header[1] = 95
        header[2] = 7
        header[3] = 26
        let count = UInt32(truncatingIfNeeded: records)
        let length = UInt16(truncatingIfNeeded: header.count)
        withUnsafeBytes(of: count.littleEndian) { header.replaceSubrange(4..<8, with: $0) }
        withUnsafeBytes(of: length.littleEndian) { header.replaceSubrange(8..<10, with: $0) }
        let recordBytes = UInt16(truncatingIfNeeded: Self.recordLength(fields))
        withUnsafeBytes(of: recordBytes.littleEndian) { header.replaceSubrange(10..<12, with: $0) }
        for (index, field) in fields.enumerated() {
            let at = 32 + 32 * index
            for (offset, byte) in field.name.utf8.prefix(10).enumerated() { header[at + offset] = byte }
            header[at + 11] = field.type
            header[at + 16] = UInt8(truncatingIfNeeded: field.width)
            header[at + 17] = UInt8(truncatingIfNeeded: field.decimals)
        }
        header[header.count - 1] = 0x0D
        header.withUnsafeBytes { file.append(contentsOf: $0) }
    }

    /// Starts a record (not deleted).
    mutating func beginRecord() throws(GeoConvError) {
        try file.flushIfFull()
        file.append(0x20)
    }

    /// `text`'s bytes in a field of `width`: cut to it, or padded with spaces on the right
    /// (left-aligned: text) or on the left (right-aligned: numbers).
    mutating func appendField(_ text: String, width: Int, rightAligned: Bool = false) {
        var text = text
        text.withUTF8 { bytes in
            let used = min(bytes.count, width)
            if rightAligned { file.append(repeating: 0x20, count: width - used) }
            file.append(contentsOf: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<used]))
            if !rightAligned { file.append(repeating: 0x20, count: width - used) }
        }
    }

    /// A field without a value: `*`s in a number field, spaces in a text field (shapelib's
    /// and GDAL's null).
    mutating func appendNull(type: UInt8, width: Int) {
        let isNumber = type == UInt8(ascii: "N") || type == UInt8(ascii: "F")
        file.append(repeating: isNumber ? UInt8(ascii: "*") : 0x20, count: width)
    }

    mutating func close() throws(GeoConvError) {
        file.append(0x1A)
        try file.close()
    }
}
#endif
