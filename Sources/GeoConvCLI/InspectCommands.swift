import ArgumentParser
import GeoConv

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a file: features by geometry kind, bounds, CRS, properties, and what converting it would lose."
    )

    @Argument(help: "The input file, or '-' for standard input.")
    var input: String

    @Option(help: "The input format (default: from the extension or the content).")
    var from: String?

    @Option(help: "Encoded-polyline precision of the input (default 6 for .polyline6, else 5).")
    var polylinePrecision: Int?

    @Flag(help: "Print a JSON object instead of text.")
    var json = false

    func run() throws {
        do {
            let report = try Converter().inspect(input == "-" ? .standardInput : .file(input),
                                                 options: ConversionOptions(inputFormat: from, polylinePrecision: polylinePrecision))
            if json {
                print(String(decoding: JSONText.pretty(report.json), as: UTF8.self))
                return
            }
            var lines: [String] = []
            lines.append("\(report.input): \(report.format)")
            if let name = report.header.name { lines.append("name: \(name)") }
            lines.append("crs: \(report.header.crs ?? "OGC:CRS84 (WGS84 longitude, latitude)")")
            let kinds = report.geometryKinds.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            lines.append("features: \(report.featureCount)" + (kinds.isEmpty ? "" : " (\(kinds))"))
            if report.emptyGeometries > 0 { lines.append("empty geometries: \(report.emptyGeometries)") }
            lines.append("positions: \(report.coordinateCount)" + (report.hasAltitude ? " (with altitudes)" : ""))
            if let b = report.bounds {
                lines.append("bounds: west \(DecimalFormatter.shortest(b.west)), south \(DecimalFormatter.shortest(b.south)), east \(DecimalFormatter.shortest(b.east)), north \(DecimalFormatter.shortest(b.north))"
                             + (b.crossesAntimeridian ? " (crosses the antimeridian)" : ""))
            }
            lines.append("titled: \(report.titled), described: \(report.described), styled: \(report.styled)")
            if let camera = report.header.camera {
                lines.append("camera: \(camera.target.latitude),\(camera.target.longitude) zoom \(camera.zoom)")
            }
            if !report.header.tileLayers.isEmpty { lines.append("tile layers: \(report.header.tileLayers.count)") }
            if !report.properties.isEmpty {
                lines.append("properties:")
                for (key, stats) in report.properties {
                    lines.append("  \(key): \(stats.count) (\(stats.types.joined(separator: ", ")))")
                }
            }
            if !report.readWarnings.isEmpty {
                lines.append("reading:")
                lines += report.readWarnings.map { "  " + $0 }
            }
            for (format, losses) in report.losses {
                lines.append("to \(format): " + (losses.isEmpty ? "nothing lost" : "\(losses.count) kind\(losses.count == 1 ? "" : "s") of loss"))
                lines += losses.map { "  " + $0 }
            }
            print(lines.joined(separator: "\n"))
        } catch {
            throw fail(error)
        }
    }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a file; exit 0 when valid, else list every problem with file:line:column.",
        discussion: """
            GeoJSON is checked against RFC 7946: errors (the document is unusable or breaks a
            MUST) and warnings (SHOULDs such as ring orientation, and deviations geoconv
            tolerates), each with its JSON Pointer. Other formats are checked by reading them
            completely. Exit status 0 when there is no error, 1 otherwise.
            """
    )

    @Argument(help: "The input file, or '-' for standard input.")
    var input: String

    @Option(help: "The input format (default: from the extension or the content).")
    var from: String?

    @Option(help: "Encoded-polyline precision of the input (default 6 for .polyline6, else 5).")
    var polylinePrecision: Int?

    func run() throws {
        do {
            let result = try Converter().validate(input == "-" ? .standardInput : .file(input),
                                                  options: ConversionOptions(inputFormat: from, polylinePrecision: polylinePrecision))
            for problem in result.problems { print(problem) }
            let errors = result.problems.filter { $0.severity == .error }.count
            let warnings = result.problems.count - errors
            printError("\(result.input): \(result.format), \(result.featureCount) features: " +
                       (errors == 0 ? "valid" : "\(errors) error\(errors == 1 ? "" : "s")") +
                       (warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : ""))
            if errors > 0 { throw ExitCode(1) }
        } catch let error as GeoConvError {
            throw fail(error)
        }
    }
}
