extension Feature {
    /// How the feature is named in messages: its id, else its title, else "a feature".
    public var displayName: String {
        if let id { return "feature \"\(id)\"" }
        if let title { return "feature \"\(title.count > 40 ? String(title.prefix(40)) + "…" : title)\"" }
        return "a feature"
    }

    /// Throws when a position, circle radius or style number of the feature is NaN or
    /// infinite: no output format can hold one, so every writer refuses the feature
    /// (`location` is where it came from; `format` names the output).
    ///
    /// Readers refuse such numbers; they can only come from a transform or from a caller
    /// that builds features in code.
    public func requireFinite(
        writing format: String, at location: @autoclosure () -> SourceLocation?
    ) throws(GeoConvError) {
        guard !isAllFinite, let problem = firstNonFiniteValue() else { return }
        throw GeoConvError(
            .invalidInput,
            "\(displayName) has a non-finite \(problem.what) (\(problem.value)); \(format) cannot hold NaN or Infinity",
            at: location(), hint: "fix the value where it is computed; nothing was written")
    }

    /// Whether every position, the circle radius and every style number is finite (the
    /// per-feature check: no message is built unless one is not).
    package var isAllFinite: Bool {
        switch geometry {
        case .point(let c)?:
            guard c.isFinite else { return false }
        case .circle(let c, let radius)?:
            guard c.isFinite, radius.isFinite else { return false }
        case let geometry?:
            var finite = true
            geometry.forEachCoordinate { c in if finite && !c.isFinite { finite = false } }
            guard finite else { return false }
        case nil:
            break
        }
        return style.numbersAreFinite  // (asked of the style in place: no copy of it per feature)
    }

    /// The first NaN or infinite number among the feature's positions, circle radius and
    /// style numbers, with what it is.
    public func firstNonFiniteValue() -> (what: String, value: Double)? {
        var found: (what: String, value: Double)?
        var index = 0
        geometry?.forEachCoordinate { c in
            defer { index += 1 }
            guard found == nil else { return }
            if !c.longitude.isFinite {
                found = ("longitude at position \(index)", c.longitude)
            } else if !c.latitude.isFinite {
                found = ("latitude at position \(index)", c.latitude)
            } else if let altitude = c.altitude, !altitude.isFinite {
                found = ("altitude at position \(index)", altitude)
            }
        }
        if let found { return found }
        if case .circle(_, let radius)? = geometry, !radius.isFinite { return ("circle radius", radius) }
        let numbers: [(String, Double?)] = [
            ("stroke width", style.strokeWidth), ("rotation", style.rotation),
            ("opacity", style.opacity), ("icon scale", style.iconScale),
            ("ground anchor", style.groundAnchor.map { $0.x + $0.y }),
            ("info-window anchor", style.infoWindowAnchor.map { $0.x + $0.y }),
        ]
        for (what, value) in numbers {
            if let value, !value.isFinite { return (what, value) }
        }
        for span in style.spans where !span.segments.isFinite { return ("style span length", span.segments) }
        return nil
    }
}

extension Coordinate {
    /// Whether longitude, latitude and any altitude are finite.
    @inline(__always) var isFinite: Bool {
        longitude.isFinite && latitude.isFinite && (altitude?.isFinite ?? true)
    }
}

extension Style {
    /// Whether every number of the style is finite.
    var numbersAreFinite: Bool {
        if isEmpty { return true }  // (most features: no field read, no spans array retained)
        func finite(_ value: Double?) -> Bool { value?.isFinite ?? true }
        return finite(strokeWidth) && finite(rotation) && finite(opacity) && finite(iconScale)
            && finite(groundAnchor.map { $0.x + $0.y }) && finite(infoWindowAnchor.map { $0.x + $0.y })
            && spans.allSatisfy { $0.segments.isFinite }
    }
}
