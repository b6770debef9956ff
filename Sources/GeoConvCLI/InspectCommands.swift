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

struct Measure: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lengths (metres) and areas (m²) of every feature, and their totals.",
        discussion: """
            Lines are measured along their length; polygons by perimeter (all rings) and area
            (outer ring less holes); circles by formula. --kind geodesic follows geodesics
            (WGS84 through PROJ's geod_inverse, or great circles on the 6,371,009 m sphere);
            rhumb follows constant bearings; projected is straight in Web Mercator, in
            EPSG:3857 metres. Rhumb areas are computed on the sphere.
            """
    )

    @Argument(help: "The input file, or '-' for standard input.")
    var input: String

    @Option(help: "The input format (default: from the extension or the content).")
    var from: String?

    @Option(help: "geodesic, rhumb or projected.")
    var kind: LengthKind = .geodesic

    @Option(help: "wgs84 or sphere (R = 6,371,009 m).")
    var model: EarthModel = .wgs84

    @Flag(help: "Print JSON: {\"model\", \"kind\", \"features\": [{\"index\", \"length_m\", \"area_m2\"}], \"total_length_m\", \"total_area_m2\"}.")
    var json = false

    func run() throws {
        do throws(GeoConvError) {
            let measurer = Measurer(kind: kind, model: model)
            let reader = try ByteReader(input == "-" ? .standardInput : .file(input))
            let converter = Converter()
            let format = try converter.inputFormat(for: input == "-" ? .standardInput : .file(input), reader: reader,
                                                   options: ConversionOptions(inputFormat: from))
            guard let makeReader = format.makeReader else { throw GeoConvError(.usage, "\(format.name) cannot be read") }
            let log = DiagnosticLog()
            var features = try makeReader(reader, ConversionOptions(inputFormat: from), log)
            var header = try features.readHeader()
            var reproject = Reproject()
            header = try reproject.transform(header, diagnostics: log)
            var rows: [(Int, Double, Double, String?)] = []
            var totalLength = 0.0, totalArea = 0.0
            var index = 0
            while let feature = try features.next() {
                let projected = try reproject.transform(feature, diagnostics: log).first ?? feature
                let (length, area) = projected.geometry.map(measurer.measure) ?? (0, 0)
                rows.append((index, length, area, projected.title))
                totalLength += length
                totalArea += area
                index += 1
            }
            func number(_ value: Double) -> JSONValue { JSONNumber(value).map(JSONValue.number) ?? .null }
            if json {
                let object: JSONValue = .object([
                    "model": .string(model.rawValue), "kind": .string(kind.rawValue),
                    "features": .array(rows.map { .object(["index": .number(JSONNumber($0.0)), "length_m": number($0.1), "area_m2": number($0.2)]) }),
                    "total_length_m": number(totalLength), "total_area_m2": number(totalArea),
                ])
                print(String(decoding: JSONText.pretty(object), as: UTF8.self))
            } else {
                for (index, length, area, title) in rows {
                    print("\(index)\t\(DecimalFormatter.fixed(length, digits: 3)) m\t\(DecimalFormatter.fixed(area, digits: 3)) m²\t\(title ?? "")")
                }
                print("total\t\(DecimalFormatter.fixed(totalLength, digits: 3)) m\t\(DecimalFormatter.fixed(totalArea, digits: 3)) m²\t(\(model.rawValue), \(kind.rawValue))")
            }
            for line in log.summary { printError(line) }
        } catch {
            throw fail(error)
        }
    }
}
