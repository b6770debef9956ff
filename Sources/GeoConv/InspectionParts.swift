import GeoConvCore
import GeoConvFormatKit
import GeoConvParallel
import OrderedCollections

/// Features read for `inspect`, in input order, with what was counted of them and how to
/// place a message about one: by its index among `features`, asked only for the first
/// message of a kind.
struct InspectionPiece: @unchecked Sendable {
    var features: [Feature]
    var counts: InspectionCounts
    var locate: (Int) -> SourceLocation?
}

/// What `inspect` counts of the features, counted apart for each piece (on any thread) and
/// added to the report in input order: the result is the same as one count of them all.
struct InspectionCounts {
    var features = 0
    var geometryKinds: OrderedDictionary<String, Int> = [:]
    var emptyGeometries = 0
    var coordinates = 0
    var hasAltitude = false
    /// Each geometry's bounds in order: the report folds them in input order, as the union
    /// across the antimeridian depends on it.
    var boxes: [CoordinateBounds] = []
    var properties: OrderedDictionary<String, InspectionReport.PropertyStatistics> = [:]
    var titled = 0
    var described = 0
    var styled = 0

    /// Counts what `checks` (range check, reprojection to WGS84) make of `feature`: its
    /// first feature, as a conversion would write it (no array made per feature).
    mutating func add(
        _ feature: Feature, checkedBy checks: inout [any FeatureTransform], diagnostics: DiagnosticLog
    )
        throws(GeoConvError)
    {
        var counted = false
        try checks.apply(to: feature, diagnostics: diagnostics) { (checked: inout Feature) in
            if !counted { add(checked) }
            counted = true
        }
    }

    mutating func add(_ feature: Feature) {
        features += 1
        let kind = feature.geometry.map { $0.kind.rawValue } ?? "null"
        geometryKinds[kind, default: 0] += 1
        if let geometry = feature.geometry {
            if geometry.isEmpty { emptyGeometries += 1 }
            coordinates += geometry.coordinateCount
            if geometry.hasAltitude { hasAltitude = true }
            if let box = geometry.bounds { boxes.append(box) }
        }
        for (key, value) in feature.properties {
            let type = value.typeName
            if let index = properties.index(forKey: key) {
                properties.values[index].count += 1
                if !properties.values[index].types.contains(type) { properties.values[index].types.append(type) }
            } else {
                properties[key] = InspectionReport.PropertyStatistics(count: 1, types: [type])
            }
        }
        if feature.title != nil { titled += 1 }
        if feature.snippet != nil { described += 1 }
        if !feature.style.isEmpty { styled += 1 }
    }

    /// Adds these counts to `report`, after those already in it.
    func add(to report: inout InspectionReport) {
        report.featureCount += features
        for (kind, count) in geometryKinds { report.geometryKinds[kind, default: 0] += count }
        report.emptyGeometries += emptyGeometries
        report.coordinateCount += coordinates
        if hasAltitude { report.hasAltitude = true }
        for box in boxes { report.bounds = report.bounds.map { $0.union(box) } ?? box }
        for (key, seen) in properties {
            var stats = report.properties[key] ?? InspectionReport.PropertyStatistics(count: 0, types: [])
            stats.count += seen.count
            for type in seen.types where !stats.types.contains(type) { stats.types.append(type) }
            report.properties[key] = stats
        }
        report.titled += titled
        report.described += described
        report.styled += styled
    }
}

/// One format `inspect` writes into nowhere to learn what it would lose. A class: each is
/// handed to one worker thread at a time.
final class InspectionTarget: @unchecked Sendable {
    let name: String
    // Used by one thread at a time (see the type): no exclusivity checks per feature.
    @exclusivity(unchecked) var writer: any FeatureWriter
    @exclusivity(unchecked) var transforms: [any FeatureTransform] = []
    let log: DiagnosticLog
    /// Whether the format refused the input (reported once; nothing more is written).
    private(set) var failed = false
    /// The target whose writer writes this one's features (`writesFeaturesAs`), and its
    /// log's counts after its header: this one writes only its header, and takes the rest
    /// of the twin's log as its own.
    var featureTwin: (target: InspectionTarget, checkpoint: DiagnosticLog.Checkpoint)?

    init(name: String, writer: any FeatureWriter, log: DiagnosticLog) {
        self.name = name
        self.writer = writer
        self.log = log
    }

    func refuse(_ error: GeoConvError) {
        try? log.warn(refusalBy: name, error.message)
        failed = true
    }

    /// Finishes the writer (into nowhere), as a conversion would once every feature is written.
    func finish() {
        guard !failed else { return }
        log.currentLocation = nil
        do throws(GeoConvError) { try writer.finish() } catch { refuse(error) }
    }

    /// Writes the pieces' features as a conversion to this format would (the target is not
    /// a twin: see `featureTwin`), noting what it loses. The features are handed to the
    /// writer from the piece's storage, borrowed, not copied; when the transforms leave all
    /// of a piece's features alone (most pieces), they are not run. One target per call, so
    /// that the targets are spread over the cores as each finishes (they differ in cost).
    func write(_ pieces: [InspectionPiece]) {
        let cursor = FeatureCursor()
        defer { log.currentLocation = nil }
        for piece in pieces where !failed {
            log.locateCurrent { cursor.ordinal < 0 ? nil : piece.locate(cursor.ordinal) }
            piece.features.withUnsafeBufferPointer { features in
                let unchanged = transforms.allSatisfy { $0.leavesUnchanged(features) }
                for index in features.indices where !failed {
                    cursor.ordinal = index
                    features.withBorrowedFeature(at: index) { write($0, unchanged: unchanged) }
                }
            }
        }
    }

    /// Writes one feature as a conversion to this format would: through its transforms,
    /// unless they are known to leave it alone. A refused feature is reported and the next
    /// ones still written.
    private func write(_ feature: Feature, unchanged: Bool) {
        do throws(GeoConvError) {
            if unchanged {
                try writer.write(feature)
            } else {
                try transforms.apply(to: feature, diagnostics: log) { (item: inout Feature) throws(GeoConvError) in
                    try writer.write(item)
                }
            }
        } catch {
            try? log.warn(refusalBy: name, error.message)
        }
    }
}

/// `inspect`'s reading on `jobs` threads: runs of whole features cut here, parsed, checked
/// and counted on the workers, handed on in input order (`inPipeline`: the next runs are
/// parsed while the targets write these). Messages keep their places in the input.
struct InspectionRuns {
    let jobs: Int
    let inputName: String
    /// The size of the runs to cut.
    let size: Int
    /// What a feature is checked with before it is counted (a fresh set for each run).
    let makeChecks: () -> [any FeatureTransform]

    /// What a worker made of a run.
    private struct Outcome: @unchecked Sendable {
        var features: [Feature] = []
        var counts = InspectionCounts()
        var log = DiagnosticLog()
        var error: GeoConvError?
    }

    /// Reads the runs `nextRun` cuts, absorbing what is said while reading into `log` and
    /// handing their pieces to `hand` in order, a few runs at a time (the targets write them
    /// while the next are read).
    func read(
        into log: DiagnosticLog, hand: ([InspectionPiece]) -> Void,
        nextRun: (Int) throws(GeoConvError) -> FeatureRun?
    ) throws(GeoConvError) {
        var pieces: [InspectionPiece] = []
        try inPipeline(
            jobs: jobs, window: jobs * 2, cut: { () throws(GeoConvError) in try nextRun(size) },
            process: { process($0) }
        ) {
            (run, outcome) throws(GeoConvError) in
            log.absorb(outcome.log, relocating: run.relocate)
            if let error = outcome.error { throw error.relocated(run.relocate) }
            pieces.append(
                InspectionPiece(features: outcome.features, counts: outcome.counts) { index in locate(index, in: run) })
            if pieces.count == jobs * 2 {
                hand(pieces)
                pieces = []
            }
        }
        if !pieces.isEmpty { hand(pieces) }
    }

    private func process(_ run: FeatureRun) -> Outcome {
        var outcome = Outcome()
        let log = outcome.log
        do throws(GeoConvError) {
            var reader = try run.reader(named: inputName, diagnostics: log)
            var checks = makeChecks()
            _ = try checks.apply(to: reader.readHeader(), diagnostics: log)
            let current = run.locatesCurrentFeature(in: log, inputName: inputName)
            while let feature = try reader.next() {
                current.ordinal += 1
                outcome.features.append(feature)
                try outcome.counts.add(feature, checkedBy: &checks, diagnostics: log)
            }
            log.currentLocation = nil
        } catch {
            outcome.error = error
        }
        return outcome
    }

    /// Where feature `index` of `run` is in the input (only for the first message of a kind).
    private func locate(_ index: Int, in run: FeatureRun) -> SourceLocation? {
        run.location(ofFeature: index, inputName: inputName)
    }
}
