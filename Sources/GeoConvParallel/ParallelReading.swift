import DequeModule
import Dispatch
package import GeoConvCore
package import GeoConvFormatKit
package import GeoConvIO

/// `--jobs` for a reader whose runs cannot be written on workers (the conversion's
/// transforms run on one thread: a reprojection, a custom transform) but which finds them as
/// it reads (`FeatureRunReader.findsRunsWhileReading`: a KML document's runs of Placemarks). A
/// decorator of the one `pump`'s reader: the runs the reader cuts are parsed on `jobs`
/// workers, at most `2 × jobs` ahead, and their features handed out here in input order, with
/// their places in the input; what reading a run said joins the reader's log in order, before
/// its first feature. What follows the runs is read by the reader itself. The features,
/// their order and the messages are those of one thread.
package struct ParallelReading: FeatureReader {
    private var base: any FeatureRunReader
    private let header: DocumentHeader
    private let jobs: Int
    private let runSize: Int
    private let inputName: String
    private let log: DiagnosticLog
    private let workers: DispatchSemaphore
    /// Runs being parsed, oldest first.
    private let parsing = InFlight()
    /// The oldest run's features not handed out yet, with their places in the input.
    private var ready = Deque<(feature: Feature, location: SourceLocation?)>()
    /// The error the oldest run stopped at, thrown once its features before it are out.
    private var runError: GeoConvError?
    /// The reader's error cutting the next run, thrown once the runs before it are out.
    private var cutError: GeoConvError?
    private var cutEnded = false
    private var afterRuns = false
    package private(set) var lastLocation: SourceLocation?

    /// What a worker made of a run.
    private struct Parsed: @unchecked Sendable {
        var features: [(feature: Feature, location: SourceLocation?)] = []
        var log: DiagnosticLog
        var error: GeoConvError?
    }

    /// `reader`'s features, its header (`header`) read already and its runs of about
    /// `runSize` bytes parsed on `jobs` workers; what they say goes to `diagnostics` (the
    /// reader's own log), in order.
    package init(
        _ reader: any FeatureRunReader, header: DocumentHeader, jobs: Int, runSize: Int, inputName: String,
        diagnostics: DiagnosticLog
    ) {
        base = reader
        self.header = header
        self.jobs = max(1, jobs)
        self.runSize = runSize
        self.inputName = inputName
        log = diagnostics
        workers = DispatchSemaphore(value: max(1, jobs))
    }

    /// The header, read before the reader was wrapped.
    package func readHeader() throws(GeoConvError) -> DocumentHeader { header }

    package mutating func next() throws(GeoConvError) -> Feature? {
        while true {
            if let (feature, location) = ready.popFirst() {
                lastLocation = location
                return feature
            }
            if let error = runError {
                runError = nil
                afterRuns = true
                throw error
            }
            if afterRuns {
                let feature = try base.next()
                lastLocation = base.lastLocation
                return feature
            }
            startRuns()
            guard let oldest = parsing.runs.popFirst() else {
                if let error = cutError {
                    cutError = nil
                    afterRuns = true
                    throw error
                }
                afterRuns = true
                continue
            }
            let parsed = oldest.task.value()
            log.absorb(parsed.log, relocating: oldest.run.relocate)
            ready = Deque(parsed.features)
            runError = parsed.error.map { $0.relocated(oldest.run.relocate) }
        }
    }

    /// Cuts runs and starts parsing them until `2 × jobs` are in flight or the runs end.
    private mutating func startRuns() {
        while !cutEnded, parsing.runs.count < jobs * 2 {
            let run: FeatureRun
            do throws(GeoConvError) {
                guard let next = try base.nextFeatureRun(size: runSize) else {
                    cutEnded = true
                    return
                }
                run = next
            } catch {
                cutError = error
                cutEnded = true
                return
            }
            let box = UncheckedBox(run)
            let name = inputName
            let workers = workers
            let strict = log.isStrict
            let listsEveryWarning = log.listsEveryWarning
            parsing.runs.append(
                (
                    run,
                    BackgroundTask {
                        workers.wait()
                        defer { workers.signal() }
                        return Self.parse(box.value, named: name, strict: strict, listsEveryWarning: listsEveryWarning)
                    }
                ))
        }
    }

    /// Reads one run's features (on a worker), with their places in the input.
    private static func parse(_ run: FeatureRun, named name: String, strict: Bool, listsEveryWarning: Bool) -> Parsed {
        let log = DiagnosticLog(strict: strict)
        log.listsEveryWarning = listsEveryWarning
        var parsed = Parsed(log: log)
        do throws(GeoConvError) {
            var reader = try run.reader(named: name, diagnostics: log)
            _ = try reader.readHeader()
            while let feature = try reader.next() {
                parsed.features.append((feature, reader.lastLocation.map(run.relocate)))
            }
        } catch {
            parsed.error = error
        }
        return parsed
    }

    /// The runs being parsed; dropped (at the end, or after an error), it waits for them:
    /// no worker is left reading behind the reader.
    private final class InFlight {
        var runs = Deque<(run: FeatureRun, task: BackgroundTask<Parsed>)>()

        deinit { for entry in runs { _ = entry.task.value() } }
    }
}

extension ParallelReading {
    /// Whether `reader` (its header read) finds runs as it reads and has found one: its runs
    /// are then worth parsing on workers even when they cannot be written there.
    package static func isWorthTaking(
        _ reader: inout some FeatureRunReader, runSize: Int
    ) throws(GeoConvError)
        -> Bool
    {
        guard reader.cutsFeatureRuns, reader.findsRunsWhileReading else { return false }
        return try reader.sampleFeatureRun(size: runSize) != nil
    }
}

extension ReaderMaking {
    /// A reader of `input`, its header read, for the commands that read features on one
    /// thread (`render` and `OverlayDocument` through `FeatureLoading`, `measure`, `cluster`'s
    /// held markers): a reader that finds
    /// runs as it reads (a KML document's runs of Placemarks) has them parsed on
    /// `options.jobs` workers (`ParallelReading`); any other is the format's reader itself.
    package func open(
        _ input: ByteReader, options: ConversionOptions, inputName: String,
        diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> (reader: any FeatureReader, header: DocumentHeader) {
        guard (options.jobs ?? ConversionOptions.defaultJobs) >= 2, let makeRuns = runs else {
            var reader = try features(input, options, diagnostics)
            let header = try reader.readHeader()
            return (reader, header)
        }
        var reader = try makeRuns(input, options, diagnostics)
        let header = try reader.readHeader()
        return (
            ParallelReading.wrapping(
                reader, header: header, options: options, inputName: inputName,
                diagnostics: diagnostics), header
        )
    }
}

extension ParallelReading {
    /// `reader`, its header (`header`) read, with its runs parsed on `options.jobs` workers
    /// when it finds them as it reads and has found one; else `reader` itself.
    package static func wrapping(
        _ reader: any FeatureRunReader, header: DocumentHeader, options: ConversionOptions,
        inputName: String, diagnostics: DiagnosticLog
    ) -> any FeatureReader {
        let jobs = options.jobs ?? ConversionOptions.defaultJobs
        let runSize = max(16, options.chunkBytes / 4)
        var reader = reader
        guard jobs >= 2, (try? isWorthTaking(&reader, runSize: runSize)) == true else { return reader }
        return ParallelReading(
            reader, header: header, jobs: jobs, runSize: runSize, inputName: inputName,
            diagnostics: diagnostics)
    }
}
