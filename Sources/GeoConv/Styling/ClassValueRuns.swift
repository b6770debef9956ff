import GeoConvCore
import GeoConvFormatKit
import GeoConvParallel

/// `--classify`'s first reading on `jobs` threads: runs of whole features cut from the input
/// (where its reader cuts them), each parsed and selected (`--where`, `--bbox`, the range
/// check, as the conversion selects) on a worker, which keeps only the value of the property
/// classified; the values go to `ClassMaking` in input order, so the classes are those one
/// thread makes.
struct ClassValueRuns {
    /// The threads to read on.
    let jobs: Int
    /// The input's name, for the places of what is reported.
    let inputName: String
    /// The size of the runs to cut.
    let size: Int
    /// The property classified.
    let field: FieldReference
    /// What a feature goes through before its value is taken (a fresh set for each run).
    let makeTransforms: () -> [any FeatureTransform]

    /// What a worker made of a run: the values of its features the transforms kept, in order.
    private struct Outcome: @unchecked Sendable {
        var values: [WhereExpression.Value] = []
        var error: GeoConvError?
    }

    /// Reads `reader`'s features in runs into `making`; `false`, having read nothing but the
    /// header, where the conversion would not cut them either (the caller then reads the
    /// input on one thread): a reader that does not cut this input, a header with a CRS (the
    /// runs' readers know none, and `--bbox` is in the input's CRS), features too large to
    /// be worth it (`ParallelRuns.worthCutting`'s test).
    func read<Reader: FeatureRunReader>(
        _ reader: inout Reader, into making: inout ClassMaking
    ) throws(GeoConvError) -> Bool {
        let log = DiagnosticLog()
        var transforms = makeTransforms()
        let header = try reader.readHeader()
        _ = try transforms.apply(to: header, diagnostics: log)
        let size = size
        guard header.crs == nil, reader.cutsFeatureRuns, let sample = try reader.sampleFeatureRun(size: size),
            reader.findsRunsWhileReading || sample.bytes <= FeatureRun.largestParallelFeature * max(1, sample.features)
        else { return false }
        try inPipeline(
            jobs: jobs, window: jobs * 2,
            cut: { () throws(GeoConvError) in try reader.nextFeatureRun(size: size) },
            process: { process($0) }
        ) { (run, outcome) throws(GeoConvError) in
            if let error = outcome.error { throw error.relocated(run.relocate) }
            for value in outcome.values { making.add(value) }
        }
        if try reader.next() != nil {
            throw GeoConvError(.invalidInput, "a feature after the runs of features", at: reader.lastLocation)
        }
        return true
    }

    private func process(_ run: FeatureRun) -> Outcome {
        var outcome = Outcome()
        let log = DiagnosticLog()
        do throws(GeoConvError) {
            var reader = try run.reader(named: inputName, diagnostics: log)
            var transforms = makeTransforms()
            _ = try transforms.apply(to: reader.readHeader(), diagnostics: log)
            while let feature = try reader.next() {
                try transforms.apply(to: feature, diagnostics: log) { (kept: inout Feature) in
                    outcome.values.append(FeatureClasses.value(of: field, in: kept))
                }
            }
        } catch {
            outcome.error = error
        }
        return outcome
    }
}
