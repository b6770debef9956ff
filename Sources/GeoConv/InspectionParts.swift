import GeoConvCore
import GeoConvFormatKit
import GeoConvParallel
import OrderedCollections
import Synchronization

/// Features read for `inspect`, in input order, with their shapes
/// (numbered for the input; `nil` where a feature has none) and how to place a message about
/// one: by its index among `features`, asked only for the first message of a kind.
struct InspectionPiece: @unchecked Sendable {
    var features: [Feature]
    var shapes: [FeatureShape?]
    /// For each feature with a shape, where the run of features of its shape it starts ends.
    var runEnds: [Int]
    /// The kinds of the features' geometries (asked of each target's transforms, so that they
    /// need not look at every feature for each target: `leavesUnchanged(geometriesOf:)`).
    var kinds: Set<GeometryKind>
    var locate: (Int) -> SourceLocation?

    init(features: [Feature], shapes: [FeatureShape?], locate: @escaping (Int) -> SourceLocation?) {
        self.features = features
        self.shapes = shapes
        self.locate = locate
        var runEnds = [Int](repeating: 0, count: shapes.count)
        var end = shapes.count
        for index in shapes.indices.reversed() {
            if index + 1 < shapes.count, shapes[index] == nil || shapes[index] != shapes[index + 1] { end = index + 1 }
            runEnds[index] = end
        }
        self.runEnds = runEnds
        var met = [Bool](repeating: false, count: GeometryKind.allCases.count)
        let pointSlot = GeometryKind.allCases.firstIndex(of: .point) ?? 0
        for feature in features {
            if case .point? = feature.geometry {
                met[pointSlot] = true  // (the common kind, without its name looked for)
            } else if let kind = feature.geometry?.kind, let slot = GeometryKind.allCases.firstIndex(of: kind) {
                met[slot] = true
            }
        }
        kinds = Set(GeometryKind.allCases.indices.filter { met[$0] }.map { GeometryKind.allCases[$0] })
    }
}

/// What `inspect` counts of the features, counted apart for each piece (on any thread) and
/// added to the report in input order: the result is the same as one count of them all.
struct InspectionCounts {
    var features = 0
    /// Features by geometry kind (`GeometryKind.allCases`' order, then none), and the kinds
    /// in the order first met.
    var kindCounts = [Int](repeating: 0, count: GeometryKind.allCases.count + 1)
    var kindsMet: [Int] = []
    var emptyGeometries = 0
    var coordinates = 0
    var hasAltitude = false
    /// Each geometry's bounds in order: the report folds them in input order, as the union
    /// across the antimeridian depends on it.
    var boxes: [CoordinateBounds] = []
    var properties: OrderedDictionary<String, InspectionReport.PropertyStatistics> = [:]
    /// The JSON types each property was seen with, as bits (`typeBit`), beside `properties`.
    var typesSeen: [UInt8] = []
    /// The places in `properties` of the feature before's keys, by position (the next
    /// feature's keys are most often the same, in the same order: compared, not hashed).
    var recentKeys: [(key: String, index: Int)] = []
    var titled = 0
    var described = 0
    var styled = 0
    /// For each of the piece's shapes (its `FeatureShaper`'s places, in first-seen order), the
    /// places in `properties` of its keys, in order, and how many features of it after the
    /// first were counted without their properties looked at: features of one shape have the
    /// same keys with values of the same JSON types.
    var shapeKeys: [[Int]] = []
    var shapeRepeats: [Int] = []

    /// Counts what `checks` (range check, reprojection to WGS84) make of `feature`: its
    /// first feature, as a conversion would write it (no array made per feature). `shape` is
    /// the feature's place among its piece's shapes (`FeatureShaper.add`), -1 for none.
    mutating func add(
        _ feature: Feature, shape: Int32 = -1, checkedBy checks: inout [any FeatureTransform],
        diagnostics: DiagnosticLog
    )
        throws(GeoConvError)
    {
        var counted = false
        try checks.apply(to: feature, diagnostics: diagnostics) { (checked: inout Feature) in
            // (The checks change geometries only: the properties are the shape's.)
            if !counted { add(checked, shape: shape) }
            counted = true
        }
    }

    mutating func add(_ feature: Feature, shape: Int32 = -1) {
        features += 1
        let slot = feature.geometry.map { GeometryKind.allCases.firstIndex(of: $0.kind) ?? 0 } ?? kindCounts.count - 1
        if kindCounts[slot] == 0 { kindsMet.append(slot) }
        kindCounts[slot] += 1
        if case .point(let c)? = feature.geometry {
            // (The common geometry, without walking its one position three times.)
            coordinates += 1
            if c.altitude != nil { hasAltitude = true }
            boxes.append(CoordinateBounds(c, c))
        } else if let geometry = feature.geometry {
            if geometry.isEmpty { emptyGeometries += 1 }
            coordinates += geometry.coordinateCount
            if geometry.hasAltitude { hasAltitude = true }
            if let box = geometry.bounds { boxes.append(box) }
        }
        if shape >= 0, Int(shape) < shapeKeys.count {
            shapeRepeats[Int(shape)] += 1
        } else {
            let places = addProperties(of: feature)
            // (Places are given in first-seen order: a new shape is the next one.)
            if shape >= 0, Int(shape) == shapeKeys.count {
                shapeKeys.append(places)
                shapeRepeats.append(0)
            }
        }
        if feature.title != nil { titled += 1 }
        if feature.snippet != nil { described += 1 }
        if !feature.style.isEmpty { styled += 1 }
    }

    /// Counts the feature's properties and the types of their values; returns their places
    /// in `properties`.
    private mutating func addProperties(of feature: Feature) -> [Int] {
        var places: [Int] = []
        for (position, (key, value)) in feature.properties.enumerated() {
            let index: Int
            if position < recentKeys.count, recentKeys[position].key == key {
                index = recentKeys[position].index
            } else {
                if let known = properties.index(forKey: key) {
                    index = known
                } else {
                    index = properties.count
                    properties[key] = InspectionReport.PropertyStatistics(count: 0, types: [])
                    typesSeen.append(0)
                }
                if position < recentKeys.count {
                    recentKeys[position] = (key, index)
                } else {
                    recentKeys.append((key, index))
                }
            }
            properties.values[index].count += 1
            let bit = Self.typeBit(value)
            if typesSeen[index] & bit == 0 {
                typesSeen[index] |= bit
                properties.values[index].types.append(value.typeName)
            }
            places.append(index)
        }
        return places
    }

    /// A bit for each JSON type.
    private static func typeBit(_ value: JSONValue) -> UInt8 {
        switch value {
        case .null: 1
        case .bool: 2
        case .number: 4
        case .string: 8
        case .array: 16
        case .object: 32
        }
    }

    /// Adds these counts to `report`, after those already in it.
    func add(to report: inout InspectionReport) {
        report.featureCount += features
        for slot in kindsMet {
            let kind = slot < GeometryKind.allCases.count ? GeometryKind.allCases[slot].rawValue : "null"
            report.geometryKinds[kind, default: 0] += kindCounts[slot]
        }
        report.emptyGeometries += emptyGeometries
        report.coordinateCount += coordinates
        if hasAltitude { report.hasAltitude = true }
        for box in boxes { report.bounds = report.bounds.map { $0.union(box) } ?? box }
        var repeats = [Int](repeating: 0, count: properties.count)
        for (shape, places) in shapeKeys.enumerated() where shapeRepeats[shape] > 0 {
            for place in places { repeats[place] += shapeRepeats[shape] }
        }
        for (place, (key, seen)) in properties.enumerated() {
            var stats = report.properties[key] ?? InspectionReport.PropertyStatistics(count: 0, types: [])
            stats.count += seen.count + repeats[place]
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
    @exclusivity(unchecked) var writer: any LossKeyedWriter
    @exclusivity(unchecked) var transforms: [any FeatureTransform] = []
    let log: DiagnosticLog
    /// Whether the format refused the input (reported once; nothing more is written).
    private(set) var failed = false
    /// Whether features whose writer gives a `lossKey` are written once per key, and their
    /// codes counted again for the others (off when the log cannot count them again).
    private let memoizes: Bool
    /// The codes written for each key (their places in the log), and the last key met.
    private var memo: [LossKey: [Int]] = [:]
    /// The most keys kept (then forgotten at once, and learnt again).
    private static let memoLimit = 1 << 14
    private var last: (key: LossKey, places: [Int])?
    /// The target whose writer writes this one's features (`writesFeaturesAs`), and its
    /// log's counts after its header: this one writes only its header, and takes the rest
    /// of the twin's log as its own.
    var featureTwin: (target: InspectionTarget, checkpoint: DiagnosticLog.Checkpoint)? {
        didSet { besideLog = featureTwin != nil && writer.checksBesideTwin ? DiagnosticLog() : nil }
    }
    /// For a twin whose writer checks more than its twin's (`checksBesideTwin`: KMZ's local
    /// files): what those checks report, taken after the twin's log, as a conversion reports
    /// them after what the twin's writer reports.
    private(set) var besideLog: DiagnosticLog?
    /// Whether the features are handed to this target: it writes them, or checks what its
    /// writer adds to its twin's.
    var takesFeatures: Bool { featureTwin == nil || besideLog != nil }

    init(name: String, writer: any LossKeyedWriter, log: DiagnosticLog, memoizes: Bool) {
        self.name = name
        self.writer = writer
        self.log = log
        self.memoizes = memoizes && log.canRecord
    }

    func refuse(_ error: GeoConvError) {
        try? log.warn(refusalBy: name, error.message)
        failed = true
    }

    /// Finishes the writer (into nowhere), as a conversion would once every feature is
    /// written; a twin, only what its writer adds to its twin's finish.
    func finish() {
        guard !failed, takesFeatures else { return }
        log.currentLocation = nil
        do throws(GeoConvError) {
            if let besideLog { try writer.finishBesideTwin(diagnostics: besideLog) } else { try writer.finish() }
        } catch {
            refuse(error)
        }
    }

    /// Takes the twin's log after this target's header, then what this one's own checks
    /// reported: the losses of a conversion to this format, in its order.
    func absorbTwin() {
        guard let (twin, checkpoint) = featureTwin, !failed else { return }
        log.absorb(twin.log, since: checkpoint)
        if let besideLog { log.absorb(besideLog) }
    }

    /// Writes the piece's features as a conversion to this format would (a twin only checks
    /// what its writer adds: see `featureTwin`), noting what it loses. The features are
    /// handed to the writer from the piece's storage, borrowed, not copied; when the
    /// transforms leave all of a piece's features alone (most pieces: known from their
    /// geometries' kinds for most transforms), they are not run.
    func write(_ piece: InspectionPiece) {
        guard !failed else { return }
        if let besideLog { return checkBesideTwin(piece, into: besideLog) }
        let cursor = FeatureCursor()
        defer { log.currentLocation = nil }
        log.locateCurrent { cursor.ordinal < 0 ? nil : piece.locate(cursor.ordinal) }
        piece.features.withUnsafeBufferPointer { features in
            let unchanged = transforms.allSatisfy {
                $0.leavesUnchanged(geometriesOf: piece.kinds) || $0.leavesUnchanged(features)
            }
            let shapes = unchanged && memoizes ? piece.shapes : []
            var index = 0
            while index < features.count, !failed {
                cursor.ordinal = index
                index = features.withBorrowedFeature(at: index) { feature in
                    guard index < shapes.count, let shape = shapes[index] else {
                        write(feature, unchanged: unchanged)
                        return index + 1
                    }
                    return index + write(feature, shape: shape, runLength: piece.runEnds[index] - index)
                }
            }
        }
    }

    /// A twin's part of writing the piece: each feature, as the transforms leave it, checked
    /// for what this writer adds to its twin's (the twin reports what the transforms say).
    private func checkBesideTwin(_ piece: InspectionPiece, into besideLog: DiagnosticLog) {
        let cursor = FeatureCursor()
        defer { besideLog.currentLocation = nil }
        besideLog.locateCurrent { cursor.ordinal < 0 ? nil : piece.locate(cursor.ordinal) }
        let transformsLog = DiagnosticLog()
        piece.features.withUnsafeBufferPointer { features in
            let unchanged = transforms.allSatisfy {
                $0.leavesUnchanged(geometriesOf: piece.kinds) || $0.leavesUnchanged(features)
            }
            for index in features.indices where !failed {
                cursor.ordinal = index
                do throws(GeoConvError) {
                    if unchanged {
                        try writer.checkBesideTwin(features[index], diagnostics: besideLog)
                    } else {
                        try transforms.apply(to: features[index], diagnostics: transformsLog) {
                            (item: inout Feature) throws(GeoConvError) in
                            try writer.checkBesideTwin(item, diagnostics: besideLog)
                        }
                    }
                } catch {
                    // (A feature the transforms refuse is the twin's to report; the checks only
                    // warn, and info's logs are not strict.)
                    continue
                }
            }
        }
    }

    /// Writes a feature the transforms leave alone, the first of `runLength` of its shape,
    /// unless one of the same key (the writer's `lossKey`) was written before: then the codes
    /// that one counted are counted again, for the whole run when the key follows the shape.
    /// Returns how many features it wrote or counted.
    private func write(_ feature: Feature, shape: FeatureShape, runLength: Int) -> Int {
        guard let key = writer.lossKey(of: feature, shape: shape) else {
            write(feature, unchanged: true)
            return 1
        }
        let places: [Int]
        if let last, last.key == key {
            places = last.places
        } else if let known = memo[key] {
            places = known
            last = (key, known)
        } else {
            log.startRecording()
            write(feature, unchanged: true)
            if let places = log.stopRecording() {
                // (Keys of states the writer has left behind stay: bounded, not growing with the input.)
                if memo.count >= Self.memoLimit { memo.removeAll(keepingCapacity: true) }
                memo[key] = places
                last = (key, places)
            }
            return 1
        }
        let times = key.followsShape ? runLength : 1
        writer.countAgain(key, times: times)
        log.countAgain(places, times: times)
        return times
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
    /// Whether the features' shapes are worked out (`FeatureShaper`).
    let shapesFeatures: Bool
    /// What a feature is checked with before it is counted (a fresh set for each run).
    let makeChecks: () -> [any FeatureTransform]

    /// What a worker made of a run.
    private struct Outcome: @unchecked Sendable {
        var features: [Feature] = []
        var counts = InspectionCounts()
        var shaper = FeatureShaper()
        var log = DiagnosticLog()
        var error: GeoConvError?
    }

    /// Features with at most this many positions each, on average over the first run, are
    /// written run by run on the thread that read them (`read`); larger ones a few runs at a
    /// time, in the background, each target on the next free core.
    static let positionsWrittenInTurn = 16

    /// Reads the runs `nextRun` cuts, absorbing what is said while reading into `log` and
    /// handing their counts to `count`, in order, and their pieces to the targets, in order,
    /// in one of two ways, chosen on the first run:
    /// - small features (points, short lines: many features, few positions) are handed to
    ///   `writeInTurn`, each run on the thread that read it as soon as the run before is
    ///   written (`inPipeline`'s `inOrder`), so that their features are let go of where they
    ///   were made: memory freed on another thread contends for the allocator's lock of the
    ///   thread that made it, and small features are many allocations for little work;
    /// - large ones, whose writing is the larger part of the work, are handed to
    ///   `writeLater` a few runs at a time, written while the next runs are read.
    func read(
        into log: DiagnosticLog, shapes: FeatureShapeTable?, count: (InspectionCounts) -> Void,
        writeInTurn: @escaping (InspectionPiece) -> Void, writeLater: ([InspectionPiece]) -> Void,
        nextRun: (Int) throws(GeoConvError) -> FeatureRun?
    ) throws(GeoConvError) {
        // (Set by the first run's turn, which comes before every run is consumed.)
        let inTurn = Mutex<Bool?>(nil)
        var pieces: [InspectionPiece] = []
        try inPipeline(
            jobs: jobs, window: jobs * 2, cut: { () throws(GeoConvError) in try nextRun(size) },
            process: { process($0) },
            inOrder: { run, outcome in
                let small = inTurn.withLock { chosen in
                    let counts = outcome.counts
                    let small = chosen ?? (counts.coordinates <= Self.positionsWrittenInTurn * max(1, counts.features))
                    chosen = small
                    return small
                }
                guard small, outcome.error == nil else { return }
                let piece = InspectionPiece(
                    features: outcome.features, shapes: shapes?.shapes(of: outcome.shaper) ?? []
                ) { index in locate(index, in: run) }
                outcome.features = []
                writeInTurn(piece)
            }
        ) {
            (run, outcome) throws(GeoConvError) in
            log.absorb(outcome.log, relocating: run.relocate)
            if let error = outcome.error { throw error.relocated(run.relocate) }
            count(outcome.counts)
            guard inTurn.withLock({ $0 }) == false else { return }
            pieces.append(
                InspectionPiece(features: outcome.features, shapes: shapes?.shapes(of: outcome.shaper) ?? []) {
                    index in locate(index, in: run)
                })
            if pieces.count == jobs * 2 {
                writeLater(pieces)
                pieces = []
            }
        }
        if !pieces.isEmpty { writeLater(pieces) }
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
                let shape = shapesFeatures ? outcome.shaper.add(feature) : -1
                try outcome.counts.add(feature, shape: shape, checkedBy: &checks, diagnostics: log)
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
