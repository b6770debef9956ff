public import Foundation

/// The features of a file or of bytes in memory, read on a background queue and handed out
/// as an `AsyncSequence`: an app reads a KML, GeoJSON or any other input without blocking its
/// actor, one batch of features at a time.
///
/// ```swift
/// for try await feature in FeatureSequence(data: downloaded, name: "trails.kml") {
///     mapView.add(feature)
/// }
/// ```
///
/// Each iteration opens the input and reads it as `OverlayDocument.load` does: the format
/// from `options.inputFormat`, else the name's extension, else the content; positions
/// checked for the geographic range; reprojected to WGS84 on request. Memory holds one
/// batch (`batchSize` features) besides the input: a file is read as it goes, `Data` is
/// held (copied once).
///
/// Warnings (what the model cannot hold, positions out of range…): with `diagnostics`
/// given, each distinct warning is handed to it with its count when reading stops (at the
/// end, at an error, or when the iterator is dropped early), and reading goes on. Without
/// it, the first warning ends the iteration with that warning as a `GeoConvError`, so that
/// nothing is lost silently.
///
/// An error comes after the features read before it: every feature before the failing one
/// is handed out, whatever `batchSize` is. Cancelling the task ends the iteration with a
/// `cancelled` error at the next batch, not with a `nil` that would look like the end of
/// the input.
public struct FeatureSequence: AsyncSequence, Sendable {
    public typealias Element = Feature
    public typealias Failure = GeoConvError

    /// Where the features come from.
    public let input: InputSource
    /// The reading options (`inputFormat`, `sourceCRS`…).
    public let options: ConversionOptions
    /// Whether features in another CRS are reprojected to WGS84 longitude/latitude.
    public let reprojectingToWGS84: Bool
    /// How many features are read per hop to the background queue.
    public let batchSize: Int
    private let converter: Converter
    private let diagnostics: (@Sendable (Diagnostic, Int) -> Void)?

    /// The features of `input`.
    /// - Parameters:
    ///   - input: the file, standard input or bytes in memory to read.
    ///   - options: how to read it: its format (else from the name or content), the selection
    ///     (`options.selection`), the formats' own options.
    ///   - converter: the formats to choose from.
    ///   - reprojectingToWGS84: reproject features in another CRS to WGS84 longitude/latitude.
    ///   - batchSize: how many features are read per hop to the background queue.
    ///   - diagnostics: called once per distinct warning, with how many times it occurred,
    ///     after the input has been read; `nil` makes the first warning an error.
    public init(
        _ input: InputSource, options: ConversionOptions = ConversionOptions(), converter: Converter = Converter(),
        reprojectingToWGS84: Bool = false, batchSize: Int = 256,
        diagnostics: (@Sendable (Diagnostic, Int) -> Void)? = nil
    ) {
        self.input = input
        self.options = options
        self.converter = converter
        self.reprojectingToWGS84 = reprojectingToWGS84
        self.batchSize = Swift.max(1, batchSize)
        self.diagnostics = diagnostics
    }

    /// The features of `data`; `name` (with its extension) names the input in messages and
    /// helps choose the format.
    public init(
        data: Data, name: String = "data", options: ConversionOptions = ConversionOptions(),
        converter: Converter = Converter(),
        reprojectingToWGS84: Bool = false, batchSize: Int = 256,
        diagnostics: (@Sendable (Diagnostic, Int) -> Void)? = nil
    ) {
        self.init(
            .memory(Array(data), name: name), options: options, converter: converter,
            reprojectingToWGS84: reprojectingToWGS84,
            batchSize: batchSize, diagnostics: diagnostics)
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(source: BackgroundReading(sequence: self))
    }

    /// Hands out the features one by one, fetching a batch from the background queue when
    /// the last one is used up.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let source: BackgroundReading
        private var batch: [Feature] = []
        private var index = 0

        fileprivate init(source: BackgroundReading) { self.source = source }

        /// The next feature; `nil` at the end of the input.
        /// - Throws: the reader's error after the features before it, or `cancelled` once the task is cancelled.
        public mutating func next() async throws(GeoConvError) -> Feature? {
            if index == batch.count {
                if Task.isCancelled {
                    throw GeoConvError(
                        .cancelled, "reading '\(source.inputName)' was cancelled",
                        hint: "the features handed out so far are not the whole input")
                }
                batch = try await source.nextBatch()
                index = 0
                if batch.isEmpty { return nil }
            }
            defer { index += 1 }
            return batch[index]
        }
    }

    /// The reading state, touched only on its serial queue (hence `@unchecked Sendable`).
    fileprivate final class BackgroundReading: @unchecked Sendable {
        private let queue = DispatchQueue(label: "geoconv.FeatureSequence")
        private let sequence: FeatureSequence
        private var loading: FeatureLoading?
        private var log: DiagnosticLog
        private var isFinished = false
        /// An error met after some features of a batch: thrown at the next call, after them.
        private var pendingError: GeoConvError?
        /// Whether the warnings went to the handler.
        private var reported = false
        /// The input's name, for messages.
        let inputName: String

        init(sequence: FeatureSequence) {
            self.sequence = sequence
            inputName = sequence.input.displayName
            log = DiagnosticLog(strict: sequence.diagnostics == nil)
        }

        /// An iterator dropped before the end still hands over the warnings met so far.
        deinit { report() }

        /// The next batch, read on the queue; empty at the end.
        func nextBatch() async throws(GeoConvError) -> [Feature] {
            let result = await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<[Feature], GeoConvError>, Never>) in
                queue.async { continuation.resume(returning: self.readBatch()) }
            }
            return try result.get()
        }

        /// On the queue: up to a batch of features.
        private func readBatch() -> Result<[Feature], GeoConvError> {
            if let pendingError {
                self.pendingError = nil
                return .failure(pendingError)
            }
            guard !isFinished else { return .success([]) }
            var batch: [Feature] = []
            do throws(GeoConvError) {
                if loading == nil {
                    loading = try FeatureLoading(
                        sequence.input, options: sequence.options, converter: sequence.converter,
                        reprojectingToWGS84: sequence.reprojectingToWGS84, diagnostics: log)
                }
                batch.reserveCapacity(sequence.batchSize)
                while batch.count < sequence.batchSize {
                    guard
                        try loading?.next({ (item: inout Feature) throws(GeoConvError) in batch.append(item) }) == true
                    else {
                        finish()
                        break
                    }
                }
                return .success(batch)
            } catch {
                finish()
                guard batch.isEmpty else {
                    pendingError = error
                    return .success(batch)
                }
                return .failure(error)
            }
        }

        /// When reading stops (end or error): the input closed, the warnings to the handler.
        private func finish() {
            isFinished = true
            loading = nil
            report()
        }

        /// The warnings met so far to the handler, once.
        private func report() {
            guard !reported, let handler = sequence.diagnostics else { return }
            reported = true
            for (_, entry) in log.entries { handler(entry.first, entry.count) }
        }
    }
}
