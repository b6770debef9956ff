package import GeoConvCore

/// A column chunk's values, decoded: which rows have a value, and the values in order.
package struct DecodedColumn {
    package enum Values {
        case integers([Int64])
        case reals([Double])
        case flags([Bool])
        /// Byte arrays (and fixed-length ones, and INT96) end to end, and where each ends.
        case bytes([UInt8], ends: [Int])
    }

    package var present: [Bool] = []
    package var values: Values
    /// A repeated column's levels, an entry each (`present` has an entry each too): where
    /// each row starts (repetition 0) and how far each entry is defined.
    package var repetitionLevels: [UInt8] = []
    package var definitionLevels: [UInt8] = []
}

/// Decodes column chunks: dictionary pages, data pages v1 and v2, PLAIN and dictionary
/// (RLE_DICTIONARY, PLAIN_DICTIONARY) values, RLE booleans, compressed or not.
package struct ParquetColumnReading {
    /// Every stored property, as the memberwise initializer takes them (package-wide).
    package init(file: ParquetFile, leaf: ParquetLeaf) {
        self.file = file
        self.leaf = leaf
    }

    package let file: ParquetFile
    package let leaf: ParquetLeaf

    package func failure(_ what: String, at offset: Int) -> GeoConvError {
        GeoConvError(
            .invalidInput, "the column \"\(leaf.dottedName)\" is damaged: \(what)",
            at: SourceLocation(file: file.name, byteOffset: offset),
            hint: "check that the file is complete")
    }

    package func read(_ chunk: ParquetColumnMetadata, rows: Int) throws(GeoConvError) -> DecodedColumn {
        let type = leaf.element.type ?? .byteArray
        var start = Int(chunk.dataPageOffset)
        if let dictionary = chunk.dictionaryPageOffset, dictionary > 0, dictionary < chunk.dataPageOffset {
            start = Int(dictionary)
        }
        let bytes = try file.read(start, Int(clamping: chunk.compressedSize))
        var column = DecodedColumn(values: Self.empty(type))
        var dictionary: DecodedColumn.Values?
        var offset = 0
        var levels: [UInt32] = []
        var repetitions: [UInt32] = []
        var valuesRead = 0
        while valuesRead < Int(chunk.valueCount), offset < bytes.count {
            let (header, headerLength) = try bytes.withBytes { buffer throws(GeoConvError) in
                try ParquetPageHeader.decode(UnsafeRawBufferPointer(rebasing: buffer[offset...]), at: start + offset)
            }
            let pageStart = offset + headerLength
            let pageEnd = pageStart + Int(header.compressedSize)
            guard pageEnd <= bytes.count else { throw failure("a page runs past its chunk", at: start + offset) }
            let at = start + pageStart
            switch header.type {
            case .dictionaryPage:
                let page = try bytes.withBytes { buffer throws(GeoConvError) in
                    try ParquetCompression.decompress(
                        UnsafeRawBufferPointer(rebasing: buffer[pageStart..<pageEnd]), chunk.codec,
                        size: Int(header.uncompressedSize), at: at)
                }
                var values = Self.empty(type)
                var cursor = 0
                try plain(page, &cursor, count: Int(header.valueCount), into: &values, at: at)
                dictionary = values
            case .dataPage, .dataPageV2:
                let page: [UInt8]
                // (v2 gives the levels apart, before the values; v1 has them in the page.)
                var repetitionBytes: ArraySlice<UInt8>?
                var definitionBytes: ArraySlice<UInt8>?
                if header.type == .dataPageV2 {
                    let levelsLength = Int(header.repetitionLevelsLength) + Int(header.definitionLevelsLength)
                    guard levelsLength <= pageEnd - pageStart, header.repetitionLevelsLength >= 0,
                        header.definitionLevelsLength >= 0
                    else {
                        throw failure("a page's levels run past it", at: at)
                    }
                    let definitionStart = pageStart + Int(header.repetitionLevelsLength)
                    repetitionBytes = bytes[pageStart..<definitionStart]
                    definitionBytes = bytes[definitionStart..<(pageStart + levelsLength)]
                    let valuesStart = pageStart + levelsLength
                    if header.valuesCompressed {
                        page = try bytes.withBytes { buffer throws(GeoConvError) in
                            try ParquetCompression.decompress(
                                UnsafeRawBufferPointer(rebasing: buffer[valuesStart..<pageEnd]), chunk.codec,
                                size: Int(header.uncompressedSize) - levelsLength, at: start + valuesStart)
                        }
                    } else {
                        page = Array(bytes[valuesStart..<pageEnd])
                    }
                } else {
                    page = try bytes.withBytes { buffer throws(GeoConvError) in
                        try ParquetCompression.decompress(
                            UnsafeRawBufferPointer(rebasing: buffer[pageStart..<pageEnd]), chunk.codec,
                            size: Int(header.uncompressedSize), at: at)
                    }
                }
                let count = Int(header.valueCount)
                var cursor = 0
                // Repetition levels, then definition levels.
                if leaf.maxRepetition > 0 {
                    try decodeLevels(
                        "repetition", maximum: leaf.maxRepetition, count: count, apart: repetitionBytes,
                        page: page, cursor: &cursor, into: &repetitions, at: at)
                    guard repetitions.count == count else {
                        throw failure("a page has fewer repetition levels than values", at: at)
                    }
                    guard valuesRead > 0 || repetitions.first ?? 0 == 0 else {
                        throw failure("its first value continues no row", at: at)
                    }
                    column.repetitionLevels.append(contentsOf: repetitions.lazy.map { UInt8(truncatingIfNeeded: $0) })
                }
                if leaf.maxDefinition > 0 {
                    try decodeLevels(
                        "definition", maximum: leaf.maxDefinition, count: count, apart: definitionBytes,
                        page: page, cursor: &cursor, into: &levels, at: at)
                    let before = column.present.count
                    for level in levels { column.present.append(Int(level) == leaf.maxDefinition) }
                    guard column.present.count - before == count else {
                        throw failure("a page has fewer levels than values", at: at)
                    }
                    if leaf.maxRepetition > 0 {
                        column.definitionLevels.append(contentsOf: levels.lazy.map { UInt8(truncatingIfNeeded: $0) })
                    }
                } else {
                    column.present.append(contentsOf: repeatElement(true, count: count))
                }
                let nonNull =
                    leaf.maxDefinition > 0 ? levels.reduce(0) { $0 + (Int($1) == leaf.maxDefinition ? 1 : 0) } : count
                try values(
                    header.encoding, page, &cursor, count: nonNull, dictionary: dictionary, into: &column.values, at: at
                )
                valuesRead += count
            case .indexPage:
                break
            }
            offset = pageEnd
        }
        let rowsMet =
            leaf.maxRepetition > 0
            ? column.repetitionLevels.lazy.filter { $0 == 0 }.count : column.present.count
        guard rowsMet >= rows else {
            throw failure("it has \(rowsMet) values for \(rows) rows", at: start)
        }
        return column
    }

    package static func empty(_ type: ParquetType) -> DecodedColumn.Values {
        switch type {
        case .boolean: .flags([])
        case .int32, .int64: .integers([])
        case .float, .double: .reals([])
        case .byteArray, .fixedLenByteArray, .int96: .bytes([], ends: [])
        }
    }

    /// Decodes `count` levels of at most `maximum` (`what`: repetition or definition): from
    /// `apart` when the page gives them apart (v2), else from `page` at `cursor`, after their
    /// 4-byte length (v1).
    private func decodeLevels(
        _ what: String, maximum: Int, count: Int, apart: ArraySlice<UInt8>?, page: [UInt8],
        cursor: inout Int, into levels: inout [UInt32], at: Int
    ) throws(GeoConvError) {
        let width = ParquetHybrid.width(forMaximum: maximum)
        if let apart {
            try apart.withBytes { buffer throws(GeoConvError) in
                try ParquetHybrid.decode(buffer, width: width, count: count, into: &levels, base: at)
            }
            return
        }
        let length = try uint32(page, &cursor, at: at)
        guard length <= page.count - cursor else { throw failure("its \(what) levels run past the page", at: at) }
        let start = cursor
        try page.withBytes { buffer throws(GeoConvError) in
            try ParquetHybrid.decode(
                UnsafeRawBufferPointer(rebasing: buffer[start..<(start + length)]), width: width,
                count: count, into: &levels, base: at)
        }
        cursor += length
    }

    private func uint32(_ page: [UInt8], _ cursor: inout Int, at offset: Int) throws(GeoConvError) -> Int {
        guard cursor + 4 <= page.count else { throw failure("a page ends early", at: offset) }
        defer { cursor += 4 }
        return Int(
            UInt32(page[cursor]) | UInt32(page[cursor + 1]) << 8 | UInt32(page[cursor + 2]) << 16 | UInt32(
                page[cursor + 3]) << 24)
    }

    /// A page's values in `encoding`.
    private func values(
        _ encoding: ParquetEncoding, _ page: [UInt8], _ cursor: inout Int, count: Int,
        dictionary: DecodedColumn.Values?,
        into values: inout DecodedColumn.Values, at offset: Int
    ) throws(GeoConvError) {
        switch encoding {
        case .plain:
            try plain(page, &cursor, count: count, into: &values, at: offset)
        case .rleDictionary, .plainDictionary:
            guard let dictionary else {
                throw failure("a dictionary-encoded page comes without a dictionary", at: offset)
            }
            guard count > 0 else { return }
            guard cursor < page.count else { throw failure("a page ends early", at: offset) }
            let width = Int(page[cursor])
            cursor += 1
            var indices: [UInt32] = []
            try page.withBytes { buffer throws(GeoConvError) in
                try ParquetHybrid.decode(
                    UnsafeRawBufferPointer(rebasing: buffer[cursor...]), width: width, count: count, into: &indices,
                    base: offset)
            }
            try lookUp(indices, in: dictionary, into: &values, at: offset)
        case .rle:
            // Booleans (data pages v2): a 4-byte length, then the hybrid with width 1.
            guard case .flags(var flags) = values else {
                throw failure("RLE values in a column that is not boolean", at: offset)
            }
            let length = try uint32(page, &cursor, at: offset)
            guard length <= page.count - cursor else { throw failure("its values run past the page", at: offset) }
            var decoded: [UInt32] = []
            try page.withBytes { buffer throws(GeoConvError) in
                try ParquetHybrid.decode(
                    UnsafeRawBufferPointer(rebasing: buffer[cursor..<(cursor + length)]), width: 1, count: count,
                    into: &decoded, base: offset)
            }
            values = .flags([])
            flags.append(contentsOf: decoded.map { $0 != 0 })
            values = .flags(flags)
        default:
            throw GeoConvError(
                .unsupported,
                "the column \"\(leaf.dottedName)\" uses the \(encoding) encoding, which geoconv does not read",
                at: SourceLocation(file: file.name, byteOffset: offset),
                hint:
                    "rewrite the file with PLAIN or dictionary encoding (pyarrow's default: use_dictionary=True, column_encoding unset)"
            )
        }
    }

    /// PLAIN values.
    private func plain(
        _ page: [UInt8], _ cursor: inout Int, count: Int, into values: inout DecodedColumn.Values, at offset: Int
    ) throws(GeoConvError) {
        let type = leaf.element.type ?? .byteArray
        switch (values, type) {
        case (.integers(var list), .int32), (.integers(var list), .int64):
            let size = type == .int32 ? 4 : 8
            guard count <= (page.count - cursor) / size else {
                throw failure("a page holds fewer values than it says", at: offset)
            }
            values = .flags([])
            list.reserveCapacity(list.count + count)
            for _ in 0..<count {
                var raw: UInt64 = 0
                for k in 0..<size { raw |= UInt64(page[cursor + k]) << UInt64(8 * k) }
                cursor += size
                list.append(size == 4 ? Int64(Int32(truncatingIfNeeded: raw)) : Int64(bitPattern: raw))
            }
            values = .integers(list)
        case (.reals(var list), .float), (.reals(var list), .double):
            let size = type == .float ? 4 : 8
            guard count <= (page.count - cursor) / size else {
                throw failure("a page holds fewer values than it says", at: offset)
            }
            values = .flags([])
            for _ in 0..<count {
                var raw: UInt64 = 0
                for k in 0..<size { raw |= UInt64(page[cursor + k]) << UInt64(8 * k) }
                cursor += size
                list.append(
                    size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw))
            }
            values = .reals(list)
        case (.flags(var list), _):
            guard count <= (page.count - cursor) * 8 else {
                throw failure("a page holds fewer values than it says", at: offset)
            }
            values = .integers([])
            for i in 0..<count { list.append(page[cursor + i / 8] >> UInt8(i % 8) & 1 == 1) }
            cursor += (count + 7) / 8
            values = .flags(list)
        case (.bytes(var data, var ends), .byteArray):
            values = .flags([])
            for _ in 0..<count {
                let length = try uint32(page, &cursor, at: offset)
                guard length <= page.count - cursor else { throw failure("a value runs past the page", at: offset) }
                data.append(contentsOf: page[cursor..<(cursor + length)])
                ends.append(data.count)
                cursor += length
            }
            values = .bytes(data, ends: ends)
        case (.bytes(var data, var ends), _):
            let size = type == .int96 ? 12 : Int(leaf.element.typeLength ?? 0)
            guard size > 0, count <= (page.count - cursor) / size else {
                throw failure("a page holds fewer values than it says", at: offset)
            }
            values = .flags([])
            for _ in 0..<count {
                data.append(contentsOf: page[cursor..<(cursor + size)])
                ends.append(data.count)
                cursor += size
            }
            values = .bytes(data, ends: ends)
        default:
            throw failure("its values do not match its type", at: offset)
        }
    }

    private func lookUp(
        _ indices: [UInt32], in dictionary: DecodedColumn.Values, into values: inout DecodedColumn.Values,
        at offset: Int
    ) throws(GeoConvError) {
        func check(_ count: Int) throws(GeoConvError) {
            for index in indices where Int(index) >= count {
                throw failure("a dictionary index \(index) is past its \(count) entries", at: offset)
            }
        }
        switch (dictionary, values) {
        case (.integers(let d), .integers(var list)):
            try check(d.count)
            values = .flags([])
            for i in indices { list.append(d[Int(i)]) }
            values = .integers(list)
        case (.reals(let d), .reals(var list)):
            try check(d.count)
            values = .flags([])
            for i in indices { list.append(d[Int(i)]) }
            values = .reals(list)
        case (.flags(let d), .flags(var list)):
            try check(d.count)
            values = .integers([])
            for i in indices { list.append(d[Int(i)]) }
            values = .flags(list)
        case (.bytes(let d, let dEnds), .bytes(var data, var ends)):
            try check(dEnds.count)
            values = .flags([])
            for i in indices {
                let index = Int(i)
                data.append(contentsOf: d[(index == 0 ? 0 : dEnds[index - 1])..<dEnds[index]])
                ends.append(data.count)
            }
            values = .bytes(data, ends: ends)
        default:
            throw failure("its dictionary does not match its type", at: offset)
        }
    }
}
