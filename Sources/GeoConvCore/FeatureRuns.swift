/// Whole records cut from an input — lines of a line-delimited file, or features of a
/// FeatureCollection's array — with where they start, for a reader on another thread.
package struct FeatureRun: Sendable {
    /// The records' bytes.
    package var bytes: [UInt8]
    /// Where `bytes` start in the input: line, column (a run may start mid-line) and offset.
    package var line: Int
    package var column: Int
    package var byteOffset: Int
    /// Records of the input before this run (GeoJSON text sequence records, or features of
    /// the array).
    package var recordsBefore: Int
    /// The whole input's first bytes (`ByteReader.inputStart()`), for what a reader decides
    /// from them; empty for runs whose readers decide nothing from it.
    package var inputStart: [UInt8] = []
    /// What the format's run reader starts from besides the bytes, in its own terms (a KML
    /// run's style and schema tables as the document's reader had them there); `nil` for runs
    /// that are bytes alone. Made by the cutting thread and only read after.
    package var context: (any Sendable)?

    /// Creates a run.
    package init(bytes: [UInt8], line: Int, column: Int = 1, byteOffset: Int, recordsBefore: Int) {
        self.bytes = bytes
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.recordsBefore = recordsBefore
    }

    /// A reader of this run's bytes, named `name` in messages; it starts the input only when
    /// the run does (a byte order mark is cut off before the first run: `byteOffset` 3).
    package func input(named name: String) throws(GeoConvError) -> ByteReader {
        let reader = try ByteReader(.memory(bytes, name: name))
        if byteOffset != 0 { reader.enclosingInputStart = inputStart }
        return reader
    }

    /// A location inside this run as a location in the whole input. A JSON Pointer that
    /// starts with a record index (`/3/geometry`, from a text sequence read alone) is
    /// counted from the start of the input.
    package func relocate(_ location: SourceLocation) -> SourceLocation {
        var moved = location.shifted(lines: line - 1, bytes: byteOffset)
        if location.line == 1, let column = location.column { moved.column = column + self.column - 1 }
        if recordsBefore > 0, let pointer = location.pointer, pointer.hasPrefix("/") {
            let digits = pointer.dropFirst().prefix { $0.isASCII && $0.isNumber }
            if let index = Int(digits) {
                moved.pointer = "/\(index + recordsBefore)" + pointer.dropFirst(1 + digits.count)
            }
        }
        return moved
    }
}

extension FeatureRun {
    /// The largest average feature, in bytes, for which a reader's features are cut into
    /// runs read on other threads: bigger features are parsed faster per byte than the
    /// cutting scan costs.
    package static let largestParallelFeature = 4096
}

/// A reader whose remaining features can be cut into runs of whole features, each then
/// parsed by a reader of its own on another thread (a GeoJSON FeatureCollection's array):
/// what `--jobs` asks of a reader, whatever its format.
package protocol FeatureRunReader: FeatureReader {
    /// Whether runs can be cut now (the header is read and features are ahead).
    var cutsFeatureRuns: Bool { get }
    /// The size and count of the features the next `nextFeatureRun(size:)` would cut,
    /// without taking them.
    mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)?
    /// The next run of at least `size` bytes of whole features (fewer at the end); `nil`
    /// when none is left, after which `next()` reads what follows them.
    mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> FeatureRun?
    /// Makes, on any thread, a reader of a run's bytes (given as the `ByteReader`) with this
    /// reader's options, whose locations are relative to the run (`FeatureRun.relocate`
    /// makes them the input's).
    var runReader: @Sendable (FeatureRun, ByteReader, DiagnosticLog) -> any FeatureReader { get }
    /// Whether finding the runs costs nothing beyond reading on one thread (a KML reader's
    /// splitter scans the document whether or not the runs are handed out), so that runs of
    /// big features are worth taking too; `false` by default: a scan made only to cut them
    /// costs as much as big features' parsing saves.
    var findsRunsWhileReading: Bool { get }
}

extension FeatureRunReader {
    package var findsRunsWhileReading: Bool { false }
}

/// A writer whose features are independent records between what it writes first and last
/// (a GeoJSON FeatureCollection's members, a text sequence's records), so that writers of
/// its kind can write batches of them on other threads and the bytes be put in order here.
package protocol RecordsWriter: FeatureWriter {
    /// A writer of features as records alone into `output` (nothing before or after them),
    /// as this writer, begun, would write them after at least one other; `nil` when a record
    /// depends on what this writer has seen (a collection's bounding box, for example).
    func recordsWriter(into output: ByteWriter, diagnostics: DiagnosticLog) -> (any FeatureWriter)?
    /// Adds `count` records that a records writer wrote, in order after those written so far.
    mutating func appendRecords(_ bytes: [UInt8], count: Int) throws(GeoConvError)
    /// When `recordsWriter` is `nil`: a writer, made on this writer's thread from its state,
    /// of the features whose records stand alone (most features of a large file), which
    /// leaves the others to this writer; `nil` when there is none.
    func selectiveRecordsWriter() -> (any SelectiveRecordsWriter)?
    /// Adds the records a selective records writer wrote, in order after what this writer
    /// wrote so far, learning what they tell it; `locate(i)` places what it reports about
    /// the run's record `i` (counted from 0).
    mutating func appendRecords(_ records: WrittenRecords, locating locate: (Int) -> Void) throws(GeoConvError)
}

extension RecordsWriter {
    package func selectiveRecordsWriter() -> (any SelectiveRecordsWriter)? { nil }
    package mutating func appendRecords(_ records: WrittenRecords, locating locate: (Int) -> Void) throws(GeoConvError) {
        try appendRecords(records.bytes, count: records.count)
    }
}

/// Writes, on another thread, the features whose records neither depend on what the
/// document's writer has seen nor change it, but for facts it takes in order when the
/// records are added (a KML schema's field types, shared-style ids); the others are left to
/// that writer, in order. What is to be reported about a record goes with those facts: the
/// document's writer reports it, at the record's feature.
/// (A class: a batch asks it about every feature, and a value in an existential would be
/// copied out and back each time.)
package protocol SelectiveRecordsWriter: AnyObject {
    /// Writes `feature` as a record and returns `true`, or writes nothing and returns
    /// `false` when only the document's writer can write it.
    func writeRecord(_ feature: Feature) -> Bool
    /// The records written since the last call, with what they teach the document's writer.
    func takeRecords() -> WrittenRecords
}

/// Records a selective records writer wrote, with what the document's writer learns from
/// them (its format's own facts, each about one of the records).
package struct WrittenRecords {
    /// The records' bytes, in order.
    package var bytes: [UInt8]
    /// How many records.
    package var count: Int
    /// What the document's writer learns from them, in its format's terms.
    package var facts: Any?

    /// Records written.
    package init(bytes: [UInt8], count: Int, facts: Any? = nil) {
        self.bytes = bytes
        self.count = count
        self.facts = facts
    }
}

/// Features made on another thread for a writer, put into it later in order: written there
/// as records by a writer made from it, when its records can be written apart
/// (`RecordsWriter`), else kept for it to write — or both, when a selective records writer
/// writes the features whose records stand alone and leaves the others.
package struct FeatureBatch {
    /// The batch's diagnostics (its records writer's among them).
    package let log: DiagnosticLog
    private var records: (writer: any FeatureWriter, output: ByteWriter)?
    private var written: [UInt8]?
    private var selective: (any SelectiveRecordsWriter)?
    /// With a selective records writer: what the batch holds, in order — runs of records
    /// (with the ordinal of the feature each was made from) and features kept for the writer.
    private var pieces: [Piece] = []
    /// The ordinals of the records in the run being written (selective records writer).
    private var runOrdinals: [Int] = []
    /// Features kept for the writer, each with the ordinal of the feature it was made from
    /// in the batch's input (for its warnings' place, found only when one needs it).
    private var kept: [(feature: Feature, ordinal: Int)] = []
    /// The features added.
    package private(set) var count = 0
    /// Which of the three ways the batch goes (asked per feature: comparing an optional
    /// existential with nil copies it).
    private let writesRecords: Bool, writesSelectively: Bool

    private enum Piece {
        case records(WrittenRecords, ordinals: [Int])
        case kept(Feature, ordinal: Int)
    }

    /// A batch for `writer`, begun, made on the writer's thread (a records writer starts
    /// from its state).
    package init(for writer: any FeatureWriter, log: DiagnosticLog) throws(GeoConvError) {
        self.log = log
        if let recordsWriter = writer as? any RecordsWriter {
            let output = try ByteWriter(.memory)
            if let made = recordsWriter.recordsWriter(into: output, diagnostics: log) {
                records = (made, output)
            } else {
                selective = recordsWriter.selectiveRecordsWriter()
            }
        }
        writesRecords = records != nil
        writesSelectively = !writesRecords && selective != nil
    }

    /// Writes `feature` as a record, or keeps it with `ordinal`: which feature of the batch's
    /// input it was made from (`-1` when unknown), for `write(into:diagnostics:locating:)`.
    package mutating func add(_ feature: Feature, ordinal: Int = -1) throws(GeoConvError) {
        // In place: a copy out of the optional would copy the writer's buffer.
        if writesRecords {
            try records?.writer.write(feature)
        } else if writesSelectively, let selective {
            if selective.writeRecord(feature) {
                runOrdinals.append(ordinal)
            } else {
                endRun()
                pieces.append(.kept(feature, ordinal: ordinal))
            }
        } else {
            kept.append((feature, ordinal))
        }
        count += 1
    }

    /// Closes the run of records being written (selective records writer).
    private mutating func endRun() {
        guard !runOrdinals.isEmpty, let records = selective?.takeRecords() else { return }
        pieces.append(.records(records, ordinals: runOrdinals))
        runOrdinals = []
    }

    /// Ends the records, after the last `add`, on the thread that added them.
    package mutating func finish() throws(GeoConvError) {
        endRun()
        guard let output = records?.output else { return }
        try records?.writer.finish()
        try output.commit()
        written = output.memoryContents
    }

    /// Puts the batch into `writer` (on its thread), after what it wrote before. What the
    /// writer reports about a kept feature (or a record) is placed by `locate`, given the
    /// feature's ordinal, and asked only when a message needs a place (the first of each
    /// kind): no place is made or kept per feature.
    package func write(into writer: inout any FeatureWriter, diagnostics: DiagnosticLog,
                       locating locate: @escaping (Int) -> SourceLocation? = { _ in nil }) throws(GeoConvError)
    {
        if let written, var recordsWriter = writer as? any RecordsWriter {
            try recordsWriter.appendRecords(written, count: count)
            writer = recordsWriter
            return
        }
        // The ordinal of the feature being written, when known.
        let current = FeatureCursor()
        diagnostics.locateCurrent { current.ordinal < 0 ? nil : locate(current.ordinal) }
        defer { diagnostics.currentLocation = nil }
        if selective != nil, var recordsWriter = writer as? any RecordsWriter {
            defer { writer = recordsWriter }
            for piece in pieces {
                switch piece {
                case .records(let records, let ordinals):
                    try recordsWriter.appendRecords(records) { index in
                        current.ordinal = ordinals.indices.contains(index) ? ordinals[index] : -1
                    }
                case .kept(let feature, let ordinal):
                    current.ordinal = ordinal
                    try recordsWriter.write(feature)
                }
                current.ordinal = -1
            }
            return
        }
        for (feature, ordinal) in kept {
            current.ordinal = ordinal
            try writer.write(feature)
        }
    }
}

/// Which feature of a run, a batch or a piece is being worked on, for a log that places its
/// messages only when one needs a place (`DiagnosticLog.locateCurrent`); -1 before the first.
package final class FeatureCursor {
    package var ordinal = -1

    package init() {}
}
