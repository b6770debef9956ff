/// What `geoconv validate` found.
public struct ValidationReport: Sendable {
    /// The input's name.
    public var input: String
    /// The format it was read as.
    public var format: String
    /// Features read; one that could not be read (an error listed instead) is not counted.
    public var featureCount: Int
    /// Every problem, errors and warnings, in input order.
    public var problems: [ValidationProblem]

    /// Whether there is no error.
    public var isValid: Bool { !problems.contains { $0.severity == .error } }
}

extension Converter {
    /// Checks an input completely and lists every problem, in input order, each with its place.
    ///
    /// The input is read to the end, a bad feature (or line) being listed as an error and
    /// stepped over as `--skip-invalid` does; reading stops early only where the input cannot
    /// be resynchronised (JSON or XML that does not parse, a safety limit), that error being
    /// the last. GeoJSON is also checked against RFC 7946: errors where it breaks a MUST,
    /// warnings for SHOULDs (ring orientation) and the deviations geoconv tolerates, each with
    /// its JSON Pointer. In WGS84 longitude/latitude data (no CRS in the file, none in
    /// `options.sourceCRS`) every position outside longitude ±180 / latitude ±90 is an error
    /// (placed at the position itself in GeoJSON, at its feature or line elsewhere). A CRS
    /// PROJ does not know, and coordinates it cannot transform, are errors too; everything
    /// else a conversion would warn about while reading is a warning.
    public func validate(
        _ input: InputSource, options: ConversionOptions = ConversionOptions()
    ) throws(GeoConvError)
        -> ValidationReport
    {
        let reader = try ByteReader(input)
        let format = try inputFormat(for: input, reader: reader, options: options)
        let log = DiagnosticLog()
        log.listsEveryWarning = true
        var pass = ValidationPass(inputName: input.displayName, sourceCRS: options.sourceCRS, log: log)
        if let makeValidator = format.capabilities.makeValidator {
            do throws(GeoConvError) {
                var features = try makeValidator(reader, format.readerOptions(options, for: input), log)
                pass.read(&features) { $0.positionsOutOfRange }
                for problem in features.problems { pass.add(problem.severity, problem.message, at: problem.location) }
            } catch {
                pass.stopped = error
            }
        } else {
            guard let makeReader = format.makeReader else {
                throw GeoConvError(.usage, "\(format.name) cannot be read")
            }
            var readerOptions = format.readerOptions(options, for: input)
            readerOptions.skipInvalid = true  // every bad feature listed, not the first
            readerOptions.strict = false
            do throws(GeoConvError) {
                var features = try makeReader(reader, readerOptions, log)
                pass.read(&features) { _ in [] }
            } catch {
                pass.stopped = error
            }
        }
        return ValidationReport(
            input: input.displayName, format: format.name, featureCount: pass.featureCount,
            problems: pass.sortedProblems())
    }
}

/// One run of `validate`: the problems found so far.
private struct ValidationPass {
    let inputName: String
    let sourceCRS: String?
    let log: DiagnosticLog
    var problems: [ValidationProblem] = []
    var featureCount = 0
    /// The error reading stopped at, if any: listed after what was found before it.
    var stopped: GeoConvError?
    /// Positions out of range listed, and those beyond `DiagnosticLog.maximumListedSkips`.
    var listedPositions = 0, unlistedPositions = 0

    init(inputName: String, sourceCRS: String?, log: DiagnosticLog) {
        self.inputName = inputName
        self.sourceCRS = sourceCRS
        self.log = log
    }

    mutating func add(_ severity: ValidationProblem.Severity, _ message: String, at location: SourceLocation?) {
        var place = location ?? SourceLocation()
        if place.file == nil { place.file = inputName }
        problems.append(ValidationProblem(severity: severity, message: message, location: place))
    }

    mutating func add(_ error: GeoConvError) { add(.error, error.message, at: error.location) }

    /// Reads every feature: positions out of range are errors in WGS84 data, and the CRS must
    /// be one PROJ can transform from. `exactPlaces` says where the out-of-range positions of
    /// the feature just read are, when the reader knows (GeoJSON); otherwise they are placed
    /// at their feature.
    mutating func read<Reader: FeatureReader>(
        _ features: inout Reader, exactPlaces: (Reader) -> [(coordinate: Coordinate, location: SourceLocation)]
    ) {
        var range = GeographicRangeCheck(sourceCRS: sourceCRS)
        var reproject = Reproject(sourceCRS: sourceCRS)
        var reprojects = true
        do throws(GeoConvError) {
            let header = try features.readHeader()
            _ = try range.transform(header, diagnostics: log)
            do throws(GeoConvError) {
                _ = try reproject.transform(header, diagnostics: log)
            } catch {
                add(error)  // a CRS PROJ does not know; the rest is still checked
                reprojects = false
            }
            while let feature = try features.next() {
                featureCount += 1
                log.currentLocation = features.lastLocation
                if range.isActive, let geometry = feature.geometry {
                    var places = exactPlaces(features)[...]
                    for outside in GeographicRangeCheck.positionsOutOfRange(in: geometry) {
                        var location = features.lastLocation
                        if let index = places.firstIndex(where: {
                            $0.coordinate.longitude == outside.coordinate.longitude
                                && $0.coordinate.latitude == outside.coordinate.latitude
                        }) {
                            location = places[index].location
                            places = places[(index + 1)...]
                        }
                        if listedPositions < DiagnosticLog.maximumListedSkips {
                            add(.error, outside.message, at: location)
                            listedPositions += 1
                        } else {
                            unlistedPositions += 1
                        }
                    }
                }
                guard reprojects else { continue }
                do throws(GeoConvError) {
                    _ = try reproject.transform(feature, diagnostics: log)
                } catch {
                    add(.error, error.message, at: error.location ?? features.lastLocation)
                }
            }
        } catch {
            stopped = error
        }
        log.currentLocation = nil
    }

    /// Every problem, with the features the readers skipped (errors) and the warnings they
    /// reported, in input order: by line and column, those without a line last.
    mutating func sortedProblems() -> [ValidationProblem] {
        if unlistedPositions > 0 {
            add(
                .error, "… and \(unlistedPositions) more positions outside longitude ±180 / latitude ±90, not listed",
                at: nil)
        }
        for skipped in log.skippedFeatures { add(.error, skipped.message, at: skipped.location) }
        if log.unlistedSkips > 0 {
            add(.error, "… and \(log.unlistedSkips) more invalid features, not listed", at: nil)
        }
        for warning in log.everyWarning { add(.warning, warning.message, at: warning.location) }
        if log.unlistedWarnings > 0 {
            add(.warning, "… and \(log.unlistedWarnings) more warnings, not listed", at: nil)
        }
        if let stopped { add(stopped) }
        return problems.enumerated().sorted { a, b in
            let left = (a.element.location.line ?? .max, a.element.location.column ?? 0, a.offset)
            let right = (b.element.location.line ?? .max, b.element.location.column ?? 0, b.offset)
            return left < right
        }.map(\.element)
    }
}
