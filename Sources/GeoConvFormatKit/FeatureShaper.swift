package import GeoConvCore
import GeoConvBytes

/// Works out the shapes (`FeatureShape`) of a run of features, on any thread: each distinct
/// shape once, as bytes, in first-seen order. `FeatureShapeTable` numbers them for the input.
package struct FeatureShaper: Sendable {
    /// The distinct shapes met, as bytes, with their facts.
    package private(set) var shapes: [(bytes: [UInt8], facts: FeatureShape.Facts)] = []
    /// Each feature's shape, by its place in `shapes`; -1 for a feature without one.
    package private(set) var featureShapes: [Int32] = []
    private var places: [[UInt8]: Int32] = [:]
    private var scratch: [UInt8] = []

    package init() {}

    /// Works out `feature`'s shape and notes it after the features before; returns its place
    /// in `shapes` (a new shape's is the next place), -1 when it has none.
    @discardableResult
    package mutating func add(_ feature: Feature) -> Int32 {
        scratch.removeAll(keepingCapacity: true)
        let place: Int32
        if let facts = Self.describe(feature, into: &scratch) {
            if let last = featureShapes.last, last >= 0, shapes[Int(last)].bytes == scratch {
                place = last
            } else if let known = places[scratch] {
                place = known
            } else {
                place = Int32(shapes.count)
                shapes.append((scratch, facts))
                places[scratch] = place
            }
        } else {
            place = -1
        }
        featureShapes.append(place)
        return place
    }

    /// Writes `feature`'s shape into `bytes` and returns its facts; `nil` when it has none.
    static func describe(_ feature: Feature, into bytes: inout [UInt8]) -> FeatureShape.Facts? {
        guard feature.foreignMembers.isEmpty else { return nil }
        var facts: FeatureShape.Facts = []
        switch feature.id {
        case nil: bytes.append(0)
        case .string?: bytes.append(1)
        case .number(let number)?:
            bytes.append(2)
            facts.formUnion(appendClass(of: number, to: &bytes))
        }
        if feature.id != nil { facts.insert(.hasID) }
        if feature.title != nil { facts.insert(.hasTitle) }
        if feature.snippet != nil { facts.insert(.hasSnippet) }
        if !feature.style.isEmpty { facts.insert(.hasStyle) }
        bytes.append(feature.sourceForm.rawValue)
        if feature.isAllFinite { facts.insert(.isAllFinite) }
        if let geometry = feature.geometry {
            facts.insert(.hasGeometry)
            facts.formUnion(describe(geometry, into: &bytes))
        } else {
            bytes.append(0)
        }
        if !feature.properties.isEmpty { facts.insert(.hasProperties) }
        for (key, value) in feature.properties {
            appendText(key, to: &bytes)
            switch value {
            case .null: bytes.append(0)
            case .bool: bytes.append(1)
            case .number(let number): facts.formUnion(appendClass(of: number, to: &bytes))
            case .string(let text): facts.formUnion(appendClass(of: text, to: &bytes))
            case .array, .object: return nil
            }
        }
        if facts.contains(.hasTitle), TitleProperties.isCarried(.title, in: feature) { facts.insert(.titleCarried) }
        if facts.contains(.hasSnippet), TitleProperties.isCarried(.snippet, in: feature) {
            facts.insert(.snippetCarried)
        }
        let raw = facts.rawValue
        bytes.append(UInt8(truncatingIfNeeded: raw))
        bytes.append(UInt8(truncatingIfNeeded: raw >> 8))
        bytes.append(UInt8(truncatingIfNeeded: raw >> 16))
        bytes.append(UInt8(truncatingIfNeeded: raw >> 24))
        return facts
    }

    /// The geometry's kind and flags.
    private static func describe(_ geometry: Geometry, into bytes: inout [UInt8]) -> FeatureShape.Facts {
        var facts: FeatureShape.Facts = []
        let kind = UInt8(GeometryKind.allCases.firstIndex(of: geometry.kind) ?? 0) + 1
        var flags: UInt8 = 0
        if case .empty = geometry { flags |= 1 }
        if geometry.isEmpty { flags |= 2 }
        if case .point(let c) = geometry {
            if c.altitude != nil {
                flags |= 4
                facts.insert(.hasAltitude)
            }
            if c.longitude.isFinite, c.latitude.isFinite, c.altitude?.isFinite ?? true,
                abs(c.longitude) <= 180, abs(c.latitude) <= 90
            {
                flags |= 8
                facts.insert(.isPlainPoint)
            }
        } else {
            var with = false
            var without = false
            geometry.forEachCoordinate { c in
                if c.altitude == nil { without = true } else { with = true }
            }
            if with {
                flags |= 4
                facts.insert(.hasAltitude)
            }
            if with && without { flags |= 16 }
            if geometry.containsCircle {
                flags |= 32
                facts.insert(.containsCircle)
            }
        }
        bytes.append(kind)
        bytes.append(flags)
        return facts
    }

    /// A number's class: an integer of up to nine digits by its sign and digit count, a
    /// decimal of up to fifteen digits by its sign, digit counts and the zeros at its ends,
    /// any other number by its sign and whether it has a point or an exponent; returns which
    /// of the facts it is.
    private static func appendClass(of number: JSONNumber, to bytes: inout [UInt8]) -> FeatureShape.Facts {
        var literal = number.literal
        return literal.withUTF8 { text in
            var at = 0
            let negative = at < text.count && text[at] == UInt8(ascii: "-")
            if negative { at += 1 }
            let integerStart = at
            while at < text.count, text[at] &- 48 < 10 { at += 1 }
            let integerDigits = at - integerStart
            let leadingZero = integerDigits > 0 && text[integerStart] == UInt8(ascii: "0")
            let wellFormed = integerDigits > 0 && (!leadingZero || integerDigits == 1)
            if wellFormed, at == text.count, integerDigits <= 9, !(negative && leadingZero) {
                bytes.append(negative ? 3 : 2)
                bytes.append(UInt8(integerDigits))
                return []
            }
            if wellFormed, at < text.count, text[at] == UInt8(ascii: ".") {
                let fractionStart = at + 1
                var end = fractionStart
                while end < text.count, text[end] &- 48 < 10 { end += 1 }
                let fractionDigits = end - fractionStart
                if end == text.count, fractionDigits > 0, integerDigits + fractionDigits <= 15 {
                    var flags: UInt8 = negative ? 1 : 0
                    if leadingZero { flags |= 2 }
                    if text[end - 1] == UInt8(ascii: "0") { flags |= 4 }
                    bytes.append(4)
                    bytes.append(flags)
                    bytes.append(UInt8(integerDigits))
                    bytes.append(UInt8(fractionDigits))
                    return .hasDecimal
                }
            }
            // (No writer that reads more of a number than its class keys such a number.)
            var form: UInt8 = negative ? 1 : 0
            if text.contains(UInt8(ascii: ".")) { form |= 2 }
            if text.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) { form |= 4 }
            bytes.append(5)
            bytes.append(form)
            return .hasOtherNumber
        }
    }

    /// A text's class: its form, and whether it holds a character XML forbids.
    private static func appendClass(of text: String, to bytes: inout [UInt8]) -> FeatureShape.Facts {
        var text = text
        return text.withUTF8 { utf8 in
            var facts: FeatureShape.Facts = .hasText
            var form: UInt8 =
                switch TextForm.of(utf8) {
                case .date: 1
                case .dateTime: 2
                case .other: 0
                }
            if XMLCharacters.includeForbidden(utf8) {
                form |= 4
                facts.insert(.hasXMLForbiddenText)
            }
            bytes.append(6)
            bytes.append(form)
            return facts
        }
    }

    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            ByteEncoding.appendVarint(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }
}

/// Numbers the shapes of an input's features, piece after piece (one thread at a time), up
/// to `limit`: beyond, a new shape is none (its features are written), so that memory does
/// not grow with an input whose every feature has a shape of its own.
package final class FeatureShapeTable: @unchecked Sendable {
    private var numbers: [[UInt8]: Int32] = [:]
    /// The most shapes numbered.
    package static let limit = 1 << 16

    package init() {}

    /// Each of the shaper's features' shapes, numbered for the input.
    package func shapes(of shaper: FeatureShaper) -> [FeatureShape?] {
        let numbered = shaper.shapes.map { shape -> FeatureShape? in
            if let number = numbers[shape.bytes] { return FeatureShape(number: number, facts: shape.facts) }
            guard numbers.count < Self.limit else { return nil }
            let number = Int32(numbers.count)
            numbers[shape.bytes] = number
            return FeatureShape(number: number, facts: shape.facts)
        }
        return shaper.featureShapes.map { $0 < 0 ? nil : numbered[Int($0)] }
    }
}
