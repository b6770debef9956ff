import GeoConvBytes
package import GeoConvCore

/// A leaf column's values for one row group, as they are encoded: which rows have a value
/// (for an optional column) and the values of those rows.
package enum LeafValues {
    case int64([Int64])
    case double([Double])
    case boolean([Bool])
    /// Byte arrays end to end, and where each ends.
    case bytes([UInt8], ends: [Int])

    package var parquetType: ParquetType {
        switch self {
        case .int64: .int64
        case .double: .double
        case .boolean: .boolean
        case .bytes: .byteArray
        }
    }

    package var count: Int {
        switch self {
        case .int64(let v): v.count
        case .double(let v): v.count
        case .boolean(let v): v.count
        case .bytes(_, let ends): ends.count
        }
    }
}

/// Writes column chunks: an optional dictionary page, then data pages (v1) of about
/// `pageBytes` of values each, every page compressed with the file's codec.
package struct ParquetChunkWriter {
    /// Every stored property, as the memberwise initializer takes them (package-wide).
    package init(codec: ParquetCodec) {
        self.codec = codec
    }

    package let codec: ParquetCodec
    /// Values per data page, about (a page is cut at the first row past it).
    package var pageBytes = 1 << 20
    /// A text column is dictionary-encoded while its dictionary stays under this and it has
    /// fewer distinct values than half its values.
    package var dictionaryBytes = 1 << 20

    /// Writes one chunk through `emit` (bytes at `offset`, the file position of the first
    /// byte), returning its metadata. `present` is `nil` for a required column.
    package func write(
        path: [String], values: LeafValues, present: [Bool]?, statistics wantsStatistics: Bool,
        dictionary: Bool = true, offset: Int64,
        emit: ([UInt8]) throws(GeoConvError) -> Void
    ) throws(GeoConvError) -> ParquetColumnMetadata {
        let rows = present?.count ?? values.count
        var position = offset
        var uncompressedTotal: Int64 = 0
        var compressedTotal: Int64 = 0
        var dictionaryOffset: Int64?
        var encodings: [ParquetEncoding] = [.plain, .rle]
        func page(_ header: ParquetPageHeader, _ body: [UInt8]) throws(GeoConvError) {
            var header = header
            let compressed = try ParquetCompression.compress(body, codec)
            header.uncompressedSize = Int32(clamping: body.count)
            header.compressedSize = Int32(clamping: compressed.count)
            let headerBytes = header.encoded()
            try emit(headerBytes)
            try emit(compressed)
            uncompressedTotal += Int64(headerBytes.count + body.count)
            compressedTotal += Int64(headerBytes.count + compressed.count)
            position += Int64(headerBytes.count + compressed.count)
        }
        // A dictionary for text that repeats.
        var indices: [UInt32]?
        var dictionaryCount = 0
        if dictionary, case .bytes(let bytes, let ends) = values, ends.count >= 16 {
            var entries: [ArraySlice<UInt8>: UInt32] = [:]
            var plain: [UInt8] = []
            var list: [UInt32] = []
            list.reserveCapacity(ends.count)
            var start = 0
            var fits = true
            for end in ends {
                let value = bytes[start..<end]
                if let index = entries[value] {
                    list.append(index)
                } else {
                    let index = UInt32(entries.count)
                    entries[value] = index
                    list.append(index)
                    Self.appendLength(value.count, to: &plain)
                    plain.append(contentsOf: value)
                }
                start = end
                // Too big, or too many distinct values (told early from the first 4096).
                if plain.count > dictionaryBytes || entries.count > ends.count / 2
                    || (list.count == 4096 && entries.count > 3072)
                {
                    fits = false
                    break
                }
            }
            if fits {
                indices = list
                dictionaryCount = entries.count
                dictionaryOffset = position
                encodings = [.plain, .rle, .rleDictionary]
                try page(
                    ParquetPageHeader(
                        type: .dictionaryPage, uncompressedSize: 0, compressedSize: 0, valueCount: Int32(entries.count)),
                    plain)
            }
        }
        let dataOffset = position
        // Data pages: rows [first, row), values [firstValue, value).
        var row = 0
        var value = 0
        let width = ParquetHybrid.width(forMaximum: max(dictionaryCount - 1, 0))
        while row < rows {
            let firstRow = row
            let firstValue = value
            var bytesInPage = 0
            while row < rows, bytesInPage < pageBytes {
                if present?[row] ?? true {
                    bytesInPage += Self.size(of: values, at: value, dictionary: indices != nil)
                    value += 1
                }
                row += 1
            }
            var body: [UInt8] = []
            if let present {
                var levels: [UInt8] = []
                Self.encodeLevels(present[firstRow..<row], to: &levels)
                Self.appendUInt32(UInt32(levels.count), to: &body)
                body.append(contentsOf: levels)
            }
            var header = ParquetPageHeader(
                type: .dataPage, uncompressedSize: 0, compressedSize: 0, valueCount: Int32(row - firstRow))
            if let indices {
                header.encoding = .rleDictionary
                body.append(UInt8(width))
                ParquetHybrid.encode(Array(indices[firstValue..<value]), width: width, to: &body)
            } else {
                header.encoding = .plain
                Self.appendPlain(values, firstValue..<value, to: &body)
            }
            try page(header, body)
        }
        var metadata = ParquetColumnMetadata(
            type: values.parquetType, encodings: encodings, path: path, codec: codec, valueCount: Int64(rows),
            uncompressedSize: uncompressedTotal, compressedSize: compressedTotal, dataPageOffset: dataOffset,
            dictionaryPageOffset: dictionaryOffset)
        if wantsStatistics {
            var statistics = ParquetStatistics(nullCount: Int64(rows - values.count))
            (statistics.minValue, statistics.maxValue) = Self.bounds(of: values)
            metadata.statistics = statistics
        }
        return metadata
    }

    /// Definition levels (0 null, 1 value) as the hybrid's runs.
    package static func encodeLevels(_ present: ArraySlice<Bool>, to out: inout [UInt8]) {
        var i = present.startIndex
        var literal: [UInt32] = []
        while i < present.endIndex {
            var run = 1
            while i + run < present.endIndex, present[i + run] == present[i] { run += 1 }
            if run >= 8, literal.count % 8 == 0 {
                ParquetHybrid.encode(literal, width: 1, to: &out)
                literal.removeAll(keepingCapacity: true)
                ParquetHybrid.encodeRun(present[i] ? 1 : 0, count: run, width: 1, to: &out)
                i += run
            } else {
                literal.append(present[i] ? 1 : 0)
                i += 1
            }
        }
        ParquetHybrid.encode(literal, width: 1, to: &out)
    }

    package static func size(of values: LeafValues, at index: Int, dictionary: Bool) -> Int {
        switch values {
        case .int64, .double: 8
        case .boolean: 1
        case .bytes(_, let ends): dictionary ? 2 : 4 + ends[index] - (index == 0 ? 0 : ends[index - 1])
        }
    }

    package static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        ByteEncoding.appendUInt32(value, to: &out)
    }

    package static func appendLength(
        _ value: Int,
        to out: inout [UInt8]
    ) { ByteEncoding.appendUInt32(UInt32(truncatingIfNeeded: value), to: &out) }

    package static func appendUInt64(_ value: UInt64, to out: inout [UInt8]) {
        ByteEncoding.appendUInt64(value, to: &out)
    }

    /// PLAIN: little-endian numbers, booleans one bit each (least significant first), byte
    /// arrays as a 4-byte length and their bytes.
    package static func appendPlain(_ values: LeafValues, _ range: Range<Int>, to out: inout [UInt8]) {
        switch values {
        #if _endian(little)
        // Laid out in memory as PLAIN lays them out: copied at once.
        case .int64(let v): v[range].withUnsafeBytes { out.append(contentsOf: $0) }
        case .double(let v): v[range].withUnsafeBytes { out.append(contentsOf: $0) }
        #else
        case .int64(let v): for i in range { appendUInt64(UInt64(bitPattern: v[i]), to: &out) }
        case .double(let v): for i in range { appendUInt64(v[i].bitPattern, to: &out) }
        #endif
        case .boolean(let v):
            var byte: UInt8 = 0
            var bit = 0
            for i in range {
                if v[i] { byte |= 1 << UInt8(bit) }
                bit += 1
                if bit == 8 {
                    out.append(byte)
                    byte = 0
                    bit = 0
                }
            }
            if bit > 0 { out.append(byte) }
        case .bytes(let bytes, let ends):
            for i in range {
                let start = i == 0 ? 0 : ends[i - 1]
                appendLength(ends[i] - start, to: &out)
                out.append(contentsOf: bytes[start..<ends[i]])
            }
        }
    }

    /// The chunk's minimum and maximum, PLAIN-encoded (text without its length), for the
    /// columns whose order readers compare by: numbers and UTF-8 text.
    package static func bounds(of values: LeafValues) -> ([UInt8]?, [UInt8]?) {
        var low: [UInt8] = []
        var high: [UInt8] = []
        switch values {
        case .int64(let v):
            guard let min = v.min(), let max = v.max() else { return (nil, nil) }
            appendUInt64(UInt64(bitPattern: min), to: &low)
            appendUInt64(UInt64(bitPattern: max), to: &high)
        case .double(let v):
            guard let min = v.min(), let max = v.max() else { return (nil, nil) }
            // −0 and +0 compare equal; the specification asks for −0 as a minimum and +0 as a maximum.
            appendUInt64((min == 0 ? -0.0 : min).bitPattern, to: &low)
            appendUInt64((max == 0 ? 0.0 : max).bitPattern, to: &high)
        case .boolean: return (nil, nil)
        case .bytes(let bytes, let ends):
            guard !ends.isEmpty else { return (nil, nil) }
            var minRange = 0..<ends[0]
            var maxRange = 0..<ends[0]
            var start = 0
            for end in ends {
                let value = bytes[start..<end]
                if value.lexicographicallyPrecedes(bytes[minRange]) { minRange = start..<end }
                if bytes[maxRange].lexicographicallyPrecedes(value) { maxRange = start..<end }
                start = end
            }
            // Long values make no useful bounds (and large footers): left out, as writers may.
            guard minRange.count <= 64, maxRange.count <= 64 else { return (nil, nil) }
            low = Array(bytes[minRange])
            high = Array(bytes[maxRange])
        }
        return (low, high)
    }
}
