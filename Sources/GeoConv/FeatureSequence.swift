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
/// batch (`batchSize` features), not the file.
///
/// Warnings (what the model cannot hold, positions out of range…): with `diagnostics`
/// given, each distinct warning is handed to it with its count when the input has been
/// read, and reading goes on. Without it, the first warning ends the iteration with that
/// warning as a `GeoConvError`, so that nothing is lost silently.
///
/// Cancelling the task ends the iteration (`next()` returns `nil`) at the next batch.
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
    /// - Parameter diagnostics: called once per distinct warning, with how many times it
    ///   occurred, after the input has been read; `nil` makes the first warning an error.
    public init(_ input: InputSource, options: ConversionOptions = ConversionOptions(), converter: Converter = Converter(),
                reprojectingToWGS84: Bool = false, batchSize: Int = 256,
                diagnostics: (@Sendable (Diagnostic, Int) -> Void)? = nil)
    {
        self.input = input
        self.options = options
        self.converter = converter
        self.reprojectingToWGS84 = reprojectingToWGS84
        self.batchSize = Swift.max(1, batchSize)
        self.diagnostics = diagnostics
    }

    /// The features of `data`; `name` (with its extension) names the input in messages and
    /// helps choose the format.
    public init(data: Data, name: String = "data", options: ConversionOptions = ConversionOptions(), converter: Converter = Converter(),
                reprojectingToWGS84: Bool = false, batchSize: Int = 256,
                diagnostics: (@Sendable (Diagnostic, Int) -> Void)? = nil)
    {
        self.init(.memory(Array(data), name: name), options: options, converter: converter, reprojectingToWGS84: reprojectingToWGS84,
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

        /// The next feature; `nil` at the end of the input or once the task is cancelled.
        public mutating func next() async throws(GeoConvError) -> Feature? {
            if index == batch.count {
                if Task.isCancelled { return nil }
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

        init(sequence: FeatureSequence) {
            self.sequence = sequence
            log = DiagnosticLog(strict: sequence.diagnostics == nil)
        }

        /// The next batch, read on the queue; empty at the end.
        func nextBatch() async throws(GeoConvError) -> [Feature] {
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[Feature], GeoConvError>, Never>) in
                queue.async { continuation.resume(returning: self.readBatch()) }
            }
            return try result.get()
        }

        /// On the queue: up to a batch of features.
        private func readBatch() -> Result<[Feature], GeoConvError> {
            guard !isFinished else { return .success([]) }
            do throws(GeoConvError) {
                if loading == nil {
                    loading = try FeatureLoading(sequence.input, options: sequence.options, converter: sequence.converter,
                                                 reprojectingToWGS84: sequence.reprojectingToWGS84, diagnostics: log)
                }
                var batch: [Feature] = []
                batch.reserveCapacity(sequence.batchSize)
                while batch.count < sequence.batchSize {
                    guard try loading?.next({ (item: inout Feature) throws(GeoConvError) in batch.append(item) }) == true else {
                        finish()
                        break
                    }
                }
                return .success(batch)
            } catch {
                isFinished = true
                loading = nil
                return .failure(error)
            }
        }

        /// At the end of the input: the warnings to the handler, and the input closed.
        private func finish() {
            isFinished = true
            loading = nil
            guard let report = sequence.diagnostics else { return }
            for (_, entry) in log.entries { report(entry.first, entry.count) }
        }
    }
}
