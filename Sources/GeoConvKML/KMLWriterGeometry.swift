import GeoConvCore
internal import GeoConvXML

/// Geometry: coordinates, Point/LineString/Polygon/MultiGeometry, gx:Track and gx:MultiTrack.
extension KMLWriterState {
    func usesTrack(_ feature: Feature) -> Bool {
        guard case .lineString(let path)? = feature.geometry,
            let times = property("coordinateProperties", of: feature)?.objectValue?["times"]?.arrayValue
        else { return false }
        return times.count == path.count && times.allSatisfy(Self.isTrackTime)
    }

    /// The times of a `gx:MultiTrack`: one array of time strings per line, each as long as its line.
    func multiTrackTimes(_ feature: Feature) -> [[JSONValue]]? {
        guard case .multiLineString(let lines)? = feature.geometry,
            let times = property("coordinateProperties", of: feature)?.objectValue?["times"]?.arrayValue,
            times.count == lines.count
        else { return nil }
        var result: [[JSONValue]] = []
        for (line, entry) in zip(lines, times) {
            guard let array = entry.arrayValue, array.count == line.count, array.allSatisfy(Self.isTrackTime) else {
                return nil
            }
            result.append(array)
        }
        return result
    }

    /// A `gx:Track`'s `<when>`: a time. (A position without one, `null`, read from gpsbabel's
    /// `<when/>`, has none the OGC schema accepts: such a track is a LineString with its
    /// times as data, `kml.track-times-as-data`.)
    static func isTrackTime(_ value: JSONValue) -> Bool {
        value.stringValue != nil
    }

    /// A line with per-point times of which some are missing (`null`): no gx:Track can hold
    /// it, so it is a LineString and its times and arrays stay data (`coordinateProperties`);
    /// the arrays' fields are still declared in the schema, with their types and display names.
    func keepTrackAsData(_ feature: Feature, lineCounts: [Int], multi: Bool) throws(GeoConvError) {
        guard let times = property("coordinateProperties", of: feature)?.objectValue?["times"]?.arrayValue,
            times.contains(where: { $0 == .null || $0.arrayValue?.contains(.null) == true })
        else { return }
        try warn(
            KMLCode.trackTimesAsData,
            "a track has positions without a time (gpsbabel's <when/>), which no gx:Track of the OGC schema "
                + "can hold: it is written as a LineString, with its times and per-point values as data "
                + "(coordinateProperties)",
            hint: "give every position a time, or convert to GeoJSON or GPX, which keep a position without one")
        let arrays = trackArrays(feature, lineCounts: lineCounts, multi: multi)
        if !arrays.isEmpty { usesGX = true }
        declareArrayFields(arrays)
    }

    /// A `gx:Track`: its times, then its positions.
    func writeTrack(
        _ path: Path, times: [JSONValue], arrays: [(name: String, lines: [[JSONValue]])] = [], line: Int = 0,
        feature: Feature
    ) throws(GeoConvError) {
        usesGX = true
        append("<gx:Track>")
        try attributes(feature, line: false)
        for time in times { append(text: "<when>\(XMLEscaping.text(time.stringValue ?? ""))</when>") }
        for c in path {
            append("<gx:coord>")
            number(c.longitude)
            buffer.append(0x20)
            number(c.latitude)
            if let altitude = c.altitude {
                buffer.append(0x20)
                number(altitude)
            }
            append("</gx:coord>")
        }
        writeTrackArrays(arrays, line: line)
        append("</gx:Track>")
    }

    // MARK: Geometry

    func number(_ value: Double) {
        if discards { return }
        DecimalFormatter.append(value, digits: options.precision, to: &buffer)
    }

    func coordinates<C: Collection<Coordinate>>(_ points: C) {
        if discards { return }
        append("<coordinates>")
        var first = true
        for c in points {
            if !first { buffer.append(0x20) }
            first = false
            position(c)
        }
        append("</coordinates>")
    }

    /// One tuple of a `<coordinates>`: longitude, latitude and the altitude when known.
    @inline(__always)
    func position(_ c: Coordinate) {
        if discards { return }
        DecimalFormatter.appendPosition(c, digits: options.precision, to: &buffer)
    }

    func attributes(_ feature: Feature, line: Bool) throws(GeoConvError) {
        if property(.extrude, of: feature) == true { append("<extrude>1</extrude>") }
        if line, feature.style.geodesic == true { append("<tessellate>1</tessellate>") }
        if let mode = property(.altitudeMode, of: feature) { try writeAltitudeMode(mode) }
    }

    func ring(_ path: Path) {
        append("<LinearRing>")
        coordinates(path.closed)
        append("</LinearRing>")
    }

    func polygon(_ rings: PolygonRings, _ feature: Feature) throws(GeoConvError) {
        append("<Polygon>")
        try attributes(feature, line: true)
        append("<outerBoundaryIs>")
        ring(rings.outer)
        append("</outerBoundaryIs>")
        for hole in rings.holes {
            append("<innerBoundaryIs>")
            ring(hole)
            append("</innerBoundaryIs>")
        }
        append("</Polygon>")
    }

    func writeGeometry(_ geometry: Geometry, feature: Feature) throws(GeoConvError) {
        switch geometry {
        case .point(let c) where !hasAskedProperties:
            // Most markers: no attributes (each is a property asked for by name), so the tags
            // around the position are two literals.
            append("<Point><coordinates>")
            position(c)
            append("</coordinates></Point>")
        case .point(let c):
            append("<Point>")
            try attributes(feature, line: false)
            coordinates(CollectionOfOne(c))
            append("</Point>")
        case .lineString(let path):
            if usesTrack(feature),
                let times = property("coordinateProperties", of: feature)?.objectValue?["times"]?.arrayValue
            {
                try writeTrack(
                    path, times: times, arrays: trackArrays(feature, lineCounts: [path.count], multi: false),
                    feature: feature)
            } else {
                try keepTrackAsData(feature, lineCounts: [path.count], multi: false)
                append("<LineString>")
                try attributes(feature, line: true)
                coordinates(path)
                append("</LineString>")
            }
        case .polygon(let rings):
            try polygon(rings, feature)
        case .multiPoint(let points):
            append("<MultiGeometry>")
            for p in points { try writeGeometry(.point(p), feature: feature) }
            append("</MultiGeometry>")
        case .multiLineString(let lines) where multiTrackTimes(feature) != nil:
            usesGX = true
            append("<gx:MultiTrack>")
            let arrays = trackArrays(feature, lineCounts: lines.map(\.count), multi: true)
            for (index, (line, times)) in zip(lines, multiTrackTimes(feature) ?? []).enumerated() {
                try writeTrack(line, times: times, arrays: arrays, line: index, feature: feature)
            }
            append("</gx:MultiTrack>")
        case .multiLineString(let lines):
            try keepTrackAsData(feature, lineCounts: lines.map(\.count), multi: true)
            append("<MultiGeometry>")
            for l in lines {
                append("<LineString>")
                try attributes(feature, line: true)
                coordinates(l)
                append("</LineString>")
            }
            append("</MultiGeometry>")
        case .multiPolygon(let polygons):
            append("<MultiGeometry>")
            for p in polygons { try polygon(p, feature) }
            append("</MultiGeometry>")
        case .geometryCollection(let members):
            append("<MultiGeometry>")
            for member in members { try writeGeometry(member, feature: feature) }
            append("</MultiGeometry>")
        case .circle(let center, _):
            try warn(
                KMLCode.circleAsPoint,
                "a circle is written as its centre Point with its radius in ExtendedData (\(ModelKey.radius.name)); other tools show a point",
                hint: "convert circles to polygons (--circles polygon) for other viewers")
            append("<Point>")
            coordinates(CollectionOfOne(center))
            append("</Point>")
        case .empty:
            try warn(KMLCode.emptyGeometryDropped, "an empty geometry is written as a Placemark without geometry")
        }
    }
}
