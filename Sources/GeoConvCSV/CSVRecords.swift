import GeoConvCore
import GeoConvIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One record's fields: their bytes (quotes removed, doubled quotes made one) end to end,
/// and where each field starts in the input. Lines and columns are worked out when a place
/// is asked for (a message, the conservation check), not kept per field.
struct CSVRecord {
    /// A field: the end of its bytes in `bytes`, its input offset, whether it was quoted.
    struct Field {
        var end: Int
        var offset: Int
        var quoted: Bool
    }

    /// Every field's bytes, one after the other.
    var bytes: [UInt8] = []
    /// The fields, in order.
    var fields: [Field] = []
    /// The line the record starts on (1-based) and the input offset where that line starts.
    var firstLine = 1, firstLineStart = 0
    /// The input offsets where the record's further lines start (after line breaks inside
    /// quoted fields).
    var lineStarts: [Int] = []
    /// Where the record ends (before its line break).
    var endOffset = 0
    /// Where a field went on after its closing quote (`"ab"c`), read as text; the first place.
    var textAfterQuote: Int?

    /// The number of fields.
    var count: Int { fields.count }

    /// The bytes of field `index`.
    func range(_ index: Int) -> Range<Int> { (index == 0 ? 0 : fields[index - 1].end)..<fields[index].end }

    /// Whether field `index` was quoted.
    func isQuoted(_ index: Int) -> Bool { fields[index].quoted }

    /// The line (1-based) and column (1-based, in bytes) of an input offset in the record.
    func place(ofOffset offset: Int) -> (line: Int, column: Int) {
        var line = firstLine
        var start = firstLineStart
        for lineStart in lineStarts where lineStart <= offset {
            line += 1
            start = lineStart
        }
        return (line, offset - start + 1)
    }

    /// The line and column where field `index` starts.
    func place(_ index: Int) -> (line: Int, column: Int) { place(ofOffset: fields[index].offset) }

    /// Where field `index` starts.
    func location(_ index: Int, file: String) -> SourceLocation {
        let offset = fields[index].offset
        let (line, column) = place(ofOffset: offset)
        return SourceLocation(file: file, line: line, column: column, byteOffset: offset)
    }

    /// Where the record starts.
    func start(file: String) -> SourceLocation { location(0, file: file) }

    /// Where the record ends.
    func end(file: String) -> SourceLocation {
        let (line, column) = place(ofOffset: endOffset)
        return SourceLocation(file: file, line: line, column: column, byteOffset: endOffset)
    }

    /// The field's text (bytes that are not UTF-8 replaced by U+FFFD), and whether any was.
    func text(_ index: Int) -> (String, valid: Bool) {
        bytes.withUnsafeBufferPointer { buffer in
            let field = UnsafeBufferPointer(rebasing: buffer[range(index)])
            if let text = Self.validText(field) { return (text, true) }
            return (String(decoding: field, as: UTF8.self), false)
        }
    }

    /// The field's text when it is UTF-8. ASCII (most fields) is made without the generic
    /// validating initializer, which looks up its encoding's metadata on every call.
    static func validText(_ field: UnsafeBufferPointer<UInt8>) -> String? {
        var ascii = true
        for byte in field where byte >= 0x80 {
            ascii = false
            break
        }
        return ascii ? String(decoding: field, as: UTF8.self) : String(validating: field, as: UTF8.self)
    }

    /// Adds empty fields at the record's end until it has `count`.
    /// Drops the last field when it is empty (a trailing delimiter).
    mutating func dropEmptyLastField() {
        guard let last = fields.last else { return }
        let start = fields.count > 1 ? fields[fields.count - 2].end : 0
        if last.end == start, !last.quoted { fields.removeLast() }
    }

    mutating func padToCount(_ count: Int) {
        while fields.count < count {
            fields.append(Field(end: bytes.count, offset: endOffset, quoted: false))
        }
    }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        if !lineStarts.isEmpty { lineStarts.removeAll(keepingCapacity: true) }
        textAfterQuote = nil
    }
}

/// Reads RFC 4180 records from bytes: fields separated by the delimiter, records by LF or
/// CRLF (or a lone CR, when the first line ends so), quoted fields holding delimiters, doubled quotes and line breaks; a UTF-8 byte
/// order mark is skipped (columns count from after it). Empty lines are skipped. Lenient
/// where RFC 4180 is strict, as GDAL is: a quote inside an unquoted field is text, and
/// text after a closing quote is kept (and reported by the reader).
final class CSVRecordReader {
    private let input: ByteReader
    /// The input's name for messages.
    let name: String
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var position = 0
    private var end = 0
    private var atEnd = false
    /// The input offset of `storage[0]`.
    private var consumed = 0
    /// The current line (1-based) and the input offset where it starts.
    private var line = 1
    private var lineStart = 0
    /// The field delimiter.
    private(set) var delimiter: UInt8
    /// The largest record accepted, in bytes.
    let maximumRecordBytes: Int

    /// Creates a reader; without a delimiter, the one that occurs most in the header line
    /// (outside quotes) is used.
    init(_ input: ByteReader, delimiter: UInt8?, maximumRecordBytes: Int = 256 << 20) throws(GeoConvError) {
        self.input = input
        name = input.name
        capacity = 1 << 16
        storage = .allocate(capacity: capacity)
        self.delimiter = delimiter ?? UInt8(ascii: ",")
        self.maximumRecordBytes = maximumRecordBytes
        while end < 3, !atEnd { try fill() }
        if input.startsInput, end >= 2,
            storage[0] == 0xFF && storage[1] == 0xFE || storage[0] == 0xFE && storage[1] == 0xFF
        {
            let order = storage[0] == 0xFF ? "UTF-16LE" : "UTF-16BE"
            throw GeoConvError(
                .unsupported, "the file is \(order) text (its byte order mark says so); geoconv reads CSV in UTF-8",
                at: SourceLocation(file: name, line: 1, column: 1, byteOffset: 0),
                hint: "convert it first: iconv -f UTF-16 -t UTF-8 '\(name)' > utf8.csv")
        }
        if input.startsInput, end >= 3, storage[0] == 0xEF, storage[1] == 0xBB, storage[2] == 0xBF {
            position = 3
            lineStart = 3
        }
        if input.startsInput { try detectCROnlyLines() }
        if delimiter == nil { self.delimiter = try sniffDelimiter() }
    }

    /// Whether lines end with a lone CR (old Mac OS files: USGS GNIS, exports of that era);
    /// every CR is then read as LF.
    private(set) var readsCROnlyLines = false

    /// Looks at the first line break outside quotes: a CR not followed by LF means the file's
    /// lines end with CR alone, as GDAL reads them too. From then on every CR read is taken as
    /// LF (inside a quoted field as well: its line breaks are the file's).
    private func detectCROnlyLines() throws(GeoConvError) {
        var index = position
        var quoted = false
        while true {
            while index < end {
                let byte = storage[index]
                if byte == UInt8(ascii: "\"") {
                    quoted.toggle()
                } else if !quoted, byte == 0x0A {
                    return
                } else if !quoted, byte == 0x0D {
                    if index + 1 >= end, !atEnd { break }  // read on: is LF next?
                    guard index + 1 < end, storage[index + 1] != 0x0A else { return }
                    readsCROnlyLines = true
                    translateCR(from: position)
                    return
                }
                index += 1
            }
            if atEnd || index - position >= 16 << 20 { return }
            let offset = index - position
            try fill()
            index = position + offset
        }
    }

    /// Turns each CR of the buffer from `start` on into LF.
    private func translateCR(from start: Int) {
        for i in start..<end where storage[i] == 0x0D { storage[i] = 0x0A }
    }

    deinit { storage.deallocate() }

    /// Reads until the buffer holds the first line (its line break outside quotes), then
    /// picks the delimiter from it.
    private func sniffDelimiter() throws(GeoConvError) -> UInt8 {
        var scanned = 0
        var quoted = false
        while true {
            while position + scanned < end {
                let byte = storage[position + scanned]
                if byte == UInt8(ascii: "\"") { quoted.toggle() } else if byte == 0x0A, !quoted { break }
                scanned += 1
            }
            if position + scanned < end || atEnd || scanned >= 16 << 20 { break }
            try fill()
        }
        return CSVDelimiterSniffing.delimiter(ofHeader: UnsafeBufferPointer(start: storage + position, count: scanned))
    }

    /// Reads more input after what the buffer holds (unread bytes moved to its start),
    /// growing it when full.
    private func fill() throws(GeoConvError) {
        if position > 0 {
            let live = end - position
            if live > 0 { storage.update(from: storage + position, count: live) }
            consumed += position
            end = live
            position = 0
        }
        if end == capacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.update(from: storage, count: end)
            storage.deallocate()
            storage = grown
            capacity *= 2
        }
        let n = try input.read(into: UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end))
        if n == 0 { atEnd = true }
        end += n
        if readsCROnlyLines { translateCR(from: end - n) }
    }

    /// The next byte without taking it; `nil` at the end of the input.
    @inline(__always)
    private func peek() throws(GeoConvError) -> UInt8? {
        if position < end { return storage[position] }
        if atEnd { return nil }
        try fill()
        return position < end ? storage[position] : nil
    }

    private var offset: Int { consumed + position }

    private func newLine() {
        line += 1
        lineStart = offset
    }

    /// Whole records from here, at least `size` bytes of them (fewer at the end of the
    /// input): their length and count, found by the grammar `next(into:)` reads with — a
    /// line break ends a record only outside a quoted field — so a record that spans lines
    /// is never cut. `nil` when no record is left, or when the input ends inside a quoted
    /// field (left to `next(into:)`, which reports it).
    func scanRun(size: Int) throws(GeoConvError) -> (length: Int, records: Int)? {
        while true {
            while end - position < size, !atEnd { try fill() }
            var i = position
            var fieldStart = true
            var inQuote = false
            var cut = 0
            var records = 0
            let delimiter = self.delimiter
            scanning: while i < end {
                let byte = storage[i]
                if inQuote {
                    if byte == UInt8(ascii: "\"") {
                        if i + 1 >= end {
                            // A doubled quote or a closing one: more bytes decide, and at the end of
                            // the input there are none, so it closes the field (the last record,
                            // without a line break after it).
                            guard atEnd else { break scanning }
                            inQuote = false
                            i += 1
                            continue
                        }
                        if storage[i + 1] == UInt8(ascii: "\"") {
                            i += 2
                            continue
                        }
                        inQuote = false
                    }
                    i += 1
                    continue
                }
                if byte == UInt8(ascii: "\""), fieldStart {
                    inQuote = true
                } else if byte == 0x0A {
                    records += 1
                    cut = i + 1 - position
                    if cut >= size { break scanning }
                    fieldStart = true
                    i += 1
                    continue
                }
                fieldStart = byte == delimiter
                i += 1
            }
            if atEnd, i >= end, !inQuote, end > position + cut {
                // The last record, without a line break after it.
                return (end - position, records + 1)
            }
            if cut >= size || (atEnd && cut > 0) { return (cut, records) }
            if atEnd { return nil }
            try fill()  // a record longer than the buffer: read on
            if end - position >= maximumRecordBytes { return nil }
        }
    }

    /// Takes the records `scanRun(size:)` finds: their bytes and where they start.
    func takeRun(size: Int) throws(GeoConvError) -> (bytes: [UInt8], line: Int, offset: Int, records: Int)? {
        guard let (length, records) = try scanRun(size: size) else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: storage + position, count: length))
        let startLine = line
        let startOffset = offset
        for index in 0..<length where bytes[index] == 0x0A {
            line += 1
            lineStart = startOffset + index + 1
        }
        position += length
        return (bytes, startLine, startOffset, records)
    }

    /// Reads the next record into `record`; `false` at the end of the input.
    func next(into record: inout CSVRecord) throws(GeoConvError) -> Bool {
        record.reset()
        // Empty lines are skipped.
        while let byte = try peek(), byte == 0x0A || byte == 0x0D {
            position += 1
            if byte == 0x0A { newLine() }
        }
        guard try peek() != nil else { return false }
        record.firstLine = line
        record.firstLineStart = lineStart
        while true {
            let fieldOffset = offset
            let quoted = try peek() == UInt8(ascii: "\"")
            if quoted { try quotedField(into: &record) }
            try unquotedText(into: &record)
            record.fields.append(CSVRecord.Field(end: record.bytes.count, offset: fieldOffset, quoted: quoted))
            guard record.bytes.count <= maximumRecordBytes else {
                throw GeoConvError(
                    .limitExceeded, "a record is longer than \(maximumRecordBytes) bytes", at: record.start(file: name),
                    hint: "is a quote left open? A quoted field runs to its closing quote, across lines")
            }
            record.endOffset = offset
            guard let byte = try peek() else { return true }
            position += 1
            if byte == delimiter { continue }
            if byte == 0x0D, try peek() == 0x0A { position += 1 }
            newLine()
            return true
        }
    }

    /// A quoted field's content, from its opening quote through its closing one.
    private func quotedField(into record: inout CSVRecord) throws(GeoConvError) {
        let (openingLine, openingColumn, openingOffset) = (line, offset - lineStart + 1, offset)
        var opening: SourceLocation {
            SourceLocation(file: name, line: openingLine, column: openingColumn, byteOffset: openingOffset)
        }
        position += 1
        while true {
            guard let byte = try peek() else {
                throw GeoConvError(
                    .invalidInput, "a quoted field is not closed before the end of the input", at: opening,
                    hint: "close the field with \" (a quote inside a quoted field is written twice: \"\")")
            }
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard try peek() == UInt8(ascii: "\"") else { break }
                record.bytes.append(byte)
                position += 1
                continue
            }
            if byte == 0x0A {
                record.bytes.append(byte)
                position += 1
                newLine()
                record.lineStarts.append(lineStart)
                continue
            }
            var index = position
            while index < end, storage[index] != UInt8(ascii: "\""), storage[index] != 0x0A { index += 1 }
            record.bytes.append(contentsOf: UnsafeBufferPointer(start: storage + position, count: index - position))
            position = index
            if record.bytes.count > maximumRecordBytes {
                throw GeoConvError(
                    .limitExceeded, "a quoted field is longer than \(maximumRecordBytes) bytes", at: opening,
                    hint: "is a quote left open? A quoted field runs to its closing quote, across lines")
            }
        }
        if let byte = try peek(), byte != delimiter, byte != 0x0A, byte != 0x0D, record.textAfterQuote == nil {
            record.textAfterQuote = record.count
        }
    }

    /// Text up to the next delimiter or line break (a lone CR is text).
    private func unquotedText(into record: inout CSVRecord) throws(GeoConvError) {
        while true {
            var index = position
            let delimiter = self.delimiter
            while index < end {
                let byte = storage[index]
                if byte == delimiter || byte == 0x0A || byte == 0x0D { break }
                index += 1
            }
            record.bytes.append(contentsOf: UnsafeBufferPointer(start: storage + position, count: index - position))
            position = index
            if record.bytes.count > maximumRecordBytes { return }
            guard let byte = try peek() else { return }
            if byte == delimiter || byte == 0x0A { return }
            if byte == 0x0D {
                // CR LF (or a CR ending the input) ends the record; a CR alone is text.
                if end - position < 2, !atEnd { try fill() }
                if position + 1 >= end || storage[position + 1] == 0x0A { return }
                record.bytes.append(0x0D)
                position += 1
                continue
            }
        }
    }
}
