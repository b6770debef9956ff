public import GeoConvCore
public import GeoConvFormatKit
import GeoConvIO
internal import Synchronization

/// Placemarks written on other threads (`--jobs`): most placemarks of a large file take
/// nothing from what the document's writer has seen but the schema's field types, which
/// only widen, and the ids of their shared styles, which the writer gives in order; so a
/// copy of its state writes them, noting the types they made, where their `styleUrl`s go
/// and what it would report about them, and the writer learns and reports those when their
/// bytes are added, in order, at their features. A `styleUrl` whose id the writer has
/// already given (`KMLRecordsShare`) is written at once: an id, once given, stays. A
/// placemark that needs the writer's state — a string id (ids are unique), a style the
/// source named or a StyleMap, a folder, any property the writer asks for by name
/// (`KMLWriterState.askedNames`), gx — is left to it, so the output and the messages are a
/// sequential run's.
final class KMLRecordsWriter: SelectiveRecordsWriter {
    typealias Facts = KMLRecordFacts

    /// The writer state the placemarks are built in; its `buffer` holds those written since
    /// the last `takeRecords`, each built there in place.
    private let state: KMLWriterState

    /// A writer from the document writer's state, on its thread.
    init?(from writer: KMLWriterState) {
        guard let output = try? ByteWriter(.memory) else { return nil }
        state = KMLWriterState(output: output, options: writer.options, diagnostics: DiagnosticLog())
        state.schema = writer.schema
        // (Keys of its own: each placemark's properties are checked against these, which
        // copies a key out, and a long one shared with the other workers' writers would have
        // its count fought over.)
        state.notedTypes = writer.notedTypes.map { noted in
            noted.map { (String(decoding: Array($0.key.utf8), as: UTF8.self), $0.type, $0.field) }
        }
        state.events = []
        state.styleReferences = []
        if writer.recordsShare == nil {
            // (With the styles the writer named before any records writer existed: the first
            // runs' placemarks styled so are written here too.)
            let share = KMLRecordsShare()
            for (xml, id) in writer.styleIDs { share.record(KMLWriterState.styleURLBytes(id: id), for: xml) }
            writer.recordsShare = share
        }
        state.recordsShare = writer.recordsShare
        // (A writer is made for each run: the buffer of a run written before, not a new one
        // growing into fresh pages at a page fault every 4 KiB.)
        state.buffer = state.recordsShare?.spares.take() ?? []
    }

    deinit {
        // (The spare taken after its last run, unused: kept for the next writer.)
        if state.buffer.isEmpty { state.recordsShare?.spares.keep(state.buffer) }
    }

    func writeRecord(_ feature: Feature) -> Bool {
        guard !feature.hasStringID, !KMLWriterState.asksForProperties(feature) else { return false }
        let eventsBefore = state.events?.count ?? 0
        let referencesBefore = state.styleReferences?.count ?? 0
        let start = state.buffer.count
        state.usesGX = false
        do throws(GeoConvError) {
            // Straight after the records before it: no copy per placemark, and its style
            // references straight after theirs.
            try state.buildPlacemark(feature, hasAskedProperties: false)
        } catch {
            return decline(eventsBefore, referencesBefore, start: start)
        }
        guard state.diagnostics.isEmpty, !state.usesGX else {
            return decline(eventsBefore, referencesBefore, start: start)
        }
        state.recordIndex += 1
        return true
    }

    /// Forgets what a placemark left to the document's writer wrote, noted or reported.
    private func decline(_ eventsBefore: Int, _ referencesBefore: Int, start: Int) -> Bool {
        state.buffer.removeSubrange(start...)
        state.events?.removeLast((state.events?.count ?? 0) - eventsBefore)
        state.styleReferences?.removeLast((state.styleReferences?.count ?? 0) - referencesBefore)
        if !state.diagnostics.isEmpty { state.diagnostics.replace(with: DiagnosticLog()) }
        return false
    }

    func takeRecords() -> WrittenRecords<Facts> {
        defer {
            // (A run's bytes the document's writer is done with, when there is one: the bytes
            // returned still share this buffer, so emptying it would make a new one, growing
            // into fresh pages at a page fault every 4 KiB.)
            state.buffer = state.recordsShare?.spares.take() ?? []
            state.styleReferences?.removeAll(keepingCapacity: true)
            state.events?.removeAll(keepingCapacity: true)
            state.recordIndex = 0
        }
        return WrittenRecords(
            bytes: state.buffer, count: state.recordIndex,
            facts: KMLRecordFacts(events: state.events ?? [], styles: state.styleReferences ?? []))
    }
}

/// What the document's writer shares with its records writers on other threads.
///
/// The `<styleUrl>`s of the shared styles it has given an id, by the style's XML: records
/// writers write these at once instead of leaving their place to the writer. An id, once
/// given, stays, and the writer adds runs in order, so a `styleUrl` found here is the one it
/// would have written in the placemark's place.
///
/// The buffers of the runs it has written, for the records writers to write the next runs
/// into (a few, the size of a run each).
final class KMLRecordsShare: Sendable {
    private let table = Mutex<[String: [UInt8]]>([:])
    /// The buffers of the runs it has written, for the next runs.
    let spares = SpareBuffers()

    /// The `<styleUrl>` of the style with this XML, if the document's writer gave one: a copy
    /// of its own for the caller, which retains it once a placemark (on a shared buffer, the
    /// workers would fight over its count).
    func styleURL(_ xml: String) -> [UInt8]? {
        table.withLock { $0[xml] }?.withUnsafeBufferPointer { Array($0) }
    }

    /// At most this many are kept (the writer's own tables keep every style; beyond these,
    /// the records writers leave the references' places to it, as before any was given).
    static let capacity = 65_536

    /// Records the `<styleUrl>` the document's writer gave the style with this XML.
    func record(_ bytes: [UInt8], for xml: String) {
        table.withLock { table in
            if table.count < Self.capacity, table[xml] == nil { table[xml] = bytes }
        }
    }
}

/// A placemark may depend on what came before it (ids, styles, folders): no records alone
/// (`recordsWriter` is `nil`), but placemarks written elsewhere by a selective records writer.
extension KMLWriter: RecordAppendingWriter {
    public typealias RecordFacts = KMLRecordFacts

    /// The placemarks that take nothing from the writer's state but what it learns when it
    /// adds them (`KMLRecordsWriter`); none when the bytes go nowhere (`geoconv info`).
    public func selectiveRecordsWriter() -> (any SelectiveRecordsWriter<RecordFacts>)? {
        state.discards ? nil : KMLRecordsWriter(from: state)
    }

    public mutating func appendRecords(
        _ records: WrittenRecords<RecordFacts>, locating locate: (Int) -> Void
    ) throws(GeoConvError) {
        try state.appendRecords(records, locating: locate)
    }
}

/// What a run of placemarks written on another thread (`KMLRecordsWriter`) tells the
/// document's writer when it adds them (the `RecordFacts` of `KMLWriter`).
public struct KMLRecordFacts {
    /// The field types they made and what is to be reported about them, in order.
    var events: [KMLWriterState.RecordEvent]
    /// Where their `styleUrl`s go in the run's bytes, in order.
    var styles: [KMLWriterState.StyleReference]
}

extension KMLWriterState {
    /// Where a placemark's `styleUrl` goes, and the style it names (`sharedStyle`'s XML).
    struct StyleReference {
        var offset: Int
        var xml: String
    }

    /// Adds placemarks a records writer wrote, after the folders are closed (they were
    /// written outside any), having learned the field types they made, with the ids of the
    /// shared styles they name put in (given here, in order).
    func appendRecords(_ records: WrittenRecords<KMLRecordFacts>, locating locate: (Int) -> Void) throws(GeoConvError) {
        buffer.removeAll(keepingCapacity: true)
        try moveToFolder([])
        if !buffer.isEmpty { try emit(buffer) }
        defer { recordsShare?.spares.keep(records.bytes) }
        guard let facts = records.facts else { return try emit(records.bytes) }
        for event in facts.events {
            switch event {
            case .type(let fact):
                locate(fact.record)
                try learn(fact)
            case .warning(let record, let code, let message, let hint):
                locate(record)
                try diagnostics.warn(code, message, hint: hint)
            case .note(let record, let code, let message):
                locate(record)
                diagnostics.note(code, message)
            }
        }
        guard !facts.styles.isEmpty else { return try emit(records.bytes) }
        buffer.removeAll(keepingCapacity: true)
        var start = 0
        records.bytes.withUnsafeBufferPointer { bytes in
            for reference in facts.styles {
                buffer.append(contentsOf: bytes[start..<reference.offset])
                buffer.append(contentsOf: styleURL(reference.xml))
                start = reference.offset
            }
            buffer.append(contentsOf: bytes[start...])
        }
        try emit(buffer)
    }
}
extension Feature {
    /// Whether the feature's id is a string (KML ids are unique: the writer keeps them).
    var hasStringID: Bool {
        if case .string? = id { return true }
        return false
    }
}
