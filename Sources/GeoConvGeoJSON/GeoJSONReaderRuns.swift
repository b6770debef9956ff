public import GeoConvCore
public import GeoConvFormatKit

/// `--jobs` on a FeatureCollection: its `features` array cut into runs of whole features,
/// each read by a reader of its own on another thread.
extension GeoJSONReader: FeatureRunReader {
    /// Whether the features come from a FeatureCollection's array that `nextFeatureRun` can
    /// cut into runs (the header has been read).
    public var cutsFeatureRuns: Bool {
        if case .inFeatures = state, options.featureRunStart == nil { return true }
        return false
    }

    /// The next run of whole features of the FeatureCollection's array; `nil` when none is
    /// left before the array's end, after which `next()` reads on as usual (the members
    /// after the array, or the error where the array does not continue).
    public mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> FeatureRun? {
        guard case .inFeatures(let index) = state, options.featureRunStart == nil else { return nil }
        var before = index
        guard var run = try scanner.nextElementRun(size: size, elementsBefore: &before) else { return nil }
        state = .inFeatures(index: before)
        // Read with this reader's options, counting JSON Pointers from the run's first
        // feature (`/features/N` of the whole array).
        var runOptions = options
        runOptions.featureRunStart = run.recordsBefore
        run.makeReader = { [runOptions] input, diagnostics in
            GeoJSONReader(input, options: runOptions, diagnostics: diagnostics)
        }
        run.makeMarkerReader = { [runOptions] input, diagnostics in
            GeoJSONReader(input, options: runOptions, diagnostics: diagnostics)
        }
        return run
    }

    /// The size and count of the features the next `nextFeatureRun(size:)` would cut,
    /// without taking them (they stay in the window and are read again).
    public mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)? {
        guard case .inFeatures(let index) = state, options.featureRunStart == nil else { return nil }
        scanner.startValue()  // now, so that the window does not move under the mark
        let mark = scanner.mark
        var before = index
        let run = try scanner.nextElementRun(size: size, elementsBefore: &before)
        scanner.rewind(to: mark)
        return run.map { ($0.bytes.count, before - index) }
    }
}
