internal import DequeModule
import GeoConvCore
import GeoConvIO
internal import GeoConvXML
internal import Synchronization

/// What a run's reader starts from: the main reader's tables and containers as they are at
/// the run's marker.
struct KMLReaderSnapshot {
    var tables: KMLDocumentTables
    var folders: KMLFolders
}

/// A run's features, read on a worker or on the reader's thread, with their places in the
/// whole input.
struct KMLRunOutcome {
    /// (A deque: the main reader takes it over whole and pops its features, moving them.)
    var features = Deque<(feature: Feature, location: SourceLocation?)>()
    var log: DiagnosticLog
    var error: GeoConvError?
    var run: KMLSplitter.Run
    /// The styles its features' `styleUrl`s resolved to.
    var usedStyles: Set<String> = []
    /// The SimpleData and gx:SimpleArrayData names its features used.
    var usedFields: Set<String> = []
}

/// How often the fast XML path (`XMLPullParser(document:)`) read a document's runs, and
/// how often it gave up (a run then read again with libxml2): it is tried while it gives up
/// on at most about one run in four, so a document full of what it does not handle
/// (comments, entities, warnings) is not read twice.
final class KMLFastPathGauge: Sendable {
    private let tries = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)

    /// Whether the next run is worth trying on the fast path.
    var isWorthTrying: Bool { failures.load(ordering: .relaxed) * 4 <= tries.load(ordering: .relaxed) + 4 }

    func record(succeeded: Bool) {
        tries.add(1, ordering: .relaxed)
        if !succeeded { failures.add(1, ordering: .relaxed) }
    }
}

/// The main reader's side of `--jobs`: the splitter, and the runs it found read on this
/// thread when they are not handed out (no thread is started here: runs handed out as
/// `FeatureRun`s are read wherever their taker reads them).
final class KMLRunReading {
    let splitter: KMLSplitter
    let gauge = KMLFastPathGauge()

    init(splitter: KMLSplitter) {
        self.splitter = splitter
    }

    /// What reading a run of this document needs besides its tables, for a reader named
    /// `name` with `options` whose log is like `log`.
    func context(name: String, options: KMLReadOptions, like log: DiagnosticLog) -> KMLRunContext {
        KMLRunContext(
            prefix: splitter.prefix, suffix: splitter.suffix, marker: splitter.markerName, name: name, options: options,
            strict: log.isStrict, listsEveryWarning: log.listsEveryWarning, gauge: gauge)
    }

    /// Run `index`'s features, read here with `snapshot` (the tables at its marker).
    func outcome(
        _ index: Int, snapshot: KMLReaderSnapshot, name: String, options: KMLReadOptions,
        like log: DiagnosticLog
    ) -> KMLRunOutcome? {
        guard let run = splitter.takeRun(index) else { return nil }
        return context(name: name, options: options, like: log).read(run, snapshot: snapshot)
    }
}

extension KMLReaderState {
    /// The tables a run's reader starts from.
    var snapshot: KMLReaderSnapshot {
        KMLReaderSnapshot(tables: tables.withoutCaches, folders: folders.forRun)
    }

}

/// What reading one run of a document takes besides the main reader's tables: the input's
/// declaration and root element to put it between, the marker's name, the reader's name,
/// options and log settings, and the fast XML path's gauge. Shared by the runs of a document.
struct KMLRunContext: Sendable {
    let prefix: [UInt8]
    let suffix: [UInt8]
    let marker: String
    let name: String
    let options: KMLReadOptions
    let strict: Bool
    let listsEveryWarning: Bool
    let gauge: KMLFastPathGauge

    /// Reads one run's Placemarks (on any thread), inside a document made of the input's
    /// declaration and root element, with the main reader's tables; places in the input.
    /// The fast XML path reads it first when `gauge` finds it worth trying; what it reads is
    /// kept only when it read the whole run with nothing to report (places in messages are
    /// libxml2's), else the run is read again with libxml2.
    func read(_ run: KMLSplitter.Run, snapshot: KMLReaderSnapshot) -> KMLRunOutcome {
        if gauge.isWorthTrying {
            let outcome = read(run, snapshot: snapshot, fast: true)
            let succeeded = outcome.error == nil && outcome.log.isEmpty
            gauge.record(succeeded: succeeded)
            if succeeded { return outcome }
        }
        return read(run, snapshot: snapshot, fast: false)
    }

    private func read(_ run: KMLSplitter.Run, snapshot: KMLReaderSnapshot, fast: Bool) -> KMLRunOutcome {
        let log = DiagnosticLog(strict: strict)
        log.listsEveryWarning = listsEveryWarning
        var outcome = KMLRunOutcome(log: log, run: run)
        outcome.features.reserveCapacity(run.placemarks)
        // The run starts where it did in the input modulo libxml2's 512-byte chunks, so the
        // parser reads it in the same pieces and reports the same (look-ahead) positions.
        let prefix =
            prefix + repeatElement(UInt8(0x20), count: KMLSplitter.chunkPadding(from: prefix.count, to: run.offset))
        let relocate = KMLSplitter.relocation(of: run, after: prefix)
        do throws(GeoConvError) {
            let parser: XMLPullParser
            do {
                parser =
                    fast
                    ? try XMLPullParser(documentParts: [prefix, run.bytes, suffix], maximumDepth: options.maximumDepth)
                    : try XMLPullParser(libxml2Reading: prefix + run.bytes + suffix, maximumDepth: options.maximumDepth)
            } catch {
                throw GeoConvError(.io, error.message)
            }
            var runOptions = options
            runOptions.cutsRuns = false
            let state = KMLReaderState(parser: parser, name: name, options: runOptions, diagnostics: log)
            state.folders = snapshot.folders
            state.tables = snapshot.tables
            state.headerDone = true
            state.scheduler.runElement = marker
            state.relocation = relocate
            while let feature = try state.next() {
                outcome.features.append((consume feature, state.lastLocation))
            }
            outcome.usedStyles = state.reports.usedStyles
            outcome.usedFields = state.reports.usedFields
            // (An error the reader caught and got past must not hide that the fast path gave up.)
            if parser.gaveUp { throw GeoConvError(.unsupported, "the fast XML path gave up") }
        } catch {
            // (Its places are the input's: the reader places what it reports through `relocate`.)
            outcome.error = error
        }
        return outcome
    }
}
