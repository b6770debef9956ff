import Foundation
import GeoConvCore
import GeoConvIO
import Testing

@testable import GeoConvGeoParquet
@testable import GeoConvParquet

/// What a GeoParquet file's footer says, for assertions.
enum GeoParquetInspection {
    struct Summary {
        /// Rows per row group.
        var rowGroups: [Int]
        /// The `geo` metadata text.
        var geo: String
        /// Each leaf column's type: INT64, DOUBLE, BOOLEAN, UTF8 or BYTE_ARRAY.
        var columns: [String: String]
        /// The codecs of the column chunks, each once.
        var codecs: [String]
    }

    static func metadata(_ bytes: [UInt8]) throws -> Summary {
        let file = try ParquetFile(try ByteReader(.memory(bytes, name: "inspected.parquet")))
        let leaves = try ParquetLeaf.leaves(of: file.metadata.schema, file: file.name)
        var columns: [String: String] = [:]
        for leaf in leaves {
            let type: String
            switch (leaf.element.type, leaf.element.annotation) {
            case (.byteArray?, .string): type = "UTF8"
            case (let t?, _): type = "\(t)".uppercased()
            default: type = "?"
            }
            columns[leaf.dottedName] = type
        }
        return Summary(
            rowGroups: file.metadata.rowGroups.map { Int($0.rowCount) },
            geo: file.metadata.keyValues.first { $0.key == "geo" }?.value ?? "", columns: columns,
            codecs: Array(Set(file.metadata.rowGroups.flatMap { $0.columns.map { "\($0.codec)".uppercased() } }))
                .sorted())
    }
}
