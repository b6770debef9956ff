import GeoConvCore
import GeoConvIO
internal import GeoConvXML

/// Geometry: Point, LineString, LinearRing, Polygon, MultiGeometry, gx:Track and gx:MultiTrack, coordinates.
extension KMLReaderState {
    // MARK: Geometry

    /// A geometry whose coordinates do not parse is dropped with a warning (the rest of the
    /// placemark is kept, as GDAL and togeojson do); `--strict` makes that an error.
    func parseGeometryOrWarn(
        _ element: String, into feature: inout Feature, times: inout [JSONValue]
    ) throws(XMLParseError) -> Geometry? {
        // Reported at the geometry's start: everything in it is dropped (the message names the bad value).
        let start = location()
        do throws(XMLParseError) {
            return try parseGeometry(element, into: &feature, times: &times)
        } catch {
            guard error.isInvalidValue, parser.sourceFailure == nil else {
                throw error
            }
            // (Under --strict, `next()` throws it once this placemark is read.)
            warn(
                KMLCode.invalidCoordinates, "a \(element) is dropped: \(error.message)", at: start,
                hint: "fix the <coordinates>; the placemark is kept without this geometry")
            // Skip to the end of this geometry element (the error came from inside it).
            while let event = try parser.next() {
                if case .end(let name) = event, name == element { break }
            }
            return nil
        }
    }

    func parseGeometry(
        _ element: String, into feature: inout Feature, times: inout [JSONValue]
    ) throws(XMLParseError) -> Geometry? {
        switch element {
        case "Point":
            let coordinates = try parseSimpleGeometry("Point", into: &feature)
            guard let first = coordinates.first else { return nil }
            return .point(first)
        case "LineString", "LinearRing":
            let coordinates = try parseSimpleGeometry(element, into: &feature)
            return coordinates.isEmpty ? .empty(.lineString) : .lineString(Path(coordinates))
        case "Polygon":
            var outer: Path?
            var holes: [Path] = []
            func ring(in boundary: String?) throws(XMLParseError) {
                let ring = Path(try parseSimpleGeometry("LinearRing", into: &feature))
                if let first = ring.coordinates.first, let last = ring.coordinates.last, ring.coordinates.count > 1,
                    first.latitude != last.latitude || first.longitude != last.longitude
                {
                    warn(
                        KMLCode.unclosedRing,
                        "a LinearRing's first and last coordinates differ; it is closed on writing", at: location())
                }
                if boundary == "outerBoundaryIs", outer == nil { outer = ring } else { holes.append(ring) }
            }
            try parser.forEachChild { (child, isEmpty) throws(XMLParseError) in
                guard !isEmpty else { return }
                switch child {
                case "outerBoundaryIs", "innerBoundaryIs":
                    try parser.forEachChild { (member, memberEmpty) throws(XMLParseError) in
                        guard !memberEmpty else { return }
                        if member == "LinearRing" { try ring(in: child) } else { try attribute(member, into: &feature) }
                    }
                case "LinearRing": try ring(in: nil)
                default: try attribute(child, into: &feature)
                }
            }
            guard let outer, !outer.isEmpty else { return .empty(.polygon) }
            return .polygon(PolygonRings(outer: outer, holes: holes))
        case "MultiGeometry", "MultiPolygon", "MultiLineString", "MultiPoint":
            var members: [Geometry] = []
            try parser.forEachChild { (child, isEmpty) throws(XMLParseError) in
                guard !isEmpty else { return }
                if let member = try parseGeometry(child, into: &feature, times: &times) { members.append(member) }
            }
            return members.isEmpty ? .empty(.geometryCollection) : KMLReaderState.combine(members)
        case "Track":
            return try parseTrack(into: &feature, times: &times)
        case "MultiTrack":
            var lines: [Path] = []
            var allTimes: [JSONValue] = []
            var perTrack: [(arrays: [(name: String, values: [JSONValue])], points: Int)] = []
            try parser.forEachChild { (child, isEmpty) throws(XMLParseError) in
                guard !isEmpty else { return }
                if child == "Track" {
                    var trackTimes: [JSONValue] = []
                    var arrays: [(name: String, values: [JSONValue])] = []
                    switch try parseTrack(into: &feature, times: &trackTimes, arrays: &arrays) {
                    case .lineString(let path)?:
                        lines.append(path)
                        perTrack.append((arrays, path.count))
                    case .point(let c)?:
                        // A track of one position is a line of one in a MultiTrack (as GDAL
                        // reads it), so that the other tracks keep their places.
                        lines.append(Path([c]))
                        perTrack.append((arrays, 1))
                    default:
                        break
                    }
                    allTimes.append(.array(trackTimes))
                } else {
                    try attribute(child, into: &feature)
                }
            }
            times += allTimes
            KMLReaderState.setTrackArrays(perTrack, multi: lines.count > 1, in: &feature)
            return lines.isEmpty ? nil : (lines.count == 1 ? .lineString(lines[0]) : .multiLineString(lines))
        case "Model":
            warn(KMLCode.modelDropped, "3D Model geometries are not carried over", at: location())
            try parser.skipElement()
            return nil
        default:
            warn(KMLCode.elementDropped, "<\(element)> is not carried over", at: location())
            try parser.skipElement()
            return nil
        }
    }

    /// Geometry attributes that apply to the whole feature.
    func attribute(_ element: String, into feature: inout Feature) throws(XMLParseError) {
        switch element {
        case "tessellate":
            if let flag = Self.kmlBool(try parser.readElementText()), flag { feature.style.geodesic = true }
        case "extrude":
            if let flag = Self.kmlBool(try parser.readElementText()), flag { feature[model: .extrude] = true }
        case "altitudeMode":
            feature[model: .altitudeMode] = try parser.readElementText().trimmed
        case "Model":
            warn(KMLCode.modelDropped, "3D Model geometries are not carried over", at: location())
            try parser.skipElement()
        default:
            // gx:angles, gx:interpolate, gx:altitudeOffset, gx:drawOrder…: nothing in the model holds them.
            warn(KMLCode.elementDropped, "<\(element)> in a geometry is not carried over", at: location())
            try parser.skipElement()
        }
    }

    /// Point / LineString / LinearRing: coordinates plus attributes.
    func parseSimpleGeometry(_ element: String, into feature: inout Feature) throws(XMLParseError) -> [Coordinate] {
        var coordinates: [Coordinate] = []
        try parser.forEachChild { (child, isEmpty) throws(XMLParseError) in
            guard !isEmpty else { return }
            if child == "coordinates" {
                coordinates = try parseCoordinates()
            } else {
                try attribute(child, into: &feature)
            }
        }
        return coordinates
    }

    /// `<coordinates>` content: tuples `lon,lat[,alt]` separated by whitespace (spaces around
    /// commas are tolerated, as Google Earth does).
    func parseCoordinates() throws(XMLParseError) -> [Coordinate] {
        let at = location()
        var result: [Coordinate] = []
        var numbers: [Double] = []
        numbers.reserveCapacity(3)
        var failure: String?
        var irregular = IrregularTuples()
        try parser.forEachChild(
            { (_, isEmpty) throws(XMLParseError) in
                if !isEmpty { try parser.skipElement() }
            },
            text: { () throws(XMLParseError) in
                parser.withText { bytes in
                    guard failure == nil else { return }
                    failure = KMLReaderState.scanTuples(bytes, numbers: &numbers, into: &result, irregular: &irregular)
                }
            })
        if let failure { throw parser.invalidValue(failure) }
        if !numbers.isEmpty {
            guard KMLReaderState.appendTuple(numbers, to: &result, irregular: &irregular) else {
                throw parser.invalidValue(
                    "a coordinate tuple needs longitude and latitude, found \(numbers.count) number")
            }
        }
        if irregular.split > 0 {
            warn(
                KMLCode.tuplesWithoutSpaces,
                "\(irregular.split) coordinate tuple(s) of 6, 9… numbers joined by commas without spaces are read as tuples of three (as GDAL's LIBKML reads them)",
                at: at, hint: "separate the lon,lat,alt tuples of <coordinates> with spaces")
        }
        if irregular.extra > 0 {
            warn(
                KMLCode.extraOrdinatesDropped,
                "\(irregular.extra) coordinate tuple(s) with more than three numbers: the fourth and later are dropped",
                at: at, hint: "KML positions are lon,lat[,alt]")
        }
        return result
    }

    /// Tuples of more than three numbers met while scanning `<coordinates>`: those read as
    /// several tuples of three, and those whose extra numbers were dropped.
    struct IrregularTuples {
        var split = 0
        var extra = 0
    }

    /// Appends the position of a tuple's numbers (`lon,lat[,alt]`); false when it has fewer
    /// than two. Six, nine… numbers (tuples whose spaces are missing: `x,y,z,x,y,z`) are read
    /// as tuples of three, as libkml does; four, five, seven… keep their first three.
    static func appendTuple(
        _ numbers: [Double], to result: inout [Coordinate], irregular: inout IrregularTuples
    ) -> Bool {
        guard numbers.count >= 2 else { return false }
        if numbers.count <= 3 {
            result.append(
                Coordinate(latitude: numbers[1], longitude: numbers[0], altitude: numbers.count == 3 ? numbers[2] : nil)
            )
            return true
        }
        if numbers.count % 3 == 0 {
            irregular.split += 1
            for start in stride(from: 0, to: numbers.count, by: 3) {
                result.append(
                    Coordinate(latitude: numbers[start + 1], longitude: numbers[start], altitude: numbers[start + 2]))
            }
        } else {
            irregular.extra += 1
            result.append(Coordinate(latitude: numbers[1], longitude: numbers[0], altitude: numbers[2]))
        }
        return true
    }

    /// Scans coordinate text; returns an error message, or nil.
    static func scanTuples(
        _ bytes: UnsafeBufferPointer<UInt8>, numbers: inout [Double], into result: inout [Coordinate],
        irregular: inout IrregularTuples
    ) -> String? {
        var index = 0
        let count = bytes.count
        var afterComma = false
        while index < count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
                continue
            }
            if byte == UInt8(ascii: ",") {
                afterComma = true
                index += 1
                continue
            }
            let start = index
            while index < count, bytes[index] != 0x20, bytes[index] != 0x09, bytes[index] != 0x0A, bytes[index] != 0x0D,
                bytes[index] != UInt8(ascii: ",")
            {
                index += 1
            }
            guard let value = DecimalParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<index])) else {
                return "'\(String(decoding: bytes[start..<index], as: UTF8.self))' in <coordinates> is not a number"
            }
            guard value.isFinite else {
                return
                    "'\(String(decoding: bytes[start..<index], as: UTF8.self))' in <coordinates> is too large for a 64-bit float"
            }
            // A number not joined to the previous by a comma starts a new tuple.
            if !afterComma, !numbers.isEmpty {
                guard appendTuple(numbers, to: &result, irregular: &irregular) else {
                    return "a coordinate tuple needs longitude and latitude, found \(numbers.count) number"
                }
                numbers.removeAll(keepingCapacity: true)
            }
            numbers.append(value)
            afterComma = false
        }
        return nil
    }

    func parseTrack(into feature: inout Feature, times: inout [JSONValue]) throws(XMLParseError) -> Geometry? {
        var arrays: [(name: String, values: [JSONValue])] = []
        let geometry = try parseTrack(into: &feature, times: &times, arrays: &arrays)
        let points: Int
        switch geometry {
        case .lineString(let path)?: points = path.count
        case .point?: points = 1
        default: points = 0
        }
        KMLReaderState.setTrackArrays([(arrays, points)], multi: false, in: &feature)
        return geometry
    }

    /// A `gx:Track`: its positions, its times appended to `times`, its per-point arrays in `arrays`.
    func parseTrack(
        into feature: inout Feature, times: inout [JSONValue],
        arrays: inout [(name: String, values: [JSONValue])]
    ) throws(XMLParseError) -> Geometry? {
        var coordinates: [Coordinate] = []
        var trackTimes: [JSONValue] = []
        let trackStart = location()
        /// The places of empty `<gx:coord/>`s, in track order, with where each is.
        var emptyCoords: [(index: Int, location: SourceLocation)] = []
        try parser.forEachChild { (child, isEmpty) throws(XMLParseError) in
            if isEmpty {
                if child == "coord" { emptyCoords.append((coordinates.count + emptyCoords.count, location())) }
                // A position without a time (gpsbabel writes `<when/>`): null, so that the
                // times stay matched to the positions.
                if child == "when" { trackTimes.append(.null) }
                return
            }
            switch child {
            case "when":
                let when = try parser.readElementText().trimmed
                trackTimes.append(when.isEmpty ? .null : .string(when))
            case "ExtendedData": arrays += try parseTrackArrays(into: &feature)
            case "coord":
                let text = try parser.readElementText()
                if text.trimmed.isEmpty {
                    emptyCoords.append((coordinates.count + emptyCoords.count, location()))
                    return
                }
                let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "," })
                let values = parts.compactMap { Double($0) }
                guard values.count >= 2, values.count == parts.count else {
                    throw parser.invalidValue("gx:coord needs 'longitude latitude [altitude]', found '\(text)'")
                }
                coordinates.append(
                    Coordinate(latitude: values[1], longitude: values[0], altitude: values.count > 2 ? values[2] : nil))
            default: try attribute(child, into: &feature)
            }
        }
        // A position without coordinates leaves the track with its time (the times and any
        // per-point arrays stay matched to the positions), reported with the time it had.
        let positions = coordinates.count + emptyCoords.count
        for empty in emptyCoords.reversed() {
            let line = empty.location.line.map { " (line \($0))" } ?? ""
            let time =
                empty.index < trackTimes.count && trackTimes.count == positions
                ? trackTimes.remove(at: empty.index).stringValue : nil
            for index in arrays.indices where arrays[index].values.count == positions {
                arrays[index].values.remove(at: empty.index)
            }
            // (Reported at the track: its time and array values are elsewhere in it.)
            warn(
                KMLCode.emptyCoordDropped,
                "position \(empty.index + 1) of a gx:Track has an empty <gx:coord>\(line); it is left out\(time.map { " with its time \($0)" } ?? "") and its array values",
                at: trackStart)
        }
        times += trackTimes
        if coordinates.isEmpty { return nil }
        return coordinates.count == 1 ? .point(coordinates[0]) : .lineString(Path(coordinates))
    }
}
