internal import DequeModule
public import GeoConvCore
public import GeoConvFormatKit
import Synchronization

/// `--jobs` where the conversion's workers write too: the document is read on this thread
/// only as far as the next run of Placemarks (its containers, styles and schemas, and the
/// few features outside runs), and each run goes out with the tables it is to be read with,
/// to be parsed, transformed and written on a worker (`FeatureRunReader`). Without it a
/// run's features are read on a worker and come back here to be written on one thread.
extension KMLReader: FeatureRunReader {
    /// Whether the rest of the document can be handed out in runs: `--jobs` split it, and the
    /// header has been read.
    public var cutsFeatureRuns: Bool { state.scheduler.runs != nil && state.headerDone }

    /// The size and Placemark count of the next run the splitter found, without taking it;
    /// `nil` when it found none (a short document, or one it does not cut).
    public mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)? {
        guard let splitter = state.scheduler.runs?.splitter,
            let run = try splitter.upcomingRuns(after: -1, count: 1).first
        else { return nil }
        return (run.bytes.count, run.placemarks)
    }

    /// What the document holds up to and with its next run of Placemarks (or about `size`
    /// bytes of features read here); `nil` at the document's end. Its features, warnings and
    /// errors come out of the run's reader (a `KMLCutReader`) in the order one thread would
    /// meet them, at the input's places already (the run has no bytes of its own).
    public mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> FeatureRun? {
        guard let cut = state.nextCut(size: size) else { return nil }
        return FeatureRun(bytes: [], line: 1, byteOffset: 0, recordsBefore: 0) { _, diagnostics in
            KMLCutReader(cut: cut, diagnostics: diagnostics)
        }
    }

    /// The splitter scans the document whether or not its runs are handed out.
    public var findsRunsWhileReading: Bool { true }
}

/// A piece of the document as one thread would read it, in order.
enum KMLCutPiece {
    /// Features the document's reader read itself (outside runs), with their places.
    case features(Deque<(feature: Feature, location: SourceLocation?)>)
    /// A run of Placemarks, with the tables the document's reader had at its marker.
    case run(KMLSplitter.Run, KMLReaderSnapshot)
    /// Warnings the document's reader reported between the pieces around it.
    case log(DiagnosticLog)
    /// The error reading stopped at.
    case error(GeoConvError)
}

/// One cut of a document: its pieces and what reading a run needs. Made on the document
/// reader's thread and only read after, by one worker at a time (a class so that the
/// tables are handed over, not copied).
final class KMLCut: @unchecked Sendable {
    let pieces: [KMLCutPiece]
    let header: DocumentHeader
    let context: KMLRunContext
    /// Where the runs' readers put the shared styles their placemarks used.
    let styleUses: KMLStyleUses

    init(pieces: [KMLCutPiece], state: KMLReaderState, reading: KMLRunReading, styleUses: KMLStyleUses) {
        self.pieces = pieces
        header = state.header
        context = reading.context(name: state.name, options: state.options, like: state.diagnostics)
        self.styleUses = styleUses
    }
}

/// The shared styles and schema fields used by the placemarks of runs read on workers,
/// gathered for the document's reader to report the unused ones at the end, as one thread does.
final class KMLStyleUses: Sendable {
    private let ids = Mutex<(styles: Set<String>, fields: Set<String>)>(([], []))

    /// Adds the style ids and the schema field names a run used.
    func add(_ used: Set<String>, fields: Set<String>) {
        guard !used.isEmpty || !fields.isEmpty else { return }
        ids.withLock {
            $0.styles.formUnion(used)
            $0.fields.formUnion(fields)
        }
    }

    var all: Set<String> { ids.withLock { $0.styles } }
    var fields: Set<String> { ids.withLock { $0.fields } }
}

/// Reads a cut's pieces in order on a worker: runs parsed there, features and warnings of
/// the document's reader handed on, the error last.
struct KMLCutReader: FeatureReader {
    let cut: KMLCut
    let diagnostics: DiagnosticLog
    private var nextPiece = 0
    private var features = Deque<(feature: Feature, location: SourceLocation?)>()
    private var pendingError: GeoConvError?
    private(set) var lastLocation: SourceLocation?

    init(cut: KMLCut, diagnostics: DiagnosticLog) {
        self.cut = cut
        self.diagnostics = diagnostics
    }

    func readHeader() throws(GeoConvError) -> DocumentHeader { cut.header }

    mutating func next() throws(GeoConvError) -> Feature? {
        while true {
            if let (feature, location) = features.popFirst() {
                lastLocation = location
                return feature
            }
            if let error = pendingError {
                pendingError = nil
                throw error
            }
            guard nextPiece < cut.pieces.count else { return nil }
            let piece = cut.pieces[nextPiece]
            nextPiece += 1
            switch piece {
            case .features(let read):
                features = read
            case .log(let log):
                diagnostics.absorb(log)
            case .error(let error):
                pendingError = error
            case .run(let run, let snapshot):
                var outcome = cut.context.read(run, snapshot: snapshot)
                cut.styleUses.add(outcome.usedStyles, fields: outcome.usedFields)
                diagnostics.absorb(outcome.log)
                swap(&features, &outcome.features)
                pendingError = outcome.error
            }
        }
    }
}

extension KMLReaderState {
    /// Bytes counted for a feature the document's reader reads itself, towards a cut's size.
    static let bytesPerFeatureReadHere = 512

    /// The document from here up to and with its next run (or about `size` bytes of features
    /// read here); `nil` at its end. Warnings reported meanwhile go into the cut, in order; an
    /// error ends it (and reading: `next()` returns `nil` after).
    func nextCut(size: Int) -> KMLCut? {
        guard let reading = scheduler.runs else { return nil }
        if scheduler.cut == nil { scheduler.cut = [] }
        let outer = diagnostics
        diagnostics = freshCutLog()
        defer { diagnostics = outer }
        scheduler.cutBytes = 0
        if !pending.isEmpty {
            swap(&scheduler.cutFeatures, &pending)
            scheduler.cutBytes += scheduler.cutFeatures.count * Self.bytesPerFeatureReadHere
        }
        while scheduler.cutBytes < size {
            if let error = pendingError ?? strictFailure {
                pendingError = nil
                strictFailure = nil
                closeCutPieces()
                scheduler.cut?.append(.error(error))
                finished = true
                break
            }
            if finished { break }
            do throws(GeoConvError) {
                // At a marker, `cutRun` adds the run to the cut (after what was read before it).
                guard let feature = try step(), strictFailure == nil else { continue }
                // A warning reported while it was read comes after the features before it.
                if !diagnostics.isEmpty { closeCutPieces() }
                scheduler.cutFeatures.append((feature, lastLocation))
                scheduler.cutBytes += Self.bytesPerFeatureReadHere
            } catch {
                pendingError = error
            }
        }
        closeCutPieces()
        guard let pieces = scheduler.cut, !pieces.isEmpty else { return nil }
        scheduler.cut = []
        return KMLCut(pieces: pieces, state: self, reading: reading, styleUses: scheduler.cutStyleUses)
    }

    /// A log for the warnings of the piece being read, like the reader's own.
    private func freshCutLog() -> DiagnosticLog {
        let log = DiagnosticLog(strict: diagnostics.isStrict)
        log.listsEveryWarning = diagnostics.listsEveryWarning
        return log
    }

    /// Ends the pieces being read: the features read here so far, then the warnings reported
    /// since the piece before.
    private func closeCutPieces() {
        if !scheduler.cutFeatures.isEmpty {
            scheduler.cut?.append(.features(scheduler.cutFeatures))
            scheduler.cutFeatures = []
        }
        if !diagnostics.isEmpty {
            scheduler.cut?.append(.log(diagnostics))
            diagnostics = freshCutLog()
        }
    }

    /// At a run's marker while cutting: the run goes into the cut with the tables it is to be
    /// read with, after the features and warnings read before it.
    func cutRun(_ index: Int, from reading: KMLRunReading) {
        guard let run = reading.splitter.takeRun(index) else { return }
        folders.count(run.placemarks)
        reports.featuresMet += run.placemarks
        closeCutPieces()
        scheduler.cut?.append(.run(run, snapshot))
        scheduler.cutBytes += run.bytes.count
    }
}
