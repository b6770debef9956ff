import ArgumentParser
import GeoConv

struct Info: ParsableCommand, TakesFormatFlags {
    static let configuration = CommandConfiguration(
        abstract:
            "Describe a file: features by geometry kind, bounds, CRS, properties, and what converting it would lose.",
        discussion: FormatFlags.help(for: .read)
    )

    @OptionGroup var inputOptions: InputOptions

    @Option(
        name: .customLong("to"),
        help: "Only say what converting to these formats would lose (names separated by commas: kml,shapefile).")
    var targets: String?

    @Flag(help: "Print a JSON object instead of text.")
    var json = false

    @Option(
        name: [.customShort("j"), .long], parsing: .unconditional,
        help: ArgumentHelp(
            "Threads: 1 = one thread; 2+ = the formats' counting beside the reading, and inputs cut into "
                + "runs of features (a GeoJSON FeatureCollection, a KML document…) parsed and counted in "
                + "parallel; the report is the same. Default: the processor count (at most 8)."))
    var jobs: Int?

    func validate() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be within 1…256") }
    }

    func run() throws {
        do {
            let names = targets.map { Set($0.split(separator: ",").map { String($0.filter { !$0.isWhitespace }) }) }
            var options = inputOptions.options
            options.jobs = jobs
            let report = try Converter().inspect(inputOptions.source, options: options, targets: names)
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
                lines.append(
                    "bounds: west \(DecimalFormatter.shortest(b.west)), south \(DecimalFormatter.shortest(b.south)), east \(DecimalFormatter.shortest(b.east)), north \(DecimalFormatter.shortest(b.north))"
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
            // What a target loses is said beyond what reading lost, never "nothing lost" while that applies.
            let beyond = report.readingLoses ? " beyond reading" : ""
            for (format, losses) in report.losses {
                lines.append(
                    "to \(format): "
                        + (losses.isEmpty
                            ? "nothing lost\(beyond)"
                            : "\(losses.count) kind\(losses.count == 1 ? "" : "s") of loss\(beyond)"))
                lines += losses.map { "  " + $0 }
            }
            print(lines.joined(separator: "\n").escapingControlCharacters)  // names and values from the input
        } catch {
            throw fail(error)
        }
    }
}

struct Validate: ParsableCommand, TakesFormatFlags {
    static let configuration = CommandConfiguration(
        abstract: "Check a file; exit 0 when valid, else list every problem with file:line:column.",
        discussion: """
            The whole file is read and every problem listed, in input order: each bad feature
            (or line) is an error and reading goes on after it, as --skip-invalid does; only
            input that cannot be resynchronised (JSON or XML that does not parse, a safety
            limit) stops it. GeoJSON is checked against RFC 7946: errors (the document is
            unusable or breaks a MUST) and warnings (SHOULDs such as ring orientation, and
            deviations geoconv tolerates), each with its JSON Pointer. In WGS84 data every
            position outside longitude ±180 / latitude ±90 is an error. Exit status 0 when
            there is no error, 1 otherwise.
            """ + "\n\n" + FormatFlags.help(for: .read)
    )

    @OptionGroup var inputOptions: InputOptions

    @Option(
        name: .customLong("s-srs"), parsing: .unconditional,
        help: "The input's CRS, overriding what the file says; positions are range-checked only in WGS84.")
    var sourceCRS: String?

    func run() throws {
        do {
            var options = inputOptions.options
            options.sourceCRS = sourceCRS
            let result = try Converter().validate(inputOptions.source, options: options)
            for problem in result.problems { print(problem) }
            let errors = result.problems.filter { $0.severity == .error }.count
            let warnings = result.problems.count - errors
            printError(
                "\(result.input): \(result.format), \(result.featureCount) features: "
                    + (errors == 0 ? "valid" : "\(errors) error\(errors == 1 ? "" : "s")")
                    + (warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : ""))
            if errors > 0 { throw ExitCode(1) }
        } catch let error as GeoConvError {
            throw fail(error)
        }
    }
}

struct Measure: ParsableCommand, TakesFormatFlags {
    static let configuration = CommandConfiguration(
        abstract: "Lengths (metres) and areas (m²) of every feature, and their totals.",
        discussion: """
            Lines are measured along their length; polygons by perimeter (all rings) and area
            (outer ring less holes); circles by formula. --kind geodesic follows geodesics
            (WGS84 by Karney's algorithms in Swift, or great circles on the 6,371,009 m sphere);
            rhumb follows constant bearings; projected is straight in Web Mercator, in
            EPSG:3857 metres. Rhumb areas are computed on the sphere.
            Data in another CRS is reprojected to WGS84 first: give it with --s-srs, or in the
            file (EWKT SRID, GeoJSON "crs"). Coordinates that are not longitude/latitude
            (projected data without its CRS) are refused with exit status 1.
            """ + "\n\n" + FormatFlags.help(for: .read)
    )

    @OptionGroup var inputOptions: InputOptions

    @OptionGroup(title: "Choosing what to read (as ogr2ogr)") var selectionOptions: SelectionOptions

    @Option(
        name: .customLong("s-srs"), parsing: .unconditional,
        help: "The input's CRS (EPSG:n, +proj=…, WKT2, urn:ogc:def:crs:…), overriding what the file says.")
    var sourceCRS: String?

    @Option(parsing: .unconditional, help: "geodesic, rhumb or projected.")
    var kind: LengthKind = .geodesic

    @Option(parsing: .unconditional, help: "wgs84 or sphere (R = 6,371,009 m).")
    var model: EarthModel = .wgs84

    @Flag(
        help:
            "Print JSON: {\"model\", \"kind\", \"features\": [{\"index\", \"length_m\", \"area_m2\"}], \"total_length_m\", \"total_area_m2\"}."
    )
    var json = false

    func run() throws {
        do throws(GeoConvError) {
            var options = inputOptions.options
            options.sourceCRS = sourceCRS
            options.selection = selectionOptions.validated
            let report = try Converter().measure(
                inputOptions.source,
                with: Measurer(kind: kind, model: model), options: options)
            func number(_ value: Double) -> JSONValue { JSONNumber(value).map(JSONValue.number) ?? .null }
            if json {
                let object: JSONValue = .object([
                    "model": .string(model.rawValue), "kind": .string(kind.rawValue),
                    "features": .array(
                        report.features.map {
                            .object([
                                "index": .number(JSONNumber($0.index)), "length_m": number($0.length),
                                "area_m2": number($0.area),
                            ])
                        }),
                    "total_length_m": number(report.totalLength), "total_area_m2": number(report.totalArea),
                ])
                print(String(decoding: JSONText.pretty(object), as: UTF8.self))
            } else {
                for row in report.features {
                    print(
                        "\(row.index)\t\(DecimalFormatter.fixed(row.length, digits: 3)) m\t\(DecimalFormatter.fixed(row.area, digits: 3)) m²\t\((row.title ?? "").escapingControlCharacters)"
                    )
                }
                print(
                    "total\t\(DecimalFormatter.fixed(report.totalLength, digits: 3)) m\t\(DecimalFormatter.fixed(report.totalArea, digits: 3)) m²\t(\(model.rawValue), \(kind.rawValue))"
                )
            }
            for line in report.warnings { printError(line) }
        } catch {
            throw fail(error)
        }
    }
}
