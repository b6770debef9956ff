import ArgumentParser
import GeoConv

struct PolylineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "polyline",
        abstract: "Encode and decode Google encoded polylines.",
        subcommands: [Encode.self, Decode.self]
    )
}

/// How `polyline decode` prints each path.
enum DecodeFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, geojson, wkt
}

struct Encode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Encode LAT,LNG coordinates into an encoded polyline.",
        discussion: """
            With no coordinates, reads 'lat,lng' lines from standard input (commas or
            whitespace between the two numbers); a blank line ends one path and starts the
            next, and each path is printed on its own line. Negative coordinates may be given
            directly or after '--'. A coordinate outside latitude ±90 / longitude ±180 is a
            warning (an error with --strict): the order is latitude first.
            """
    )

    @Option(parsing: .unconditional, help: "Decimals kept: 5 (Google) or 6 (OSRM, Valhalla); 0…13 accepted.")
    var precision = EncodedPolyline.defaultPrecision

    @Flag(help: "Fail on coordinates outside latitude ±90 / longitude ±180.")
    var strict = false

    @Argument(parsing: .allUnrecognized, help: "Coordinates as LAT,LNG.")
    var coordinates: [String] = []

    func validate() throws {
        guard EncodedPolyline.supportedPrecisions.contains(precision) else {
            throw ValidationError("--precision must be within 0…13 (5 for Google, 6 for OSRM and Valhalla)")
        }
    }

    func run() throws {
        let diagnostics = DiagnosticLog(strict: strict)
        do throws(GeoConvError) {
            let output = try ByteWriter(.standardOutput)
            let arguments = coordinates.filter { $0 != "--" }
            if !arguments.isEmpty {
                var path: [Coordinate] = []
                for (index, text) in arguments.enumerated() {
                    path.append(
                        try CoordinateText.parse(
                            Substring(text), location: SourceLocation(file: "argument \(index + 1)"),
                            diagnostics: diagnostics))
                }
                try output.write(try EncodedPolyline.encode(path, precision: precision) + "\n")
            } else {
                let lines = LineReader(try ByteReader(.standardInput))
                var path: [Coordinate] = []
                var pending = false
                while let line = try lines.nextLine() {
                    let text = String(decoding: line, as: UTF8.self)
                    let trimmed = text.trimmingCharacters(in: " \t")
                    if trimmed.hasPrefix("#") { continue }
                    if trimmed.isEmpty {
                        if pending { try output.write(try EncodedPolyline.encode(path, precision: precision) + "\n") }
                        path.removeAll()
                        pending = false
                        continue
                    }
                    let location = SourceLocation(file: "<stdin>", line: lines.lineNumber, column: 1)
                    path.append(
                        try CoordinateText.parse(Substring(trimmed), location: location, diagnostics: diagnostics))
                    pending = true
                }
                if pending { try output.write(try EncodedPolyline.encode(path, precision: precision) + "\n") }
            }
            try output.commit()
            printWarnings(diagnostics)
        } catch {
            throw fail(error)
        }
    }
}

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode encoded polylines into coordinates.",
        discussion: """
            csv prints one 'lat,lng' line per point; geojson and wkt print one geometry per
            line (a Point for a one-point path, else a LineString). With several paths, csv
            separates them with a blank line. With no argument, reads one encoded path per
            line from standard input.
            """
    )

    @Option(
        parsing: .unconditional,
        help: "Decimals the encoding kept: 5 (Google) or 6 (OSRM, Valhalla); 0…13 accepted.")
    var precision = EncodedPolyline.defaultPrecision

    @Option(parsing: .unconditional, help: "Output: csv (lat,lng lines), geojson or wkt.")
    var format: DecodeFormat = .csv

    @Argument(help: "Encoded polylines (quote them: they contain shell characters such as ` and \\).")
    var encoded: [String] = []

    func validate() throws {
        guard EncodedPolyline.supportedPrecisions.contains(precision) else {
            throw ValidationError("--precision must be within 0…13 (5 for Google, 6 for OSRM and Valhalla)")
        }
    }

    func run() throws {
        do throws(GeoConvError) {
            let output = try ByteWriter(.standardOutput)
            var first = true
            func emit(_ path: [Coordinate]) throws(GeoConvError) {
                switch format {
                case .csv:
                    if !first { try output.write(byte: 10) }
                    for c in path {
                        try output.write(DecimalFormatter.shortest(c.latitude))
                        try output.write(byte: UInt8(ascii: ","))
                        try output.write(DecimalFormatter.shortest(c.longitude))
                        try output.write(byte: 10)
                    }
                case .geojson:
                    try output.write(try GeoJSONWriter.text(for: EncodedPolyline.geometry(for: path)) + "\n")
                case .wkt:
                    try output.write(try WKTWriter().text(for: EncodedPolyline.geometry(for: path)) + "\n")
                }
                first = false
            }
            if !encoded.isEmpty {
                for (index, text) in encoded.enumerated() {
                    do throws(GeoConvError) {
                        try emit(try EncodedPolyline.decode(text, precision: precision))
                    } catch {
                        throw error.inFile("argument \(index + 1)")
                    }
                }
            } else {
                let lines = LineReader(try ByteReader(.standardInput))
                var path: [Coordinate] = []
                while let line = try lines.nextLine() {
                    var trimmed = line[...]
                    while let f = trimmed.first, f == 32 || f == 9 { trimmed = trimmed.dropFirst() }
                    while let l = trimmed.last, l == 32 || l == 9 { trimmed = trimmed.dropLast() }
                    if trimmed.isEmpty { continue }
                    path.removeAll(keepingCapacity: true)
                    do throws(GeoConvError) {
                        try EncodedPolyline.decode(
                            UnsafeBufferPointer(rebasing: trimmed), precision: precision, into: &path)
                    } catch {
                        let column = (trimmed.startIndex - line.startIndex) + (error.location?.byteOffset ?? 0) + 1
                        var located = error
                        located.location = SourceLocation(file: "<stdin>", line: lines.lineNumber, column: column)
                        throw located
                    }
                    try emit(path)
                }
            }
            try output.commit()
        } catch {
            throw fail(error)
        }
    }
}

/// Parsing of `lat,lng` text for `polyline encode`.
enum CoordinateText {
    static func parse(
        _ text: Substring, location: SourceLocation, diagnostics: DiagnosticLog
    ) throws(GeoConvError)
        -> Coordinate
    {
        let fields = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
        guard fields.count == 2, let latitude = Double(fields[0]), let longitude = Double(fields[1]),
            latitude.isFinite, longitude.isFinite,
            fields.allSatisfy({ $0.allSatisfy { "0123456789+-.eE".contains($0) } })
        else {
            throw GeoConvError(
                .invalidInput, "'\(text)' is not a coordinate", at: location,
                hint: "write latitude,longitude in decimal degrees, e.g. 38.5,-120.2")
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        if !coordinate.isValidGeographic {
            var message = "\(text) is outside latitude ±90 / longitude ±180"
            if abs(latitude) > 90, abs(longitude) <= 90 { message += "; it looks like longitude,latitude" }
            try diagnostics.warn(
                PipelineCode.coordinateOutOfRange, message, at: location,
                hint: "coordinates are latitude first; drop --strict to encode it anyway")
        }
        return coordinate
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
