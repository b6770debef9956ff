import GeoConvCore
internal import GeoConvXML

/// What one `wpt`, `rtept` or `trkpt` holds besides its position.
struct GPXPoint {
    var coordinate: Coordinate
    /// Whether its `lat` and `lon` are numbers of degrees (a point without is kept as a
    /// waypoint without geometry, and left out of a route or track).
    var hasPosition = true
    var time: String?
    /// `name`, `cmt`, `sym`… and `links`, `extensions`, in document order.
    var fields: JSONObject = [:]
}

/// Waypoints, routes and tracks.
extension GPXReaderState {
    /// Reads a `wpt`, `rte` or `trk` (its start just read) to its end. An invalid value is
    /// returned as the failure, the element still read whole, so that it can be skipped.
    func readFeature(_ kind: GPXFeatureKind, isEmpty: Bool, at start: SourceLocation) throws -> (Feature, GeoConvError?)
    {
        var failure: GeoConvError?
        var feature = Feature(geometry: nil)
        switch kind {
        case .waypoint:
            let point = try readPoint(isEmpty: isEmpty, at: start, failure: &failure)
            feature.geometry = point.hasPosition ? .point(point.coordinate) : nil
            if let time = point.time { feature.properties["timestamp"] = .string(time) }
            take(point.fields, into: &feature)
        case .route, .track:
            var lines: [[GPXPoint]] = []
            var fields: JSONObject = [:]
            if !isEmpty {
                children: while let event = try parser.next() {
                    switch event {
                    case .start(let child, let childEmpty):
                        let at = location()
                        switch child {
                        case "rtept" where kind == .route:
                            if lines.isEmpty { lines.append([]) }
                            let point = try readPoint(isEmpty: childEmpty, at: at, failure: &failure)
                            if point.hasPosition { lines[0].append(point) }
                        case "trkseg" where kind == .track:
                            let segment = try readSegment(isEmpty: childEmpty, failure: &failure)
                            if segment.isEmpty {
                                // (A pause in a recording: no point to keep, and the other
                                // segments' per-point times stay matched to their points.)
                                diagnostics.note(GPXCode.emptySegmentDropped, "an empty <trkseg> is left out", at: at)
                            } else {
                                lines.append(segment)
                            }
                        default:
                            try GPXFields.read(
                                child, isEmpty: childEmpty, parser: parser, into: &fields, diagnostics: diagnostics,
                                at: at)
                        }
                    case .end: break children
                    case .text: continue
                    }
                }
            }
            take(fields, into: &feature)
            let paths = lines.map { Path($0.map(\.coordinate)) }
            if kind == .route {
                feature.geometry = paths.first.map { .lineString($0) } ?? .empty(.lineString)
            } else {
                feature.geometry = paths.isEmpty ? .empty(.multiLineString) : .multiLineString(paths)
            }
            if let perPoint = Self.coordinateProperties(lines, nested: kind == .track) {
                // Joined with per-point values kept as a field (those that did not fit the points).
                var all = feature.properties["coordinateProperties"]?.objectValue ?? [:]
                all.merge(perPoint) { $1 }
                feature.properties["coordinateProperties"] = .object(all)
            }
        }
        return (feature, failure)
    }

    /// The fields `take(_:into:)` gives a place of their own.
    static let placedFields: Set<String> = ["name", "desc", "sym", "extensions", GPXFields.gdalFields]

    /// Moves a feature's fields to their places: `name` → title, `desc` → snippet, `sym` →
    /// marker symbol, GDAL fields (`ogr:` extensions) → properties, the rest → properties.
    private func take(_ fields: JSONObject, into feature: inout Feature) {
        for (key, value) in fields {
            switch key {
            case "name": feature.title = value.stringValue
            case "desc": feature.snippet = value.stringValue
            case "sym":
                feature.style.markerSymbol = value.stringValue
                feature.properties["marker-symbol"] = value
            case GPXFields.gdalFields:
                for (name, field) in value.objectValue ?? [:] { feature.properties[name] = field }
            default: feature.properties[key] = value
            }
        }
    }

    /// Per-point times and fields, `nil` when no point has any: `times` and each field as an
    /// array as long as the points (`null` where a point has none); for tracks, one such
    /// array per segment.
    static func coordinateProperties(_ lines: [[GPXPoint]], nested: Bool) -> JSONObject? {
        // Garmin's TrackPointExtension values (heart rate, cadence…) as per-point values.
        let lines = lines.map { line in
            line.map { point in
                guard point.fields["extensions"] != nil else { return point }
                var point = point
                GarminTrackPointExtension.take(from: &point.fields)
                return point
            }
        }
        var names: [String] = []
        var hasTimes = false
        for line in lines {
            for point in line {
                if point.time != nil { hasTimes = true }
                for key in point.fields.keys where !names.contains(key) { names.append(key) }
            }
        }
        guard hasTimes || !names.isEmpty else { return nil }
        func column(_ value: (GPXPoint) -> JSONValue) -> JSONValue {
            let perLine = lines.map { line in JSONValue.array(line.map(value)) }
            return nested ? .array(perLine) : (perLine.first ?? .array([]))
        }
        var result: JSONObject = [:]
        if hasTimes { result["times"] = column { $0.time.map(JSONValue.string) ?? .null } }
        for name in names { result[name] = column { $0.fields[name] ?? .null } }
        return result
    }

    private func readSegment(isEmpty: Bool, failure: inout GeoConvError?) throws -> [GPXPoint] {
        var points: [GPXPoint] = []
        guard !isEmpty else { return points }
        while let event = try parser.next() {
            switch event {
            case .start(let child, let childEmpty):
                let at = location()
                if child == "trkpt" {
                    let point = try readPoint(isEmpty: childEmpty, at: at, failure: &failure)
                    if point.hasPosition { points.append(point) }
                } else if !childEmpty {
                    let what = child
                    try parser.skipElement()
                    try diagnostics.warn(GPXCode.segmentElementDropped, "<\(what)> in a trkseg is not kept", at: at)
                }
            case .end: return points
            case .text: continue
            }
        }
        return points
    }

    /// A `wpt`, `rtept` or `trkpt` (its start just read), to its end.
    func readPoint(isEmpty: Bool, at start: SourceLocation, failure: inout GeoConvError?) throws -> GPXPoint {
        var point = GPXPoint(coordinate: Coordinate(latitude: 0, longitude: 0))
        let latitude = parser.attribute("lat")
        let longitude = parser.attribute("lon")
        if let lat = latitude.flatMap(GPXFields.degrees), let lon = longitude.flatMap(GPXFields.degrees) {
            point.coordinate = Coordinate(latitude: lat, longitude: lon)
        } else {
            let which = latitude.flatMap(GPXFields.degrees) == nil ? ("lat", latitude) : ("lon", longitude)
            let problem =
                which.1.map { "\(which.0)=\"\($0)\" is not a number of degrees" }
                ?? "a point without its \(which.0) attribute"
            point.hasPosition = false
            if options.skipsInvalidFeatures {
                // --skip-invalid: the whole waypoint, route or track is skipped.
                if failure == nil {
                    failure = GeoConvError(
                        .invalidInput, problem, at: start,
                        hint: "every wpt, rtept and trkpt needs lat and lon in decimal degrees")
                }
            } else {
                // As GDAL reads it: the rest of the file, and the point's other values, are read.
                try diagnostics.warn(
                    GPXCode.invalidPosition,
                    "\(problem): the point has no position (a waypoint is kept without geometry; a route or track point is left out)",
                    at: start, hint: "every wpt, rtept and trkpt needs lat and lon in decimal degrees")
            }
        }
        guard !isEmpty else { return point }
        while let event = try parser.next() {
            switch event {
            case .start(let child, let childEmpty):
                let at = location()
                switch child {
                case "ele" where !childEmpty:
                    let text = try parser.readElementText()
                    if let value = GPXFields.decimal(text) {
                        point.coordinate.altitude = value
                    } else if text.trimmed.isEmpty {
                        diagnostics.note(GPXCode.emptyEle, "an empty <ele> is read as no elevation", at: at)
                    } else if options.skipsInvalidFeatures {
                        if failure == nil {
                            failure = GeoConvError(
                                .invalidInput, "<ele>\(text)</ele> is not a number of metres", at: at,
                                hint: "give the elevation as a decimal number")
                        }
                    } else {
                        try diagnostics.warn(
                            GPXCode.invalidEle,
                            "<ele>\(text)</ele> is not a number of metres: the point is kept without its elevation",
                            at: at, hint: "give the elevation as a decimal number")
                    }
                case "time" where !childEmpty: point.time = try parser.readElementText().trimmed
                default:
                    try GPXFields.read(
                        child, isEmpty: childEmpty, parser: parser, into: &point.fields, diagnostics: diagnostics,
                        at: at)
                }
            case .end:
                // GDAL's fields of a point are its fields (a time among them when it was not a dateTime).
                // (When one is named like a GPX element the point has, or one with a place of its
                // own — an `ogr:name` — they stay GDAL's, in their order, so that a waypoint keeps
                // both: `take(_:into:)`.)
                if var gdal = point.fields[GPXFields.gdalFields]?.objectValue {
                    if point.time == nil, let text = gdal["time"]?.stringValue {
                        point.time = text
                        gdal.removeValue(forKey: "time")
                    }
                    if !gdal.keys.contains(where: { point.fields[$0] != nil || Self.placedFields.contains($0) }) {
                        point.fields.removeValue(forKey: GPXFields.gdalFields)
                        for (key, value) in gdal { point.fields[key] = value }
                    } else {
                        point.fields[GPXFields.gdalFields] = .object(gdal)
                    }
                }
                return point
            case .text: continue
            }
        }
        return point
    }
}
