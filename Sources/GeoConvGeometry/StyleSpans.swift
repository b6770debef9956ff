public import GeoConvCore
public import GeoConvFormatKit

/// Repeating style-span patterns along a path (the Maps SDK's `GMSStyleSpans(path, styles,
/// lengths, kind, offset)`), and the explosion of spans into one styled line per span.
public enum StyleSpans {
    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// The segment lengths of a path in a length kind: metres for geodesic and rhumb (on the
    /// Maps SDK's sphere, or WGS84), map units for projected (the world is 2 wide).
    public static func segmentLengths(_ path: Path, kind: LengthKind, model: EarthModel = .sphere) -> [Double] {
        zip(path, path.dropFirst()).map { a, b in
            switch kind {
            case .geodesic: model == .wgs84 ? Geodesic.wgs84.inverse(a, b).distance : Spherical.distance(a, b)
            case .rhumb: Rhumb.distance(a, b, model: model)
            case .projected: WebMercator.distance(a, b)
            }
        }
    }

    /// The spans that repeat `styles` over `lengths` along `path`, starting `offset` into the
    /// pattern. Styles and lengths wrap independently; the pattern's period is
    /// `sum(lengths) × styles.count / gcd(lengths.count, styles.count)`; the offset is wrapped
    /// into [0, period). The last span ends at the end of the path.
    ///
    /// Example: two 100 km geodesic segments, lengths [100000, 50000], styles [white, black]
    /// → [white × 1.0, black × 0.5, white × 0.5].
    public static func pattern(
        path: Path, styles: [StrokeStyle], lengths: [Double], kind: LengthKind, model: EarthModel = .sphere,
        offset: Double = 0
    ) -> [StyleSpan] {
        guard !styles.isEmpty, !lengths.isEmpty, lengths.allSatisfy({ $0 > 0 && $0.isFinite }), path.count >= 2 else {
            return []
        }
        let segmentLengths = segmentLengths(path, kind: kind, model: model)
        var cumulative = [0.0]
        for length in segmentLengths { cumulative.append(cumulative[cumulative.count - 1] + length) }
        let total = cumulative[cumulative.count - 1]
        guard total > 0 else { return [] }
        let period = lengths.reduce(0, +) * Double(styles.count) / Double(gcd(lengths.count, styles.count))
        var wrapped = offset.truncatingRemainder(dividingBy: period)
        if wrapped < 0 { wrapped += period }

        func segments(forLength length: Double) -> Double {
            if length >= total { return Double(segmentLengths.count) }
            var low = 0
            var high = segmentLengths.count - 1
            while low < high {  // the segment whose cumulative range holds `length`
                let mid = (low + high + 1) / 2
                if cumulative[mid] <= length { low = mid } else { high = mid - 1 }
            }
            let length0 = segmentLengths[low]
            return Double(low) + (length0 > 0 ? (length - cumulative[low]) / length0 : 0)
        }

        var spans: [StyleSpan] = []
        var position = -wrapped
        var previous = 0.0
        var i = 0
        var j = 0
        while position < total {
            position += lengths[i % lengths.count]
            if position > 0 {
                let index = segments(forLength: min(position, total))
                let delta = index - previous
                if delta > 0, let span = StyleSpan(style: styles[j % styles.count], segments: delta) {
                    spans.append(span)
                    previous = index
                }
            }
            i += 1
            j += 1
        }
        return spans
    }

    /// The pieces of a path that spans cover: for each span, the sub-path from its start to its
    /// end (fractional segment positions; split points on the great circle when `geodesic`,
    /// else straight in longitude/latitude), with the span's style. Spans that run short are
    /// extended by the last one to the end of the path.
    public static func pieces(of path: Path, spans: [StyleSpan], geodesic: Bool) -> [(path: Path, style: StrokeStyle)] {
        guard path.count >= 2, !spans.isEmpty else { return [] }
        let segmentCount = Double(path.count - 1)
        func point(at position: Double) -> Coordinate {
            let index = min(Int(position), path.count - 2)
            let t = position - Double(index)
            let a = path[index]
            let b = path[index + 1]
            if t <= 0 { return a }
            if t >= 1 { return b }
            if geodesic { return Spherical.interpolate(from: a, to: b, fraction: t) }
            var altitude: Double?
            if let h1 = a.altitude, let h2 = b.altitude { altitude = h1 + (h2 - h1) * t }
            return Coordinate(
                latitude: a.latitude + (b.latitude - a.latitude) * t,
                longitude: a.longitude + (b.longitude - a.longitude) * t, altitude: altitude)
        }
        var result: [(Path, StrokeStyle)] = []
        var start = 0.0
        for (k, span) in spans.enumerated() {
            guard start < segmentCount else { break }
            let end = k == spans.count - 1 ? segmentCount : min(segmentCount, start + span.segments)
            var coordinates = [point(at: start)]
            var vertex = Int(start) + 1
            while Double(vertex) < end {
                coordinates.append(path[vertex])
                vertex += 1
            }
            coordinates.append(point(at: end))
            result.append((Path(coordinates), span.style))
            start = end
        }
        return result
    }
}

/// Explodes polylines with style spans into one line per span, so viewers without spans
/// show them: gradients become `steps` lines of interpolated colour, stamps are reported
/// as lost. Each piece keeps the feature's properties plus `geoconv:span` (its index).
public struct ExplodeSpans: FeatureTransform {
    /// Colour steps per gradient span.
    public var steps: Int

    /// Creates the transform.
    public init(steps: Int = 8) { self.steps = max(1, steps) }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        guard !feature.style.spans.isEmpty else { return [feature] }
        let paths: [Path]
        switch feature.geometry {
        case .lineString(let path)?: paths = [path]
        case .multiLineString(let lines)?: paths = lines
        default: return [feature]
        }
        var result: [Feature] = []
        var index = 0
        for path in paths {
            for (piece, style) in StyleSpans.pieces(
                of: path, spans: feature.style.spans, geodesic: feature.style.geodesic == true)
            {
                if style.stamp != nil {
                    try diagnostics.warn(
                        GeometryCode.spansStampDropped,
                        "stamp images of style spans are dropped when spans are exploded")
                }
                let parts: [(Path, Color)]
                if style.isGradient, piece.count >= 2 {
                    try diagnostics.warn(
                        GeometryCode.spansGradientDiscretised,
                        "gradient spans are drawn as \(steps) lines of stepped colour")
                    let stepSpans = (0..<steps).compactMap { _ in
                        StyleSpan(style: .solid(.black), segments: Double(piece.count - 1) / Double(steps))
                    }
                    let sub = StyleSpans.pieces(of: piece, spans: stepSpans, geodesic: feature.style.geodesic == true)
                    parts = sub.enumerated().map {
                        ($0.element.path, style.color(at: (Double($0.offset) + 0.5) / Double(steps)))
                    }
                } else {
                    parts = [(piece, style.fromColor)]
                }
                for (subPath, color) in parts {
                    var copy = feature
                    copy.geometry = .lineString(subPath)
                    copy.style.spans = []
                    copy.style.strokeColor = color
                    copy[model: .span] = index
                    copy.properties.removeValue(forKey: .spans)
                    result.append(copy)
                }
                index += 1
            }
        }
        diagnostics.note(GeometryCode.spansExploded, "polylines with style spans are written as one line per span")
        return result
    }
}

/// Computes style spans from a repeating pattern during a conversion (`--span-pattern`).
public struct ApplySpanPattern: FeatureTransform {
    /// The styles, in order.
    public var styles: [StrokeStyle]
    /// The lengths, in the kind's unit.
    public var lengths: [Double]
    /// How lengths are measured.
    public var kind: LengthKind
    /// Where the pattern starts.
    public var offset: Double

    /// Creates the transform.
    public init(styles: [StrokeStyle], lengths: [Double], kind: LengthKind, offset: Double = 0) {
        self.styles = styles
        self.lengths = lengths
        self.kind = kind
        self.offset = offset
    }

    /// Parses `white:100000,black:50000` (colours by CSS name or hex, lengths in the kind's unit).
    public static func parse(_ text: String) -> (styles: [StrokeStyle], lengths: [Double])? {
        var styles: [StrokeStyle] = []
        var lengths: [Double] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: ":")
            guard parts.count == 2, let color = Color(css: String(parts[0])), let length = Double(parts[1]), length > 0,
                length.isFinite
            else { return nil }
            styles.append(.solid(color))
            lengths.append(length)
        }
        return styles.isEmpty ? nil : (styles, lengths)
    }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        guard case .lineString(let path)? = feature.geometry else { return [feature] }
        var copy = feature
        copy.style.spans = StyleSpans.pattern(path: path, styles: styles, lengths: lengths, kind: kind, offset: offset)
        return [copy]
    }
}

/// Douglas–Peucker simplification with a tolerance in metres (distances measured in a local
/// equirectangular projection around each line); rings stay closed with at least 4 positions.
public struct Simplify: FeatureTransform {
    /// The largest distance in metres a removed vertex may be from the simplified line.
    public var tolerance: Double

    /// Creates the transform.
    public init(tolerance: Double) { self.tolerance = tolerance }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        guard let geometry = feature.geometry else { return [feature] }
        var copy = feature
        copy.geometry = simplify(geometry)
        return [copy]
    }

    func simplify(_ geometry: Geometry) -> Geometry {
        switch geometry {
        case .lineString(let path): .lineString(line(path, minimum: 2))
        case .multiLineString(let lines): .multiLineString(lines.map { line($0, minimum: 2) })
        case .polygon(let rings): .polygon(polygon(rings))
        case .multiPolygon(let polygons): .multiPolygon(polygons.map(polygon))
        case .geometryCollection(let members): .geometryCollection(members.map(simplify))
        default: geometry
        }
    }

    func polygon(_ rings: PolygonRings) -> PolygonRings {
        PolygonRings(outer: line(rings.outer, minimum: 4), holes: rings.holes.map { line($0, minimum: 4) })
    }

    func line(_ path: Path, minimum: Int) -> Path {
        guard path.count > minimum, tolerance > 0 else { return path }
        let lat0 = Spherical.rad(path.map(\.latitude).reduce(0, +) / Double(path.count))
        let k = Spherical.radius * .pi / 180
        let xy = path.map { ($0.longitude * k * cosine(lat0), $0.latitude * k) }
        var keep = [Bool](repeating: false, count: path.count)
        keep[0] = true
        keep[path.count - 1] = true
        var stack = [(0, path.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let (ax, ay) = xy[first]
            let (bx, by) = xy[last]
            let dx = bx - ax
            let dy = by - ay
            let length2 = dx * dx + dy * dy
            var worst = -1.0
            var index = first
            for i in (first + 1)..<last {
                let (px, py) = xy[i]
                var t = length2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / length2 : 0
                t = min(1, max(0, t))
                let ex = px - (ax + t * dx)
                let ey = py - (ay + t * dy)
                let d = (ex * ex + ey * ey).squareRoot()
                if d > worst {
                    worst = d
                    index = i
                }
            }
            if worst > tolerance {
                keep[index] = true
                stack.append((first, index))
                stack.append((index, last))
            }
        }
        var result = zip(path, keep).filter(\.1).map(\.0)
        // Keep enough vertices: add back the farthest-apart original ones.
        var i = 1
        while result.count < minimum, i < path.count - 1 {
            if !keep[i] {
                keep[i] = true
                result = zip(path, keep).filter(\.1).map(\.0)
            }
            i += 1
        }
        return Path(result)
    }

    private func cosine(_ x: Double) -> Double { Spherical.cosine(x) }
}
