public import OrderedCollections

/// What `geoconv info` reports about an input.
public struct InspectionReport: Sendable {
    /// How often a property name was seen, and with which JSON types.
    public struct PropertyStatistics: Hashable, Sendable {
        /// Features that have the property.
        public var count: Int
        /// JSON type names seen (`string`, `number`, …), in first-seen order.
        public var types: [String]
    }

    /// The input's name.
    public var input: String
    /// The format it was read as.
    public var format: String
    /// The document header.
    public var header: DocumentHeader
    /// Number of features.
    public var featureCount: Int
    /// Features by geometry kind (`Point`, …, `Circle`, and `null` for none).
    public var geometryKinds: OrderedDictionary<String, Int>
    /// Empty geometries among them.
    public var emptyGeometries: Int
    /// Total positions.
    public var coordinateCount: Int
    /// Whether any position has an altitude.
    public var hasAltitude: Bool
    /// Bounds of every geometry, antimeridian aware; `nil` when there are none.
    public var bounds: CoordinateBounds?
    /// Property names in first-seen order.
    public var properties: OrderedDictionary<String, PropertyStatistics>
    /// Features with a title (name) and with a snippet (description); with a non-empty style.
    public var titled: Int, described: Int, styled: Int
    /// Warnings raised while reading.
    public var readWarnings: [String]
    /// Whether reading itself lost something (a warning, not only notes): what a target
    /// loses is then said as loss *beyond* reading.
    public var readingLoses = false
    /// For each other format: what converting this input to it would drop (its warning summary).
    public var losses: OrderedDictionary<String, [String]>

    /// The report as JSON.
    public var json: JSONValue {
        var object: JSONObject = ["input": .string(input), "format": .string(format)]
        object["crs"] = .string(header.crs ?? "OGC:CRS84")
        if let name = header.name { object["name"] = .string(name) }
        object["features"] = .number(JSONNumber(featureCount))
        object["geometries"] = .object(
            JSONObject(uniqueKeysWithValues: geometryKinds.map { ($0.key, JSONValue.number(JSONNumber($0.value))) }))
        object["emptyGeometries"] = .number(JSONNumber(emptyGeometries))
        object["positions"] = .number(JSONNumber(coordinateCount))
        object["hasAltitude"] = .bool(hasAltitude)
        if let bounds {
            object["bbox"] = .array(
                [bounds.west, bounds.south, bounds.east, bounds.north].map {
                    JSONNumber($0).map(JSONValue.number) ?? .null
                })
        } else {
            object["bbox"] = .null
        }
        object["titled"] = .number(JSONNumber(titled))
        object["described"] = .number(JSONNumber(described))
        object["styled"] = .number(JSONNumber(styled))
        object["properties"] = .object(
            JSONObject(
                uniqueKeysWithValues: properties.map { key, stats in
                    (
                        key,
                        JSONValue.object([
                            "count": .number(JSONNumber(stats.count)),
                            "types": .array(stats.types.map(JSONValue.string)),
                        ])
                    )
                }))
        if let camera = header.camera { object["camera"] = GeoJSONNames.json(camera) }
        object["tileLayers"] = .number(JSONNumber(header.tileLayers.count))
        object["warnings"] = .array(readWarnings.map(JSONValue.string))
        object["losses"] = .object(
            JSONObject(uniqueKeysWithValues: losses.map { ($0.key, JSONValue.array($0.value.map(JSONValue.string))) }))
        return .object(object)
    }
}

extension Converter {
    /// Reads an input once and reports what it holds, and what converting it to each other
    /// writable format would lose (every writer runs on the same features into nowhere,
    /// counting what it would lose instead of making bytes).
    ///
    /// - Parameters:
    ///   - input: what to describe.
    ///   - options: how to read it, as a conversion would (its format, CRS, format options).
    ///   - targetNames: the formats to report losses for, by name (the input's own too, when
    ///     named); `nil`, every format that writes but the input's own.
    public func inspect(
        _ input: InputSource, options: ConversionOptions = ConversionOptions(),
        targets targetNames: Set<String>? = nil
    ) throws(GeoConvError) -> InspectionReport {
        for name in targetNames ?? [] where registry.format(named: name)?.makeWriter == nil {
            let writable = registry.formats.filter { $0.makeWriter != nil }.map(\.name)
            throw GeoConvError(
                .usage, "'\(name)' is not a format geoconv writes",
                hint: "name one or more of \(writable.joined(separator: ", ")), separated by commas")
        }
        let reader = try ByteReader(input)
        let format = try inputFormat(for: input, reader: reader, options: options)
        guard let reading = format.reading else { throw GeoConvError(.usage, "\(format.name) cannot be read") }
        let readLog = DiagnosticLog()
        let readerOptions = format.readerOptions(options, for: input)
        let jobs = max(1, options.jobs ?? ConversionOptions.defaultJobs)
        // Runs of whole features parsed and counted on every core, as a conversion's, where
        // the format's reader cuts them.
        if jobs >= 2, options.sourceCRS == nil, let makeRunReader = reading.runs {
            var featureReader = try makeRunReader(reader, readerOptions, readLog)
            return try inspectRuns(
                &featureReader, of: input, format: format, options: options, targets: targetNames,
                readLog: readLog)
        }
        var featureReader = try reading.features(reader, readerOptions, readLog)
        return try inspectFeatures(
            &featureReader, of: input, format: format, options: options, targets: targetNames,
            readLog: readLog)
    }

    private func inspectRuns<Reader: FeatureRunReader>(
        _ featureReader: inout Reader, of input: InputSource, format: FileFormat, options: ConversionOptions,
        targets targetNames: Set<String>?, readLog: DiagnosticLog
    ) throws(GeoConvError) -> InspectionReport {
        try inspect(
            &featureReader, of: input, format: format, options: options, targets: targetNames,
            readLog: readLog,
            runs: (
                cuts: { $0.cutsFeatureRuns },
                next: { (reader, size) throws(GeoConvError) in
                    try reader.nextFeatureRun(size: size)
                }
            ))
    }

    private func inspectFeatures<Reader: FeatureReader>(
        _ featureReader: inout Reader, of input: InputSource, format: FileFormat, options: ConversionOptions,
        targets targetNames: Set<String>?, readLog: DiagnosticLog
    ) throws(GeoConvError) -> InspectionReport {
        try inspect(
            &featureReader, of: input, format: format, options: options, targets: targetNames,
            readLog: readLog, runs: nil)
    }

    /// `inspect` with the input's reader made: `runs` cuts its features into runs when it can.
    private func inspect<Reader: FeatureReader>(
        _ featureReader: inout Reader, of input: InputSource, format: FileFormat, options: ConversionOptions,
        targets targetNames: Set<String>?, readLog: DiagnosticLog,
        runs: (cuts: (inout Reader) -> Bool, next: (inout Reader, Int) throws(GeoConvError) -> FeatureRun?)?
    ) throws(GeoConvError) -> InspectionReport {
        let sourceHeader = try featureReader.readHeader()
        // Counts and bounds in WGS84 (range-checked as a conversion would be; warnings are reported).
        let makeChecks: () -> [any FeatureTransform] = {
            [GeographicRangeCheck(sourceCRS: options.sourceCRS), Reproject(sourceCRS: options.sourceCRS)]
        }
        var checks = makeChecks()
        _ = try checks.apply(to: sourceHeader, diagnostics: readLog)
        let header = sourceHeader

        // Each target gets the transforms a conversion to it would run (reprojection, circles
        // as polygons…), so the losses listed here are the ones the conversion reports.
        var targets: [InspectionTarget] = []
        // (The input's own format only when asked for by name: what a rewrite loses.)
        for target in registry.formats where targetNames?.contains(target.name) ?? (target.name != format.name) {
            guard let makeWriter = target.writing?.keyed else { continue }
            let log = DiagnosticLog()
            var targetOptions = options
            if targetOptions.sourceDirectory == nil {
                targetOptions.sourceDirectory = Converter.sourceDirectory(of: input)
            }
            let writer = try makeWriter(
                try ByteWriter(.discard), target.writerOptions(targetOptions, for: .discard),
                log)
            let entry = InspectionTarget(name: target.name, writer: writer, log: log, memoizes: memoizesLosses)
            do throws(GeoConvError) {
                entry.transforms = try self.transforms(writing: target, options: options)()
                try entry.writer.begin(entry.transforms.apply(to: sourceHeader, diagnostics: log))
            } catch {
                entry.refuse(error)
            }
            targets.append(entry)
        }
        // A format that writes its features as another does (KMZ as KML) loses per feature
        // what that one loses: the features are written once, for both.
        for entry in targets {
            guard let format = registry.format(named: entry.name), let twinName = format.capabilities.writesFeaturesAs,
                let twin = targets.first(where: { $0.name == twinName && $0 !== entry && $0.featureTwin == nil }),
                let twinFormat = registry.format(named: twinName),
                Self.sameFeatureTransforms(format.capabilities, twinFormat.capabilities)
            else { continue }
            entry.featureTwin = (twin, twin.log.checkpoint)
        }

        var report = InspectionReport(
            input: input.displayName, format: format.name, header: header, featureCount: 0,
            geometryKinds: [:], emptyGeometries: 0, coordinateCount: 0, hasAltitude: false,
            bounds: nil, properties: [:], titled: 0, described: 0, styled: 0, readWarnings: [],
            losses: [:])
        // Features a piece at a time: counted, then written by every target (each target's
        // writer and log are used by one thread at a time).
        let jobs = max(1, options.jobs ?? ConversionOptions.defaultJobs)
        let writing = targets.filter(\.takesFeatures)
        var written: BackgroundTask<[Void]>?
        defer { _ = written?.value() }  // never leave the targets writing behind an error
        // Pieces written in the background while the next are read, each target taken by the
        // next free core (with one job, written where they were read).
        func writeLater(_ pieces: [InspectionPiece]) {
            guard jobs > 1 else {
                // (One thread: written here, before the next piece is read.)
                for target in writing { for piece in pieces { target.write(piece) } }
                return
            }
            _ = written?.value()
            written = BackgroundTask {
                let write = { (target: InspectionTarget) in for piece in pieces { target.write(piece) } }
                return writing.concurrentMap(write)
            }
        }
        let readerOptions = format.readerOptions(options, for: input)
        // (Shapes only for the targets' memo: `memoizesLosses`.)
        let shapes = memoizesLosses ? FeatureShapeTable() : nil
        if jobs >= 2, header.crs == nil, let runs, runs.cuts(&featureReader) {
            // Runs of whole features parsed and counted on every core, as a conversion's.
            let inspectionRuns = InspectionRuns(
                jobs: jobs, inputName: input.displayName,
                size: max(16, readerOptions.chunkBytes / 4), shapesFeatures: shapes != nil, makeChecks: makeChecks)
            try inspectionRuns.read(
                into: readLog, shapes: shapes, count: { $0.add(to: &report) },
                writeInTurn: { piece in for target in writing { target.write(piece) } }, writeLater: writeLater
            ) { (size) throws(GeoConvError) in
                try runs.next(&featureReader, size)
            }
            if try featureReader.next() != nil {
                throw GeoConvError(
                    .invalidInput, "a feature after the runs of features", at: featureReader.lastLocation)
            }
        } else {
            var features: [Feature] = []
            var locations: [SourceLocation?] = []
            var counts = InspectionCounts()
            var shaper = FeatureShaper()
            func flush() {
                guard !features.isEmpty else { return }
                let locationsHere = locations
                counts.add(to: &report)
                let piece = InspectionPiece(features: features, shapes: shapes?.shapes(of: shaper) ?? []) {
                    locationsHere[$0]
                }
                writeLater([piece])
                features.removeAll(keepingCapacity: true)
                locations.removeAll(keepingCapacity: true)
                counts = InspectionCounts()
                shaper = FeatureShaper()
            }
            while let original = try featureReader.next() {
                readLog.currentLocation = featureReader.lastLocation
                features.append(original)
                let shape = shapes != nil ? shaper.add(original) : -1
                locations.append(featureReader.lastLocation)
                try counts.add(original, shape: shape, checkedBy: &checks, diagnostics: readLog)
                // (What the reader says while reading the next feature is placed by the reader,
                // as in a conversion, whose reader reads ahead with a log of its own.)
                readLog.currentLocation = nil
                if features.count == 4096 { flush() }
            }
            flush()
        }
        _ = written?.value()
        written = nil
        // Each writer finishes as a conversion's would: what it reports only once it has seen
        // every feature (a shapefile's columns, a CSV's header) is a loss too.
        for target in targets { target.finish() }
        report.readWarnings = readLog.summary
        report.readingLoses = readLog.entries.values.contains { !$0.first.isNote } || !readLog.skippedFeatures.isEmpty
        for target in targets {
            target.absorbTwin()
            report.losses[target.name] = target.log.summary
        }
        return report
    }

}
