public import GeoConvCore
public import GeoConvIO

/// Whole records cut from an input — lines of a line-delimited file, the features of a
/// FeatureCollection's array, a KML document's run of Placemarks — with where they start and
/// the reader of their features, for a worker on another thread (`--jobs`).
public struct FeatureRun: Sendable {
    /// Makes, on any thread, a reader of a run's features from the run's bytes (given as the
    /// `ByteReader`), whose locations are relative to the run (`relocate` makes them the
    /// input's).
    public typealias MakeReader = @Sendable (ByteReader, DiagnosticLog) throws(GeoConvError) -> any FeatureReader

    /// The records' bytes (empty for a run whose reader holds what it reads).
    public var bytes: [UInt8]
    /// Where `bytes` start in the input: line, column (a run may start mid-line) and offset.
    public var line: Int
    public var column: Int
    public var byteOffset: Int
    /// Records of the input before this run (GeoJSON text sequence records, or features of
    /// the array).
    public var recordsBefore: Int
    /// The whole input's first bytes (`ByteReader.inputStart()`), for what a reader decides
    /// from them; empty for runs whose readers decide nothing from it.
    public var inputStart: [UInt8] = []
    /// The reader of this run's features, made by the reader that cut it (with its options
    /// and, for a KML run, the style and schema tables the document had there).
    public var makeReader: MakeReader
    /// The same reader as a marker index, when the reader that cut the run indexes markers
    /// (`geoconv cluster` indexes runs on every core); `nil` otherwise.
    public var makeMarkerReader: (@Sendable (ByteReader, DiagnosticLog) throws(GeoConvError) -> any MarkerIndexReader)?

    /// Creates a run read by `makeReader` (a scanner that cuts bytes leaves it to the
    /// reader that hands the run out: `unassigned` until then).
    public init(
        bytes: [UInt8], line: Int, column: Int = 1, byteOffset: Int, recordsBefore: Int,
        makeReader: @escaping MakeReader = FeatureRun.unassigned
    ) {
        self.bytes = bytes
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.recordsBefore = recordsBefore
        self.makeReader = makeReader
    }

    /// The reader of a run cut by bytes alone, before its reader is assigned: refuses.
    public static let unassigned: MakeReader = { input, _ throws(GeoConvError) in
        throw GeoConvError(
            .unsupported, "a run of \(input.name) was handed out without a reader of its features",
            hint: "the reader that cuts a run sets its makeReader")
    }

    /// A reader of this run's bytes, named `name` in messages; it starts the input only when
    /// the run does (a byte order mark is cut off before the first run: `byteOffset` 3).
    package func input(named name: String) throws(GeoConvError) -> ByteReader {
        let reader = try ByteReader(.memory(bytes, name: name))
        if byteOffset != 0 { reader.enclosingInputStart = inputStart }
        return reader
    }

    /// The reader of this run's features (`makeReader` on its bytes), named `name`.
    package func reader(named name: String, diagnostics: DiagnosticLog) throws(GeoConvError) -> any FeatureReader {
        try makeReader(try input(named: name), diagnostics)
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

/// A reader whose features can be cut into runs of whole features, each read by a reader of
/// its own on another thread: what `--jobs` asks of a reader beyond `FeatureReader`. The
/// reader itself starts no thread; its format registers it with `ReaderMaking.runs`, so
/// that the scheduler (`GeoConvParallel`) gets it as one, without a cast.
public protocol FeatureRunReader: FeatureReader {
    /// Whether `nextFeatureRun` can cut runs now (the header is read and features are ahead).
    var cutsFeatureRuns: Bool { get }
    /// The size and count of the features the next `nextFeatureRun(size:)` would cut,
    /// without taking them; `nil` when it would cut none.
    mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)?
    /// The next run of at least `size` bytes of whole features (fewer at the end), with the
    /// reader of its features; `nil` when none is left, after which `next()` reads what
    /// follows them.
    mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> FeatureRun?
    /// Whether finding runs costs nothing beyond reading on one thread (a KML reader's
    /// splitter scans the document whether or not its runs are handed out), so that runs of
    /// big features are worth taking too. Default `false`: a scan made only to cut them costs
    /// as much as big features' parsing saves.
    var findsRunsWhileReading: Bool { get }
}

extension FeatureRunReader {
    public var findsRunsWhileReading: Bool { false }
}

/// A writer whose features can be written as records on other threads (`--jobs`), and the
/// records put into it here in order: what the parallel route asks of a writer beyond
/// `FeatureWriter`. Each requirement has a default that declines; a writer of records alone
/// gives `recordsWriter`, one whose records depend on what it has seen gives
/// `selectiveRecordsWriter`. Its format registers it with `WriterMaking.records`.
public protocol RecordAppendingWriter: FeatureWriter {
    /// What a selective records writer's records teach this writer, in its format's terms.
    associatedtype RecordFacts = Void
    /// A writer of features as records alone into `output` (nothing before or after them),
    /// as this writer, begun, would write them after at least one other; `nil` when a record
    /// depends on what this writer has seen. Default `nil`.
    func recordsWriter(into output: ByteWriter, diagnostics: DiagnosticLog) -> (any FeatureWriter)?
    /// Adds `count` records that a records writer wrote, in order after those written so
    /// far. Default: refused (only writers with a records writer are asked).
    mutating func appendRecords(_ bytes: [UInt8], count: Int) throws(GeoConvError)
    /// When `recordsWriter` is `nil`: a writer, made on this writer's thread from its state,
    /// of the features whose records stand alone, which leaves the others to this writer.
    /// Default `nil`.
    func selectiveRecordsWriter() -> (any SelectiveRecordsWriter<RecordFacts>)?
    /// Adds the records a selective records writer wrote, in order after what this writer
    /// wrote so far, learning what they tell it; `locate(i)` places what it reports about the
    /// run's record `i` (counted from 0). Default: `appendRecords(_:count:)`.
    mutating func appendRecords(
        _ records: WrittenRecords<RecordFacts>, locating locate: (Int) -> Void)
        throws(GeoConvError)
}

extension RecordAppendingWriter {
    public func recordsWriter(into output: ByteWriter, diagnostics: DiagnosticLog) -> (any FeatureWriter)? { nil }

    public mutating func appendRecords(_ bytes: [UInt8], count: Int) throws(GeoConvError) {
        throw GeoConvError(
            .unsupported, "this writer takes no records written elsewhere",
            hint: "a writer that appends records gives a recordsWriter(into:diagnostics:)")
    }

    public func selectiveRecordsWriter() -> (any SelectiveRecordsWriter<RecordFacts>)? { nil }

    public mutating func appendRecords(
        _ records: WrittenRecords<RecordFacts>, locating locate: (Int) -> Void
    ) throws(GeoConvError) {
        try appendRecords(records.bytes, count: records.count)
    }
}

/// A writer that writes no records apart, as a `RecordAppendingWriter` that declines them:
/// how the parallel route takes a format's writer that is nothing more than a
/// `FeatureWriter` (`WriterMaking.features`).
package struct RecordlessWriter: RecordAppendingWriter {
    package var base: any FeatureWriter

    package init(_ base: any FeatureWriter) { self.base = base }

    package mutating func begin(_ header: DocumentHeader) throws(GeoConvError) { try base.begin(header) }

    package mutating func write(_ feature: Feature) throws(GeoConvError) { try base.write(feature) }

    package mutating func finish() throws(GeoConvError) { try base.finish() }
}

/// Writes, on another thread, the features whose records neither depend on what the
/// document's writer has seen nor change it, but for facts it takes in order when the
/// records are added (a KML schema's field types, shared-style ids); the others are left to
/// that writer, in order. What is to be reported about a record goes with those facts: the
/// document's writer reports it, at the record's feature.
/// (A class: a batch asks it about every feature, and a value in an existential would be
/// copied out and back each time.)
public protocol SelectiveRecordsWriter<Facts>: AnyObject {
    /// What the records teach the document's writer (its `RecordAppendingWriter.RecordFacts`).
    associatedtype Facts
    /// Writes `feature` as a record and returns `true`, or writes nothing and returns
    /// `false` when only the document's writer can write it.
    func writeRecord(_ feature: Feature) -> Bool
    /// The records written since the last call, with what they teach the document's writer.
    func takeRecords() -> WrittenRecords<Facts>
}

/// Records a selective records writer wrote, with what the document's writer learns from
/// them (its format's own facts, each about one of the records).
public struct WrittenRecords<Facts> {
    /// The records' bytes, in order.
    public var bytes: [UInt8]
    /// How many records.
    public var count: Int
    /// What the document's writer learns from them, in its format's terms (`nil` for records
    /// that teach it nothing).
    public var facts: Facts?

    /// Records written.
    public init(bytes: [UInt8], count: Int, facts: Facts? = nil) {
        self.bytes = bytes
        self.count = count
        self.facts = facts
    }
}

/// Features made on another thread for a writer, put into it later in order: written there
/// as records by a writer made from it, when its records can be written apart
/// (`RecordAppendingWriter.recordsWriter`), else kept for it to write — or both, when a
/// selective records writer writes the features whose records stand alone and leaves the
/// others. Made on the writer's thread, filled on one worker, then written on the writer's
/// thread again: one thread at a time. (A class: a generic struct's methods, called per
/// feature from code not specialized for `Facts`, looked its type up on every call.)
package final class FeatureBatch<Facts> {
    /// The batch's diagnostics (its records writer's among them).
    package let log: DiagnosticLog
    // Used by one thread at a time (see the type): no exclusivity checks per feature.
    @exclusivity(unchecked) private var records: (writer: any FeatureWriter, output: ByteWriter)?
    @exclusivity(unchecked) private var written: [UInt8]?
    /// Where the records' buffer comes from and goes back to.
    private let spares: SpareBuffers?
    private let selective: (any SelectiveRecordsWriter<Facts>)?
    /// With a selective records writer: what the batch holds, in order — runs of records
    /// (with the ordinal of the feature each was made from) and features kept for the writer.
    @exclusivity(unchecked) private var pieces: [Piece] = []
    /// The ordinals of the records in the run being written (selective records writer).
    @exclusivity(unchecked) private var runOrdinals: [Int] = []
    /// Features kept for the writer, each with the ordinal of the feature it was made from
    /// in the batch's input (for its warnings' place, found only when one needs it).
    @exclusivity(unchecked) private var kept: [(feature: Feature, ordinal: Int)] = []
    /// The features added.
    @exclusivity(unchecked) package private(set) var count = 0
    /// Which of the three ways the batch goes (asked per feature: comparing an optional
    /// existential with nil copies it).
    private let writesRecords: Bool, writesSelectively: Bool

    private enum Piece {
        case records(WrittenRecords<Facts>, ordinals: [Int])
        case kept(Feature, ordinal: Int)
    }

    /// A batch for `writer`, begun, made on the writer's thread (a records writer starts
    /// from its state); its records written into a buffer `spares` kept, and given back to
    /// them once written.
    package init<Writer: RecordAppendingWriter>(
        for writer: Writer, log: DiagnosticLog, spares: SpareBuffers? = nil
    ) throws(GeoConvError)
    where Writer.RecordFacts == Facts {
        self.log = log
        self.spares = spares
        let output = if let spares { try ByteWriter(memoryReusing: spares) } else { try ByteWriter(.memory) }
        if let made = writer.recordsWriter(into: output, diagnostics: log) {
            records = (made, output)
            selective = nil
        } else {
            selective = writer.selectiveRecordsWriter()
        }
        writesRecords = records != nil
        writesSelectively = !writesRecords && selective != nil
    }

    /// Writes `feature` as a record, or keeps it with `ordinal`: which feature of the batch's
    /// input it was made from (`-1` when unknown), for `write(into:diagnostics:locating:)`.
    package func add(_ feature: Feature, ordinal: Int = -1) throws(GeoConvError) {
        // In place: a copy out of the optional would copy the writer's buffer.
        if writesRecords {
            try records?.writer.write(feature)
        } else if writesSelectively, let selective {
            if selective.writeRecord(feature) {
                runOrdinals.append(ordinal)
            } else {
                keep(feature, ordinal: ordinal)
            }
        } else {
            kept.append((feature, ordinal))
        }
        count += 1
    }

    /// Keeps `feature` for the writer, after the run of records being written (selective
    /// records writer). Apart from `add`: a piece's layout depends on `Facts`, looked up
    /// where one is made.
    @inline(never)
    private func keep(_ feature: Feature, ordinal: Int) {
        endRun()
        pieces.append(.kept(feature, ordinal: ordinal))
    }

    /// Closes the run of records being written (selective records writer).
    private func endRun() {
        guard !runOrdinals.isEmpty, let records = selective?.takeRecords() else { return }
        pieces.append(.records(records, ordinals: runOrdinals))
        runOrdinals = []
    }

    /// Ends the records, after the last `add`, on the thread that added them.
    package func finish() throws(GeoConvError) {
        endRun()
        guard let output = records?.output else { return }
        try records?.writer.finish()
        try output.commit()
        written = output.memoryContents
    }

    /// Puts the batch into `writer` (on its thread), after what it wrote before. What the
    /// writer reports about a kept feature (or a record) is placed by `locate`, given the
    /// feature's ordinal, and asked only when a message needs a place (the first of each
    /// kind): no place is made or kept per feature. Once: the pieces are let go of as they
    /// are written.
    package func write<Writer: RecordAppendingWriter>(
        into writer: inout Writer, diagnostics: DiagnosticLog,
        locating locate: @escaping (Int) -> SourceLocation? = { _ in nil }
    ) throws(GeoConvError)
    where Writer.RecordFacts == Facts {
        if let bytes = written {
            written = nil
            try writer.appendRecords(bytes, count: count)
            spares?.keep(bytes)
            return
        }
        // The ordinal of the feature being written, when known.
        let current = FeatureCursor()
        diagnostics.locateCurrent { current.ordinal < 0 ? nil : locate(current.ordinal) }
        defer { diagnostics.currentLocation = nil }
        if selective != nil {
            // (Each piece let go of once written: a writer may hand a run's buffer on, which
            // is then this batch's no longer.)
            pieces.reverse()
            while let piece = pieces.popLast() {
                switch piece {
                case .records(let records, let ordinals):
                    try writer.appendRecords(records) { index in
                        current.ordinal = ordinals.indices.contains(index) ? ordinals[index] : -1
                    }
                case .kept(let feature, let ordinal):
                    current.ordinal = ordinal
                    try writer.write(feature)
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
    /// (Set per feature, by the one thread working on the run: no exclusivity checks.)
    @exclusivity(unchecked) package var ordinal = -1

    package init() {}
}
