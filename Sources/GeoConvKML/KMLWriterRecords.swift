import GeoConvCore

/// Placemarks written on other threads (`--jobs`): most placemarks of a large file take
/// nothing from what the document's writer has seen but the schema's field types, which
/// only widen, so a copy of its state writes them and the writer learns the types they made
/// when their bytes are added, in order. A placemark that needs the writer's state — a
/// string id (ids are unique), a style, a folder, any property the writer asks for by name
/// (`KMLWriterState.askedNames`), gx — or that would be reported about is left to it, so
/// the output and the messages are a sequential run's.
struct KMLRecordsWriter: SelectiveRecordsWriter {
    private let state: KMLWriterState
    private var records: [UInt8] = []

    /// A writer from the document writer's state, on its thread.
    init?(from writer: KMLWriterState) {
        guard let output = try? ByteWriter(.memory) else { return nil }
        state = KMLWriterState(output: output, options: writer.options, diagnostics: DiagnosticLog())
        state.schema = writer.schema
        state.notedTypes = writer.notedTypes
        state.learned = []
    }

    mutating func writeRecord(_ feature: Feature) -> Bool {
        guard feature.style.isEmpty, !feature.hasStringID, !KMLWriterState.asksForProperties(feature) else { return false }
        let learnedBefore = state.learned?.count ?? 0
        state.usesGX = false
        do throws(GeoConvError) {
            try state.buildPlacemark(feature, hasAskedProperties: false)
        } catch {
            return decline(learnedBefore)
        }
        guard state.diagnostics.isEmpty, !state.usesGX else { return decline(learnedBefore) }
        records.append(contentsOf: state.buffer)
        state.recordIndex += 1
        return true
    }

    /// Forgets what a placemark left to the document's writer noted or reported.
    private func decline(_ learnedBefore: Int) -> Bool {
        state.learned?.removeLast((state.learned?.count ?? 0) - learnedBefore)
        if !state.diagnostics.isEmpty { state.diagnostics.replace(with: DiagnosticLog()) }
        return false
    }

    mutating func takeRecords() -> WrittenRecords {
        defer {
            records.removeAll(keepingCapacity: true)
            state.learned?.removeAll(keepingCapacity: true)
            state.recordIndex = 0
        }
        return WrittenRecords(bytes: records, count: state.recordIndex, facts: state.learned)
    }
}

extension KMLWriterState {
    /// Adds placemarks a records writer wrote, after the folders are closed (they were
    /// written outside any), having learned the field types they made.
    func appendRecords(_ records: WrittenRecords, locating locate: (Int) -> Void) throws(GeoConvError) {
        buffer.removeAll(keepingCapacity: true)
        try moveToFolder([])
        if !buffer.isEmpty { try emit(buffer) }
        if let facts = records.facts as? [LearnedType] {
            for fact in facts {
                locate(fact.record)
                try learn(fact)
            }
        }
        try emit(records.bytes)
    }
}

extension Feature {
    /// Whether the feature's id is a string (KML ids are unique: the writer keeps them).
    var hasStringID: Bool {
        if case .string? = id { return true }
        return false
    }
}
