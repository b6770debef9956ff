public import GeoConvCore

/// GeoJSON validation (`geoconv validate`), beside the reader: with `collectsProblems` the
/// reader lists every RFC 7946 problem — errors for MUSTs, warnings for SHOULDs and the
/// deviations geoconv reads anyway — each with its JSON Pointer, and reads on past a bad
/// feature wherever the JSON allows. Conversions take the same checks as warnings.
extension GeoJSONReader {
    /// Problems seen, in input order, when collecting for validation (`collectsProblems`).
    public var problems: [ValidationProblem] { problemBox.items }

    /// When collecting problems: the positions of the feature last returned that are outside
    /// longitude ±180 / latitude ±90, in input order, each with its line, column and JSON
    /// Pointer. Whether they are errors depends on the CRS, which the caller knows.
    public var positionsOutOfRange: [(coordinate: Coordinate, location: SourceLocation)] { problemBox.outOfRange }

    /// RFC 7946 §3.1.6 orientation, reported only when validating (readers must accept either).
    func checkWinding(_ rings: PolygonRings, at location: @autoclosure () -> SourceLocation) throws(GeoConvError) {
        guard collectsProblems else { return }
        if rings.outer.count >= 4, !rings.outer.isCounterClockwise {
            try lenient(
                GeoJSONCode.winding, "an exterior ring should run counter-clockwise (RFC 7946 §3.1.6)", at: location())
        }
        for hole in rings.holes where hole.count >= 4 && hole.isCounterClockwise {
            try lenient(GeoJSONCode.winding, "a hole should run clockwise (RFC 7946 §3.1.6)", at: location())
        }
    }

    /// Checks a `bbox` member's form when validating: 4 or 6 numbers, south ≤ north.
    func checkBBox(_ value: JSONValue?, at location: @autoclosure () -> SourceLocation) throws(GeoConvError) {
        guard collectsProblems, let value else { return }
        guard let list = value.arrayValue else {
            try lenient(GeoJSONCode.bbox, "a bbox must be an array of numbers, found \(value.typeName)", at: location())
            return
        }
        guard list.count == 4 || list.count == 6 else {
            try lenient(
                GeoJSONCode.bbox, "a bbox must hold 4 numbers (2D) or 6 (3D), found \(list.count)", at: location())
            return
        }
        guard list.allSatisfy({ $0.doubleValue != nil }) else {
            try lenient(GeoJSONCode.bbox, "every element of a bbox must be a number", at: location())
            return
        }
    }

    /// A deviation from RFC 7946 that geoconv reads anyway: a warning (a problem when validating).
    func lenient(
        _ code: GeoJSONCode, _ message: @autoclosure () -> String, at location: @autoclosure () -> SourceLocation
    )
        throws(GeoConvError)
    {
        try report(code, message(), at: location(), whenValidating: .warning)
    }

    /// A break of an RFC 7946 MUST that geoconv repairs when converting (an unclosed ring is
    /// closed, a one-position line kept as read): an error when validating, since other
    /// readers may refuse the file, and a warning when converting.
    func repairable(
        _ code: GeoJSONCode, _ message: @autoclosure () -> String, at location: @autoclosure () -> SourceLocation
    )
        throws(GeoConvError)
    {
        try report(code, message(), at: location(), whenValidating: .error)
    }

    /// A warning when converting; a problem of `severity` when validating.
    private func report(
        _ code: GeoJSONCode, _ message: @autoclosure () -> String, at location: @autoclosure () -> SourceLocation,
        whenValidating severity: ValidationProblem.Severity
    ) throws(GeoConvError) {
        if collectsProblems {
            problemBox.items.append(ValidationProblem(severity: severity, message: message(), location: location()))
            return
        }
        try diagnostics.warn(code, message(), at: location())
    }

    /// Lists an error of the feature being read, which is then not returned (validation).
    func listError(_ error: GeoConvError) {
        problemBox.items.append(
            ValidationProblem(severity: .error, message: error.message, location: error.location ?? scanner.location()))
        problemBox.featureFailed = true
    }

    /// When validating, lists an error that is about to end the read (so it is not lost
    /// behind the JSON error that follows it).
    func listWhenValidating(_ error: GeoConvError) {
        if collectsProblems { listError(error) }
    }

    /// A bad value inside a feature: thrown when converting; when validating, listed (the
    /// feature is then not returned) and, with a depth, stepped over as plain JSON so that
    /// later problems are found too. Input that is not JSON there is thrown either way.
    func listOrThrow(_ failure: GeoConvError, steppingOverValueAt depth: Int? = nil) throws(GeoConvError) {
        guard collectsProblems else { throw failure }
        if let depth {
            guard try scanner.peekToken() != nil else { throw failure }
            do throws(GeoConvError) {
                _ = try scanner.parseValue(depth: depth, pointer: "")
            } catch {
                // Not JSON either (NaN, a bare word): the first message says more when it is the same place.
                throw error.location?.byteOffset == failure.location?.byteOffset ? failure : error
            }
        }
        listError(failure)
    }

    /// When validating, records a position outside longitude ±180 / latitude ±90 with its
    /// place (`positionsOutOfRange`); whether that is an error depends on the CRS.
    @inline(__always)
    func notePosition(_ position: Coordinate, at location: @autoclosure () -> SourceLocation) {
        guard collectsProblems, !position.isValidGeographic else { return }
        problemBox.outOfRange.append((position, location()))
    }

    /// When validating, a member of another kind of object than `type` names (RFC 7946
    /// §7.1) is a warning; reading keeps it as a foreign member either way.
    func checkForeignMember(
        _ key: String, of type: String, at location: @autoclosure () -> SourceLocation
    ) throws(GeoConvError) {
        guard collectsProblems else { return }
        try lenient(
            GeoJSONCode.changedSemantics,
            "a \(type) must not have a \"\(key)\" member (RFC 7946 §7.1); it is kept as a foreign member",
            at: location())
    }

    /// Whether a feature that cannot be read is passed over (`--skip-invalid`, or listed
    /// when validating) rather than ending the read.
    var readsPastBadFeatures: Bool { options.skipsInvalidFeatures || collectsProblems }

    /// Reports a feature passed over: listed when validating, else counted as skipped.
    func skip(_ error: GeoConvError) throws(GeoConvError) {
        if collectsProblems {
            listError(error)
        } else {
            try diagnostics.skip(
                GeoJSONCode.invalidFeatureSkipped, "skipped an invalid feature: \(error.message)", at: error.location)
        }
    }
}

/// What validation collects while reading (a class: the parsing methods are not mutating).
final class ProblemBox {
    @exclusivity(unchecked) var items: [ValidationProblem] = []
    /// Whether the feature being read had an error, already listed, when validation reads on past it.
    @exclusivity(unchecked) var featureFailed = false
    /// The feature's positions outside longitude ±180 / latitude ±90, with their places.
    @exclusivity(unchecked) var outOfRange: [(coordinate: Coordinate, location: SourceLocation)] = []

    /// Forgets the previous feature.
    func startFeature() {
        featureFailed = false
        if !outOfRange.isEmpty { outOfRange.removeAll() }
    }
}
