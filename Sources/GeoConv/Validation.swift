/// What `geoconv validate` found.
public struct ValidationReport: Sendable {
    /// The input's name.
    public var input: String
    /// The format it was read as.
    public var format: String
    /// Features read.
    public var featureCount: Int
    /// Every problem, errors and warnings, in input order.
    public var problems: [ValidationProblem]

    /// Whether there is no error.
    public var isValid: Bool { !problems.contains { $0.severity == .error } }
}

extension Converter {
    /// Checks an input completely. GeoJSON gets RFC 7946 checks with every problem listed;
    /// other formats are read to the end, stopping at the first error.
    public func validate(_ input: InputSource, options: ConversionOptions = ConversionOptions()) throws(GeoConvError)
        -> ValidationReport
    {
        let reader = try ByteReader(input)
        let format = try inputFormat(for: input, reader: reader, options: options)
        var report = ValidationReport(input: input.displayName, format: format.name, featureCount: 0, problems: [])
        let log = DiagnosticLog()
        if format.name == FileFormat.geoJSON.name || format.name == FileFormat.geoJSONSequence.name {
            var geojson = GeoJSONReader(reader, options: GeoJSONReadOptions(isSequence: format.name == FileFormat.geoJSONSequence.name),
                                        diagnostics: log)
            geojson.collectsProblems = true
            do throws(GeoConvError) {
                _ = try geojson.readHeader()
                while try geojson.next() != nil { report.featureCount += 1 }
                report.problems = geojson.problems
            } catch {
                report.problems = geojson.problems
                report.problems.append(ValidationProblem(severity: .error, message: error.message,
                                                      location: error.location ?? SourceLocation(file: input.displayName)))
            }
            return report
        }
        guard let makeReader = format.makeReader else { throw GeoConvError(.usage, "\(format.name) cannot be read") }
        do throws(GeoConvError) {
            var featureReader = try makeReader(reader, options, log)
            _ = try featureReader.readHeader()
            while try featureReader.next() != nil { report.featureCount += 1 }
        } catch {
            report.problems.append(ValidationProblem(severity: .error, message: error.message,
                                                  location: error.location ?? SourceLocation(file: input.displayName)))
        }
        for entry in log.entries.values {
            report.problems.append(ValidationProblem(severity: .warning, message: entry.first.message,
                                                  location: entry.first.location ?? SourceLocation(file: input.displayName)))
        }
        return report
    }
}
