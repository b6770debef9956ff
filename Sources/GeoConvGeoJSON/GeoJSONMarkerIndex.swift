public import GeoConvCore
public import GeoConvFormatKit

/// The marker index of a FeatureCollection or text sequence: each feature stepped over as
/// bytes except its geometry's type and position and its ids (`MarkerIndexReader`).
extension GeoJSONReader: MarkerIndexReader {
    public var indexesMarkers: Bool {
        switch state {
        case .inFeatures, .sequence: true
        default: false
        }
    }

    public mutating func nextMarker() throws(GeoConvError) -> MarkerEntry? {
        switch state {
        case .inFeatures(let index):
            scanner.startValue()
            let byte = try scanner.peekToken()
            if options.featureRunStart != nil, byte == nil {
                state = .done  // a run of features ends with its input
                return nil
            }
            if index == 0, byte == UInt8(ascii: "]") {
                scanner.advance()
                return try endOfFeatures()
            }
            if index > 0 {
                guard try scanner.nextElement(close: UInt8(ascii: "]"), pointer: "/features") else {
                    return try endOfFeatures()
                }
                scanner.startValue()
            }
            state = .inFeatures(index: index + 1)
            return try markerEntry()
        case .sequence(let index):
            guard try scanner.peekRecord() != nil else {
                state = .done
                return nil
            }
            scanner.startValue()
            state = .sequence(index: index + 1)
            return try markerEntry()
        default:
            return nil
        }
    }

    public var markerReaders: MarkerReaders? {
        let one = GeoJSONReadOptions(
            skipsInvalidFeatures: options.skipsInvalidFeatures, maximumDepth: options.maximumDepth,
            maximumFeatureBytes: options.maximumFeatureBytes)
        let sequence = GeoJSONReadOptions(
            isSequence: true, skipsInvalidFeatures: options.skipsInvalidFeatures,
            maximumDepth: options.maximumDepth, maximumFeatureBytes: options.maximumFeatureBytes)
        return MarkerReaders(
            one: { input, diagnostics in GeoJSONReader(input, options: one, diagnostics: diagnostics) },
            sequence: { input, diagnostics in GeoJSONReader(input, options: sequence, diagnostics: diagnostics) })
    }

    /// After the array: the root's last members read as `next()` reads them.
    private mutating func endOfFeatures() throws(GeoConvError) -> MarkerEntry? {
        state = .afterFeatures
        try finishRoot()
        state = .done
        return nil
    }

    /// One feature object: its bytes, its Point position, its ids; everything else skipped.
    private func markerEntry() throws(GeoConvError) -> MarkerEntry {
        guard try scanner.peekToken() == UInt8(ascii: "{") else {
            throw scanner.error("every feature must be an object, found \(try scanner.describeNext())")
        }
        let start = scanner.offset
        var entry = MarkerEntry(bytes: start..<start)
        scanner.advance()
        if try scanner.peekToken() == UInt8(ascii: "}") {
            scanner.advance()
        } else {
            repeat {
                switch try scanner.parseKeyIndex(in: Self.memberNames) {
                case Self.geometryMember?:
                    entry.position = try pointPosition()
                case Self.idMember?:
                    entry.id = try rawValue()
                case Self.propertiesMember?:
                    entry.idProperty = try idProperty()
                default:
                    try scanner.skipValueBytes()
                }
            } while try scanner.nextElement(close: UInt8(ascii: "}"), pointer: "")
        }
        entry.bytes = start..<scanner.offset
        return entry
    }

    /// The bytes of the next value.
    private func rawValue() throws(GeoConvError) -> Range<Int> {
        _ = try scanner.peekToken()
        let start = scanner.offset
        try scanner.skipValueBytes()
        return start..<scanner.offset
    }

    /// The bytes of the `id` member of a properties object, stepping over the others.
    private func idProperty() throws(GeoConvError) -> Range<Int>? {
        guard try scanner.peekToken() == UInt8(ascii: "{") else {
            try scanner.skipValueBytes()
            return nil
        }
        scanner.advance()
        guard try scanner.peekToken() != UInt8(ascii: "}") else {
            scanner.advance()
            return nil
        }
        var found: Range<Int>?
        repeat {
            if try scanner.parseKeyIndex(in: Self.memberNames) == Self.idMember {
                found = try rawValue()
            } else {
                try scanner.skipValueBytes()
            }
        } while try scanner.nextElement(close: UInt8(ascii: "}"), pointer: "")
        return found
    }

    /// The position of a Point geometry; `nil` for any other geometry or `null`.
    private func pointPosition() throws(GeoConvError) -> Coordinate? {
        guard try scanner.peekToken() == UInt8(ascii: "{") else {
            try scanner.skipValueBytes()
            return nil
        }
        scanner.advance()
        guard try scanner.peekToken() != UInt8(ascii: "}") else {
            scanner.advance()
            return nil
        }
        var isPoint: Bool?
        var position: Coordinate?
        repeat {
            switch try scanner.parseKeyIndex(in: Self.memberNames) {
            case Self.typeMember?:
                guard try scanner.peekToken() == UInt8(ascii: "\"") else {
                    try scanner.skipValueBytes()
                    isPoint = false
                    continue
                }
                isPoint = try scanner.parseString() == "Point"
            case Self.coordinatesMember? where isPoint != false:
                // A position is `[number, …`; anything else (nested arrays, an empty Point) is not a marker.
                var startsPosition = false
                if try scanner.peekToken() == UInt8(ascii: "[") {
                    let mark = scanner.mark
                    scanner.advance()
                    if let next = try scanner.peekToken() {
                        startsPosition = next == UInt8(ascii: "-") || next &- UInt8(ascii: "0") < 10
                    }
                    scanner.rewind(to: mark)
                }
                if startsPosition {
                    position = try parsePosition(.point, depth: 3, path: CoordinatePath(), pointer: { "" })
                } else {
                    try scanner.skipValueBytes()
                }
            default:
                try scanner.skipValueBytes()
            }
        } while try scanner.nextElement(close: UInt8(ascii: "}"), pointer: "")
        return isPoint == true ? position : nil
    }
}
