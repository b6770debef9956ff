import Foundation
import GeoConvCore
import Testing

@testable import GeoConvParquet

@Suite("Parquet's encodings: Thrift compact, the RLE/bit-packing hybrid, Snappy")
struct ParquetEncodingTests {
    @Test("The hybrid decodes what it encodes: runs, literals, padding, widths 1 to 20")
    func hybridRoundTrip() throws {
        for width in [1, 2, 3, 7, 8, 13, 20] {
            let maximum = UInt32((1 << width) - 1)
            var values: [UInt32] = []
            for i in 0..<1000 { values.append(i % 97 < 30 ? maximum : UInt32(i * 7919) % (maximum + 1)) }
            values.append(contentsOf: repeatElement(1 & maximum, count: 21))
            var bytes: [UInt8] = []
            ParquetHybrid.encode(values, width: width, to: &bytes)
            var back: [UInt32] = []
            try bytes.withUnsafeBytes {
                try ParquetHybrid.decode($0, width: width, count: values.count, into: &back, base: 0)
            }
            #expect(back == values, "width \(width)")
        }
    }

    @Test("A repeated run is one header and the value's bytes; a literal run packs eight values a group, LSB first")
    func hybridBytes() {
        var run: [UInt8] = []
        ParquetHybrid.encode(Array(repeating: 1, count: 10), width: 1, to: &run)
        #expect(run == [10 << 1, 1])
        var literal: [UInt8] = []
        ParquetHybrid.encode([1, 0, 1, 1, 0, 0, 0, 1], width: 1, to: &literal)
        #expect(literal == [1 << 1 | 1, 0b1000_1101])
    }

    @Test("A damaged hybrid is an error at its byte offset")
    func hybridDamaged() {
        var back: [UInt32] = []
        #expect {
            try [UInt8]([0x03]).withUnsafeBytes {
                try ParquetHybrid.decode($0, width: 8, count: 8, into: &back, base: 100)
            }
        } throws: { error in
            (error as? GeoConvError)?.code == .invalidInput && (error as? GeoConvError)?.location?.byteOffset == 101
        }
    }

    @Test("The footer reads back what it writes, field for field")
    func footerRoundTrip() throws {
        var string = ParquetSchemaElement(repetition: .optional, name: "name")
        string.type = .byteArray
        string.convertedType = 0
        string.annotation = .string
        let column = ParquetColumnMetadata(
            type: .byteArray, encodings: [.plain, .rle, .rleDictionary], path: ["name"], codec: .zstd, valueCount: 300,
            uncompressedSize: 1234, compressedSize: 567, dataPageOffset: 40, dictionaryPageOffset: 4,
            statistics: ParquetStatistics(nullCount: 3, minValue: Array("a".utf8), maxValue: Array("z".utf8)))
        let metadata = ParquetFileMetadata(
            schema: [ParquetSchemaElement(name: "schema", childCount: 1), string], rowCount: 300,
            rowGroups: [
                ParquetRowGroup(
                    columns: [column], totalByteSize: 1234, rowCount: 300, fileOffset: 4, totalCompressedSize: 567)
            ],
            keyValues: [("geo", "{}")], createdBy: "geoconv")
        let bytes = metadata.encoded()
        let back = try bytes.withUnsafeBytes { try ParquetFileMetadata(decoding: $0, at: 0) }
        #expect(
            back.rowCount == 300 && back.createdBy == "geoconv" && back.keyValues.first?.key == "geo"
                && back.keyValues.first?.value == "{}")
        #expect(
            back.schema.map(\.name) == ["schema", "name"] && back.schema[1].annotation == .string
                && back.schema[1].repetition == .optional)
        let chunk = try #require(back.rowGroups.first?.columns.first)
        #expect(chunk.path == ["name"] && chunk.codec == .zstd && chunk.encodings == [.plain, .rle, .rleDictionary])
        #expect(
            chunk.dataPageOffset == 40 && chunk.dictionaryPageOffset == 4 && chunk.valueCount == 300
                && chunk.compressedSize == 567)
        #expect(chunk.statistics?.nullCount == 3 && chunk.statistics?.minValue == Array("a".utf8))
    }

    @Test("Thrift's compact protocol: a field id jump over 15 is written long; unknown fields are skipped")
    func thriftLongFieldAndSkip() throws {
        var w = ThriftWriter()
        w.i32(1, -3)
        w.string(40, "far")  // delta 39: long form
        w.beginStruct(41)
        w.i64(1, 1 << 40)
        w.endStruct()
        w.i32(42, 7)
        let bytes = w.finish()
        #expect(bytes[0] == 0x15 && bytes[1] == 5)  // delta 1, i32; zigzag(-3) = 5
        try bytes.withUnsafeBytes { buffer in
            var r = ThriftReader(buffer)
            try r.beginStruct()
            var seen: [Int16] = []
            var last: Int32?
            while let (id, type) = try r.field() {
                seen.append(id)
                if id == 42 { last = try r.i32() } else { try r.skip(type) }
            }
            #expect(seen == [1, 40, 41, 42] && last == 7)
        }
    }

    @Test("Snappy: literals and overlapping copies, as the format description has them")
    func snappy() throws {
        // "abcabcabcabcX": length 13, literal "abc" (tag (3-1)<<2), copy 9 bytes at offset 3
        // (2-byte offset form: tag (9-1)<<2 | 2), literal "X".
        let compressed: [UInt8] = [13, 2 << 2, 0x61, 0x62, 0x63, (9 - 1) << 2 | 2, 3, 0, 0, 0x58]
        let out = try compressed.withUnsafeBytes { try Snappy.decompress($0, size: 13, at: 0) }
        #expect(String(decoding: out, as: UTF8.self) == "abcabcabcabcX")
        #expect(throws: GeoConvError.self) {
            // a copy before any output
            try [UInt8]([4, 1 << 2 | 1, 9]).withUnsafeBytes { try Snappy.decompress($0, size: 4, at: 0) }
        }
    }

    @Test("Dates, timestamps and decimals read as their text")
    func values() {
        #expect(
            ParquetValues.date(days: 0) == "1970-01-01" && ParquetValues.date(days: 19_723) == "2024-01-01"
                && ParquetValues.date(days: -1) == "1969-12-31")
        #expect(
            ParquetValues.timestamp(1_704_067_200_123, unitsPerSecond: 1000, utc: true) == "2024-01-01T00:00:00.123Z")
        #expect(ParquetValues.timestamp(-1, unitsPerSecond: 1_000_000, utc: false) == "1969-12-31T23:59:59.999999")
        #expect(ParquetValues.decimal(magnitude: 12345, negative: true, scale: 3).literal == "-12.345")
        #expect(ParquetValues.decimal(magnitude: 5, negative: false, scale: 2).literal == "0.05")
        #expect(ParquetValues.half(0x3C00) == 1 && ParquetValues.half(0xC000) == -2)
    }
}
