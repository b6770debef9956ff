import GeoConvParallel

/// What a conversion did: counts, the formats used, and the warnings about loss.
public struct ConversionReport {
    /// The input format's name.
    public var inputFormat: String
    /// The output format's name.
    public var outputFormat: String
    /// Features read and written.
    public var statistics: PumpStatistics
    /// Warnings (what was dropped or approximated), counted by kind.
    public var diagnostics: DiagnosticLog
    /// The output bytes, for `.memory` targets.
    public var output: [UInt8]
    /// The classes `--classify` made (`ConversionOptions.classification`), with the
    /// features each took.
    public var legend: ClassLegend? = nil
}

/// Whole-file conversion: the one pipeline the CLI and library share.
public struct Converter: Sendable {
    /// The formats to choose from.
    public var registry: FormatRegistry

    /// Creates a converter over a registry (the standard one by default).
    public init(registry: FormatRegistry = .standard) { self.registry = registry }

    /// Counts the input bytes read by `convert`, for a progress display on another thread.
    public var progress: ProgressCounter?

    /// Whether `inspect` writes a feature for a target only once per loss key (the writer's
    /// `lossKey(of:shape:)`), counting its codes again for the others: on, but for the tests
    /// that compare it with writing every feature.
    package var memoizesLosses = true

    /// The format to read `input` with: `--from`, else the file extension, else the content.
    public func inputFormat(
        for input: InputSource, reader: ByteReader, options: ConversionOptions
    )
        throws(GeoConvError) -> FileFormat
    {
        if let format = options.inputFormat {
            guard format.makeReader != nil else {
                throw GeoConvError(.usage, "\(format.name) cannot be read", hint: "known formats: \(registry.listing)")
            }
            return format
        }
        if case .file(let path) = input, let format = registry.format(forPath: path), format.makeReader != nil {
            return format
        }
        let prefix = try reader.peek(4096)
        if let format = registry.format(sniffing: prefix), format.makeReader != nil { return format }
        throw GeoConvError(
            .usage, "cannot tell the format of '\(input.displayName)'",
            hint: "name it with --from (known formats: \(registry.listing))")
    }

    /// The format to write `output` in: `--to`, else the file extension.
    public func outputFormat(for output: OutputTarget, options: ConversionOptions) throws(GeoConvError) -> FileFormat {
        if let format = options.outputFormat {
            guard format.makeWriter != nil else {
                throw GeoConvError(
                    .usage, "\(format.name) cannot be written", hint: "known formats: \(registry.listing)")
            }
            return format
        }
        if case .file(let path) = output {
            guard let format = registry.format(forPath: path), format.makeWriter != nil else {
                throw GeoConvError(
                    .usage, "cannot tell the output format from the name '\(path)'",
                    hint: "use a known extension or --to (known formats: \(registry.listing))")
            }
            return format
        }
        throw GeoConvError(
            .usage, "cannot tell the output format of standard output",
            hint: "name it with --to (known formats: \(registry.listing))")
    }

    /// The folder a file input is in, against which its relative references resolve
    /// (`ConversionOptions.sourceDirectory`); `nil` for standard input and memory.
    public static func sourceDirectory(of input: InputSource) -> String? {
        guard case .file(let path) = input else { return nil }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Converts `input` into `output`, through `transforms`.
    ///
    /// File output is atomic: on any error the target is left as it was and no temporary
    /// file remains. The input is never the output.
    public func convert(
        _ input: InputSource, to output: OutputTarget, options: ConversionOptions = ConversionOptions(),
        transforms: [any FeatureTransform] = []
    ) throws(GeoConvError) -> ConversionReport {
        let options = try registry.resolved(options)
        if case .file(let inPath) = input, case .file(let outPath) = output,
            inPath == outPath || isSameFile(inPath, outPath)
        {
            throw GeoConvError(
                .usage, "the output '\(outPath)' is the input file",
                hint: "write to another file; geoconv never overwrites its input")
        }
        let diagnostics = DiagnosticLog(strict: options.strict)
        diagnostics.listsEveryWarning = options.listsEveryWarning
        // A file's format comes from its name: a usage error there comes before any reading.
        var outFormat: FileFormat? = nil
        if case .file = output { outFormat = try outputFormat(for: output, options: options) }
        let reader = try ByteReader(input)
        reader.progress = progress
        let inFormat = try inputFormat(for: input, reader: reader, options: options)
        if outFormat == nil {
            // Standard output and memory default to the input's format.
            var resolved = options
            if resolved.outputFormat == nil { resolved.outputFormat = inFormat }
            outFormat = try outputFormat(for: output, options: resolved)
        }
        guard let outFormat else { throw GeoConvError(.usage, "cannot tell the output format") }
        // Decided here from the real file names: parallel chunks are read and written in memory.
        let readerOptions = inFormat.readerOptions(options, for: input)
        var writerOptions = outFormat.writerOptions(options, for: output)
        if writerOptions.sourceDirectory == nil { writerOptions.sourceDirectory = Converter.sourceDirectory(of: input) }
        let writer = try ByteWriter(output)
        do throws(GeoConvError) {
            guard let reading = inFormat.reading, let writing = outFormat.writing else {
                throw GeoConvError(.usage, "cannot convert \(inFormat.name) to \(outFormat.name)")
            }
            let classes = try featureClasses(for: input, options: options, diagnostics: diagnostics)
            let styling = try styleRules(options, diagnostics: diagnostics)
            let selectionTransforms = try self.selectionTransforms(options, classes: classes, styling: styling)
            let outputTransforms = try self.transforms(writing: outFormat, options: options, extra: transforms)
            // The transforms, in order (a fresh set for each parallel run): the selection first.
            let makeTransforms: () -> [any FeatureTransform] = {
                selectionTransforms() + [GeographicRangeCheck(sourceCRS: options.sourceCRS)] + outputTransforms()
            }
            // --limit reads no further than it writes: one thread, in order.
            let jobs = options.selection.limit != nil ? 1 : max(1, options.jobs ?? ConversionOptions.defaultJobs)
            // A writer's side work (a GeoParquet row group) on another thread when there are two.
            if jobs >= 2 { writerOptions.sideWork = .background }
            let readLog = DiagnosticLog(strict: options.strict)
            readLog.listsEveryWarning = options.listsEveryWarning
            // Runs on workers only with the standard transforms and no reprojection (custom
            // transforms and PROJ objects are not assumed thread-safe, and an EWKT/EWKB SRID
            // would set up PROJ again in every run).
            let cutsRuns =
                jobs >= 2 && transforms.isEmpty && options.sourceCRS == nil && options.targetCRS == nil
                && options.selection.boundingBoxCRS == nil
            let runs = ParallelRuns(
                jobs: jobs, inputName: input.displayName, runSize: max(16, readerOptions.chunkBytes / 4),
                strict: options.strict, makeTransforms: makeTransforms)
            // The format's reader as a cutter of runs where it is one and threads may read them.
            var route: Route
            if cutsRuns, let lineRecords = inFormat.capabilities.lineRecords,
                !lineRecords.declaresCRS(try reader.inputStart())
            {
                route = try Route(
                    runs: try LineRuns(reader, options: readerOptions, makeReader: reading.features),
                    jobs: jobs, cutsRuns: cutsRuns, runs: runs)
            } else if jobs >= 2, let makeRunReader = reading.runs {
                route = try Route(
                    runs: try makeRunReader(reader, readerOptions, readLog), jobs: jobs, cutsRuns: cutsRuns,
                    runs: runs)
            } else {
                route = try Route(features: try reading.features(reader, readerOptions, readLog), jobs: jobs)
            }
            // Written where the features are put into the writer: with runs, this thread
            // reports in the input's order what the workers read and wrote.
            var featureWriter = try writing.records(writer, writerOptions, route.runsInParallel ? readLog : diagnostics)
            let statistics: PumpStatistics
            do throws(GeoConvError) {
                statistics = try route.run(
                    into: &featureWriter, runs: runs, transforms: makeTransforms(),
                    limit: options.selection.limit, readLog: readLog, writeLog: diagnostics)
            } catch {
                diagnostics.absorb(readLog)
                throw error
            }
            try styling?.reportUnused(into: diagnostics)
            if statistics.featuresRead > 0, statistics.featuresWritten == 0 {
                try diagnostics.warn(
                    WritingCode.outputEmpty,
                    "none of the \(statistics.featuresRead) features read was written: the output holds no feature",
                    at: SourceLocation(file: input.displayName))
            }
            let writeLog = DiagnosticLog()
            writeLog.absorb(diagnostics)
            diagnostics.replace(with: readLog)
            diagnostics.absorb(writeLog)
            try writer.commit()
            return ConversionReport(
                inputFormat: inFormat.name, outputFormat: outFormat.name, statistics: statistics,
                diagnostics: diagnostics, output: writer.memoryContents, legend: classes?.legend)
        } catch {
            writer.abort()
            if error.location != nil, error.location?.file == nil { throw error.inFile(input.displayName) }
            throw error
        }
    }

    /// What a conversion to `outFormat` does to each feature after reading, in order:
    /// reprojection (to `--t-srs`, else WGS84 for formats that are always WGS84, else none:
    /// WKT and WKB keep the input's CRS and SRID), span patterns and explosion,
    /// simplification, the caller's `extra` transforms, circle recognition, and circles as
    /// polygons where the target cannot hold circles. A fresh set on each call of the result.
    public func transforms(
        writing outFormat: FileFormat, options: ConversionOptions, extra: [any FeatureTransform] = []
    )
        throws(GeoConvError) -> () -> [any FeatureTransform]
    {
        let options = try registry.resolved(options)
        let wgs84Only = outFormat.capabilities.isWGS84Only
        if let target = options.targetCRS, !Reproject.isWGS84(target), wgs84Only {
            let anyCRS = registry.formats.filter { !$0.capabilities.isWGS84Only && $0.makeWriter != nil }.map(\.name)
                .joined(separator: ", ")
            throw GeoConvError(
                .usage,
                "\(outFormat.name) is always WGS84 longitude/latitude; --t-srs \(target) cannot be written to it",
                hint: "write \(anyCRS) for other CRSs, or drop --t-srs")
        }
        var spanPattern: (styles: [StrokeStyle], lengths: [Double])?
        if let pattern = options.spanPattern {
            guard let parsed = ApplySpanPattern.parse(pattern) else {
                throw GeoConvError(
                    .usage, "--span-pattern '\(pattern)' is not COLOR:LENGTH,COLOR:LENGTH…",
                    hint: "for example white:100000,black:50000 (CSS colour names or #rrggbb; lengths > 0)")
            }
            spanPattern = (parsed.styles, parsed.lengths)
        }
        let circlesAsPolygons =
            options.circles == .polygon
            || (options.circles == nil && !outFormat.capabilities.holdsCircles)
        let circlesDrawn = options.circles == nil && outFormat.capabilities.drawsCirclesAsPolygons
        let circleHolders = registry.formats.filter { $0.capabilities.holdsCircles }.map(\.name)
        let emptyMemberHolders = registry.formats.filter { $0.capabilities.holdsEmptyMembers }.map(\.name)
        let fileHolders = registry.formats.filter { $0.capabilities.holdsEmbeddedFiles }.map(\.name)
        let headerHolders = registry.formats.filter { $0.makeWriter != nil }
        // Circles reprojected into a projected CRS are drawn first, on the ellipsoid, in the
        // input's longitude and latitude: their radius is metres on the ground.
        let drawsCirclesFirst = options.targetCRS.map { !Reproject.isWGS84($0) } ?? false
        return {
            var all: [any FeatureTransform] = []
            if drawsCirclesFirst {
                if options.detectCircles { all.append(RecognizeCircles()) }
                if circlesAsPolygons { all.append(CircleToPolygon(keptBy: circleHolders)) }
                if circlesDrawn { all.append(CircleToPolygon(keepsCircleAsData: true, keptBy: circleHolders)) }
            }
            all.append(
                Reproject(
                    sourceCRS: options.sourceCRS, targetCRS: options.targetCRS,
                    keepsSourceCRS: !wgs84Only))
            if let spanPattern {
                all.append(
                    ApplySpanPattern(styles: spanPattern.styles, lengths: spanPattern.lengths, kind: options.lengthKind)
                )
            }
            if options.explodeSpans { all.append(ExplodeSpans()) }
            if let tolerance = options.simplifyTolerance { all.append(Simplify(tolerance: tolerance)) }
            all += extra
            if !drawsCirclesFirst {
                if options.detectCircles { all.append(RecognizeCircles()) }
                if circlesAsPolygons { all.append(CircleToPolygon(keptBy: circleHolders)) }
                if circlesDrawn { all.append(CircleToPolygon(keepsCircleAsData: true, keptBy: circleHolders)) }
            }
            if !outFormat.capabilities.holdsEmptyMembers { all.append(DropEmptyMembers(keptBy: emptyMemberHolders)) }
            if !outFormat.capabilities.holdsEmbeddedFiles {
                all.append(DropEmbeddedFiles(format: outFormat.name, keptBy: fileHolders))
            }
            if outFormat.capabilities.holdsHeader != .all {
                all.append(DropHeaderParts(format: outFormat, holders: headerHolders))
            }
            return all
        }
    }

    /// Whether conversions to formats with these capabilities run the same transforms on
    /// each feature (so one's per-feature losses are the other's: `info`). Kept beside
    /// `transforms(writing:options:)`: a capability that changes a feature there is compared
    /// here. (`holdsEmbeddedFiles` changes only the header.)
    static func sameFeatureTransforms(_ a: FormatCapabilities, _ b: FormatCapabilities) -> Bool {
        a.isWGS84Only == b.isWGS84Only && a.holdsCircles == b.holdsCircles
            && a.drawsCirclesAsPolygons == b.drawsCirclesAsPolygons
            && a.holdsEmptyMembers == b.holdsEmptyMembers
    }
}
