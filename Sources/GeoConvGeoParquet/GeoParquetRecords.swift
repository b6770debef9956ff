public import GeoConvCore
public import GeoConvFormatKit
import GeoConvParquet
import GeoConvRows

/// Rows made on other threads (`--jobs`): a feature's spooled row takes nothing from the
/// rows before it but its columns' numbers, which the document's writer maps by name when
/// it adds the rows; so a records writer makes the rows of a run with columns numbered as
/// the document's were when the run began (new ones after them), noting what its columns
/// held, and the document's writer learns that when it adds them, in order. A feature
/// whose row would report something (`SpooledRows.reports`) is left to the document's
/// writer, so the output and the messages are a sequential run's.
final class GeoParquetRecordsWriter: SelectiveRecordsWriter {
    typealias Facts = GeoParquetRecordFacts

    private var rows: SpooledRows
    /// The rows made since the last `takeRecords`, framed.
    private var bytes: [UInt8] = []
    private var count = 0
    private var firstValues: [(column: Int, record: Int)] = []
    private var firstWideIntegers: [(column: Int, record: Int)] = []
    /// Where the rows' messages would go: none are made (the features that would make one
    /// are left to the document's writer).
    private let log = DiagnosticLog()

    /// A writer whose columns start as the document's (`names`, in order).
    init(columnNames names: [String]) {
        rows = SpooledRows(reporting: GeoParquetReports.self, columnNames: names)
    }

    func writeRecord(_ feature: Feature) -> Bool {
        guard !SpooledRows.reports(feature, in: GeoParquetReports.self) else { return false }
        do throws(GeoConvError) {
            // (A geometry WKB cannot hold throws before anything is changed.)
            try rows.append(feature, to: &bytes, diagnostics: log)
        } catch {
            return false
        }
        for column in rows.firstValues { firstValues.append((column, count)) }
        for column in rows.firstWideIntegers { firstWideIntegers.append((column, count)) }
        count += 1
        return true
    }

    func takeRecords() -> WrittenRecords<Facts> {
        let facts = GeoParquetRecordFacts(
            columns: rows.columns, firstValues: firstValues, firstWideIntegers: firstWideIntegers,
            bounds: rows.bounds, kindsMet: rows.kindsMet)
        let records = WrittenRecords(bytes: bytes, count: count, facts: facts)
        // What the next take teaches starts afresh (a column's kinds only widen: learning them
        // twice would do no harm, but wide integers are counted).
        for index in rows.columns.indices {
            rows.columns[index].kinds = []
            rows.columns[index].wideIntegers = 0
        }
        rows.bounds = nil
        rows.kindsMet.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        firstValues.removeAll(keepingCapacity: true)
        firstWideIntegers.removeAll(keepingCapacity: true)
        count = 0
        return records
    }
}

/// What rows made on another thread (`GeoParquetRecordsWriter`) tell the document's writer
/// when it adds them (the `RecordFacts` of `GeoParquetWriter`): the columns they are
/// numbered by and what each held, which of their records first had a value (or an integer
/// beyond ±2^53) in a column, their bounding box and geometry kinds.
public struct GeoParquetRecordFacts {
    var columns: [PropertyColumn]
    var firstValues: [(column: Int, record: Int)]
    var firstWideIntegers: [(column: Int, record: Int)]
    var bounds: (Double, Double, Double, Double)?
    var kindsMet: [(GeometryKind, Bool)]
}

/// A feature's row needs nothing from the rows before it but column numbers: no records
/// alone (`recordsWriter` is `nil`: the columns are the document's), but rows made
/// elsewhere by a selective records writer, whose columns are mapped when they are added.
extension GeoParquetWriter: RecordAppendingWriter {
    public typealias RecordFacts = GeoParquetRecordFacts

    public func selectiveRecordsWriter() -> (any SelectiveRecordsWriter<RecordFacts>)? {
        GeoParquetRecordsWriter(columnNames: state.rows.columns.map(\.name))
    }

    public mutating func appendRecords(
        _ records: WrittenRecords<RecordFacts>, locating locate: (Int) -> Void
    ) throws(GeoConvError) {
        try state.appendRecords(records, locating: locate)
    }
}
