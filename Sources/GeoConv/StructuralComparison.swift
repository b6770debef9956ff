/// One feature as the structural comparison sees it: its properties in order, keys as written,
/// and its geometry.
public struct ComparedFeature: Sendable {
    /// The properties, in order.
    public var properties: [(key: String, value: JSONValue)]
    /// The geometry; `nil` for none (an empty geometry counts as none).
    public var geometry: Geometry?
    /// The feature's id, `nil` for none.
    public var id: JSONValue?
    /// The keys that carry the model's own fields (the title as `name`, the snippet as
    /// `description`, the style), not a property: their place is the writer's.
    public var modelKeys: Set<String> = []

    /// A feature given by its parts.
    public init(properties: [(key: String, value: JSONValue)], geometry: Geometry?, id: JSONValue? = nil) {
        self.properties = properties
        self.geometry = geometry
        self.id = id
    }

    /// A model feature as a property-bag format shows it: its properties with the title,
    /// snippet and style in the properties GeoJSON writes for them (`name`, `description`,
    /// `stroke`…), where no property carries them already.
    public init(_ feature: Feature) {
        properties = StyleProperties.merged(feature).map { (key: $0.key, value: $0.value) }
        modelKeys = Set(properties.map(\.key).filter { feature.properties[$0] == nil })
        geometry = feature.geometry
        switch feature.id {
        case .string(let text)?: id = .string(text)
        case .number(let number)?: id = .number(number)
        case nil: id = nil
        }
    }
}

/// Where two readings of the same data differ, and how.
public struct StructuralDifference: Hashable, Sendable, CustomStringConvertible {
    /// The feature (0-based, in the expected reading's order).
    public var feature: Int
    /// What differs, as a class a documented table can name: `feature.count`, `feature.missing`,
    /// `shape.kind`, `shape.parts`, `shape.vertices`, `shape.position`,
    /// `shape.altitude`, `property.missing`, `property.value`, `property.type`,
    /// `property.order`, `property.added`.
    public var category: String
    /// The place: `part 1 / ring 0 / vertex 3`, or a property's key.
    public var place: String
    /// What the two readings hold there.
    public var detail: String

    /// The difference in one line: feature, place, class and what each reading holds.
    public var description: String { "feature \(feature) \(place): \(category): \(detail)" }
}

/// Compares two readings of the same data by address, never as a bag of values: feature by
/// feature, the geometry part by part, ring by ring (in order) and vertex by vertex, the
/// properties key by key with keys spelled the same. A value counts as carried only at its
/// own place.
///
/// What may differ is said by the options: a ring's first vertex and direction (formats whose
/// rule rewinds rings: RFC 7946, Shapefile), the order of the properties, properties only one
/// side has, and a null where the other side has no property.
public struct StructuralComparison: Sendable {
    /// The largest difference between two ordinates (and altitudes) that still counts as equal.
    public var tolerance: Double
    /// Whether a ring may start at another vertex and run the other way.
    public var ringsMayRestart: Bool
    /// Whether the properties must come in the same order.
    public var propertyOrderMatters: Bool
    /// Whether the second reading may hold properties the first lacks.
    public var allowsAddedProperties: Bool
    /// Whether a null property equals an absent one.
    public var nullMatchesAbsent: Bool
    /// Keys the second reading may hold where the first has none: a name the writer gives
    /// (`FormatCapabilities.styleReferenceKey`, KML's `styleUrl` of an inline style) or a
    /// placeholder column (`placeholderKey`, Shapefile's `FID`).
    public var keysTheWriterNames: Set<String> = []
    /// Whether a multi-geometry of one part equals that part, and a collection of one kind
    /// that kind's multi-geometry (`FormatCapabilities.mergesGeometryKinds`).
    public var mergesGeometryKinds = false
    /// The property that may hold the feature's id in the second reading, where the first
    /// has it as the id (`FormatCapabilities.idKey`).
    public var idKey: String?
    /// Whether the style properties are compared by the style they say, colours to 8 bits a
    /// channel (`FormatCapabilities.holdsStyleAsElements`).
    public var comparesStyleByValue = false
    /// Whether the properties come in the file's column order, the order each key first
    /// appears in (a one-header format: CSV, GeoParquet, Shapefile), rather than each
    /// feature's own.
    public var ordersPropertiesByColumn = false
    /// Each key's column, when `ordersPropertiesByColumn` (set by `differences(expected:got:)`).
    private var columns: [String: Int] = [:]

    /// Creates a comparison; by default exact ordinates, rings as written, properties in order,
    /// none added.
    public init(
        tolerance: Double = 0, ringsMayRestart: Bool = false, propertyOrderMatters: Bool = true,
        allowsAddedProperties: Bool = false, nullMatchesAbsent: Bool = false
    ) {
        self.tolerance = tolerance
        self.ringsMayRestart = ringsMayRestart
        self.propertyOrderMatters = propertyOrderMatters
        self.allowsAddedProperties = allowsAddedProperties
        self.nullMatchesAbsent = nullMatchesAbsent
    }

    /// The comparison of a reading with the reading of what `format`'s writer made of it:
    /// exact ordinates, and what the format's rules let change (`FormatCapabilities`: a ring's
    /// start and direction, the properties' order, a null for an absent key, the style names
    /// the writer gives).
    public init(format: FileFormat, tolerance: Double = 0) {
        self.init(
            tolerance: tolerance, ringsMayRestart: format.capabilities.rewindsRings,
            propertyOrderMatters: format.capabilities.keepsPropertyOrder,
            nullMatchesAbsent: format.capabilities.readsAbsentPropertiesAsNull)
        let capabilities = format.capabilities
        keysTheWriterNames = Set([capabilities.styleReferenceKey, capabilities.placeholderKey].compactMap { $0 })
        mergesGeometryKinds = capabilities.mergesGeometryKinds
        comparesStyleByValue = capabilities.holdsStyleAsElements
        ordersPropertiesByColumn = capabilities.readsAbsentPropertiesAsNull
        idKey = capabilities.idKey
    }

    /// Every difference of `got` from `expected`, feature by feature in order.
    public func differences(expected: [ComparedFeature], got: [ComparedFeature]) -> [StructuralDifference] {
        differences(expected: expected, got: got, written: nil)
    }

    /// Every difference of `got` from `expected`, feature by feature in order. Where the
    /// format orders properties by column, the columns are met in `written` (the features in
    /// the order the writer was given them, when it then wrote them in another), else in
    /// `expected`.
    public func differences(
        expected: [ComparedFeature], got: [ComparedFeature], written: [ComparedFeature]?
    ) -> [StructuralDifference] {
        var result: [StructuralDifference] = []
        if expected.count != got.count {
            let detail = "\(expected.count) expected, \(got.count) read"
            result.append(
                StructuralDifference(
                    feature: min(expected.count, got.count), category: "feature.count",
                    place: "features", detail: detail))
        }
        var comparison = self
        if ordersPropertiesByColumn {
            // (The model's keys, the title's `name` and the style's, are the writer's to place:
            // only the properties say the order in which the columns were met.)
            for feature in written ?? expected {
                for property in feature.properties
                where comparison.columns[property.key] == nil && !feature.modelKeys.contains(property.key) {
                    comparison.columns[property.key] = comparison.columns.count
                }
            }
        }
        for (index, (a, b)) in zip(expected, got).enumerated() {
            result += comparison.differences(expected: a, got: b, feature: index)
        }
        return result
    }

    /// Every difference of one feature from another.
    public func differences(expected: ComparedFeature, got: ComparedFeature, feature: Int) -> [StructuralDifference] {
        var result: [StructuralDifference] = []
        func add(_ category: String, _ place: String, _ detail: String) {
            result.append(StructuralDifference(feature: feature, category: category, place: place, detail: detail))
        }
        compare(expected.geometry, got.geometry, at: "geometry", add)
        comparePropertiesOf(expected, got, add)
        return result
    }

    /// Records a difference: its category, place and detail.
    private typealias Add = (String, String, String) -> Void

    // MARK: Properties

    private func comparePropertiesOf(_ expected: ComparedFeature, _ got: ComparedFeature, _ add: Add) {
        var expected = expected
        var got = got
        if comparesStyleByValue, Self.style(of: expected) == Self.style(of: got) {
            // The same style, however spelt: its properties are not compared one by one.
            expected.properties.removeAll { StyleProperties.isStyleOnlyName($0.key) }
            got.properties.removeAll { StyleProperties.isStyleOnlyName($0.key) }
        }
        var gotIndex: [String: Int] = [:]
        for (index, property) in got.properties.enumerated() where gotIndex[property.key] == nil {
            gotIndex[property.key] = index
        }
        var expectedKeys: Set<String> = []
        var matchedOrder: [Int] = []
        // (With the file's columns: the keys in column order, each read back in that order.)
        let properties =
            columns.isEmpty
            ? expected.properties
            : expected.properties.sorted { (columns[$0.key] ?? Int.max) < (columns[$1.key] ?? Int.max) }
        for property in properties {
            expectedKeys.insert(property.key)
            guard let index = gotIndex[property.key] else {
                if property.value == .null, nullMatchesAbsent { continue }
                add("property.missing", property.key, "\(Self.text(property.value)) expected, no such key")
                continue
            }
            if !expected.modelKeys.contains(property.key) { matchedOrder.append(index) }
            let value = got.properties[index].value
            if Self.equal(property.value, value) { continue }
            if mergesGeometryKinds, property.key == "coordinateProperties",
                Self.equal(Self.unnestedOnePart(property.value), Self.unnestedOnePart(value))
            {
                continue
            }
            // (A null beside a value, where nulls match absent keys, is a value that differs.)
            let detail = "\(Self.text(property.value)) expected, \(Self.text(value)) read"
            let eitherNull = property.value == .null || value == .null
            if property.value.typeName != value.typeName, !(nullMatchesAbsent && eitherNull) {
                add("property.type", property.key, detail)
            } else {
                add("property.value", property.key, detail)
            }
        }
        if propertyOrderMatters, matchedOrder != matchedOrder.sorted() {
            add("property.order", "properties", "keys read in another order: \(got.properties.map(\.key))")
        }
        if !allowsAddedProperties {
            for property in got.properties where !expectedKeys.contains(property.key) {
                if property.value == .null, nullMatchesAbsent { continue }
                if keysTheWriterNames.contains(property.key) { continue }
                if property.key == idKey, let id = expected.id, got.id == nil, Self.equal(id, property.value) {
                    continue
                }
                add("property.added", property.key, "\(Self.text(property.value)) read, no such key expected")
            }
        }
    }

    /// Whether two values are equal: numbers by value, arrays and objects member by member.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x.literal == y.literal || x.doubleValue == y.doubleValue
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default:
            return a == b
        }
    }

    static func text(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        JSONText.append(value, to: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }

    // MARK: Geometry

    private func compare(_ a: Geometry?, _ b: Geometry?, at place: String, _ add: Add) {
        var a = a.flatMap { $0.isEmpty ? nil : $0 }
        var b = b.flatMap { $0.isEmpty ? nil : $0 }
        if mergesGeometryKinds {
            a = a.map(Self.merged)
            b = b.map(Self.merged)
        }
        switch (a, b) {
        case (nil, nil): return
        case (let a?, nil): add("shape.kind", place, "\(a.kind) expected, none read")
        case (nil, let b?): add("shape.kind", place, "none expected, \(b.kind) read")
        case (let a?, let b?): compare(a, b, at: place, add)
        }
    }

    private func compare(_ a: Geometry, _ b: Geometry, at place: String, _ add: Add) {
        // (An empty member is empty however it is held: `LINESTRING EMPTY`, no coordinates.)
        if a.isEmpty, b.isEmpty, a.kind == b.kind { return }
        switch (a, b) {
        case (.point(let x), .point(let y)):
            comparePositions([x], [y], at: place, add)
        case (.lineString(let x), .lineString(let y)):
            comparePositions(x.coordinates, y.coordinates, at: place, add)
        case (.multiPoint(let x), .multiPoint(let y)):
            comparePositions(x, y, at: place, add)
        case (.polygon(let x), .polygon(let y)):
            comparePolygons(x, y, at: place, add)
        case (.multiLineString(let x), .multiLineString(let y)):
            guard x.count == y.count else {
                return add("shape.parts", place, "\(x.count) lines expected, \(y.count) read")
            }
            for (i, (p, q)) in zip(x, y).enumerated() {
                comparePositions(p.coordinates, q.coordinates, at: place + " / line \(i)", add)
            }
        case (.multiPolygon(let x), .multiPolygon(let y)):
            guard x.count == y.count else {
                return add("shape.parts", place, "\(x.count) polygons expected, \(y.count) read")
            }
            for (i, (p, q)) in zip(x, y).enumerated() { comparePolygons(p, q, at: place + " / part \(i)", add) }
        case (.geometryCollection(let x), .geometryCollection(let y)):
            guard x.count == y.count else {
                return add("shape.parts", place, "\(x.count) members expected, \(y.count) read")
            }
            for (i, (p, q)) in zip(x, y).enumerated() { compare(p, q, at: place + " / member \(i)", add) }
        case (.circle(let c, let r), .circle(let d, let s)):
            comparePositions([c], [d], at: place, add)
            if abs(r - s) > tolerance { add("shape.position", place + " / radius", "\(r) expected, \(s) read") }
        default:
            add("shape.kind", place, "\(a.kind) expected, \(b.kind) read")
        }
    }

    /// A geometry as a format that does not tell the kinds apart reads it: a multi-geometry
    /// of one part as that part, a collection of one kind as that kind's multi-geometry.
    static func merged(_ geometry: Geometry) -> Geometry {
        switch geometry {
        case .multiPoint(let points) where points.count == 1: return .point(points[0])
        case .multiLineString(let lines) where lines.count == 1: return .lineString(lines[0])
        case .multiPolygon(let polygons) where polygons.count == 1: return .polygon(polygons[0])
        case .geometryCollection(let members):
            let members = members.map(merged)
            var points: [Coordinate] = []
            var lines: [Path] = []
            var polygons: [PolygonRings] = []
            for member in members {
                switch member {
                case .point(let c): points.append(c)
                case .multiPoint(let p): points += p
                case .lineString(let l): lines.append(l)
                case .multiLineString(let l): lines += l
                case .polygon(let p): polygons.append(p)
                case .multiPolygon(let p): polygons += p
                default: return .geometryCollection(members)
                }
            }
            switch (points.isEmpty, lines.isEmpty, polygons.isEmpty) {
            case (false, true, true): return merged(.multiPoint(points))
            case (true, false, true): return merged(.multiLineString(lines))
            case (true, true, false): return merged(.multiPolygon(polygons))
            default: return .geometryCollection(members)
            }
        default:
            return geometry
        }
    }

    /// The style a feature's properties say, its colours as KML holds them (8 bits a channel).
    static func style(of feature: ComparedFeature) -> Style {
        var model = Feature(geometry: nil)
        for (key, value) in feature.properties where StyleProperties.isStyleOnlyName(key) {
            model.properties[key] = value
        }
        StyleProperties.derive(into: &model)
        var style = model.style
        func eightBit(_ color: Color?) -> Color? {
            color.map { Color(red: $0.red, green: $0.green, blue: $0.blue, opacity: Double($0.alphaByte) / 255) }
        }
        style.strokeColor = eightBit(style.strokeColor)
        style.fillColor = eightBit(style.fillColor)
        style.markerColor = eightBit(style.markerColor)
        return style
    }

    /// Per-point values with each one-element array of arrays (a one-part multi-geometry's)
    /// made its element.
    static func unnestedOnePart(_ value: JSONValue) -> JSONValue {
        guard case .object(let object) = value else { return value }
        var result = object
        for (key, member) in object {
            if case .array(let parts) = member, parts.count == 1, case .array = parts[0] { result[key] = parts[0] }
        }
        return .object(result)
    }

    private func comparePolygons(_ x: PolygonRings, _ y: PolygonRings, at place: String, _ add: Add) {
        let a = x.rings
        let b = y.rings
        guard a.count == b.count else { return add("shape.parts", place, "\(a.count) rings expected, \(b.count) read") }
        for (i, (p, q)) in zip(a, b).enumerated() {
            let where_ = place + " / ring \(i)"
            guard ringsMayRestart else {
                comparePositions(p.closed.coordinates, q.closed.coordinates, at: where_, add)
                continue
            }
            compareRings(p.closed.coordinates, q.closed.coordinates, at: where_, add)
        }
    }

    /// A closed ring against another that may start elsewhere and run the other way.
    private func compareRings(_ a: [Coordinate], _ b: [Coordinate], at place: String, _ add: Add) {
        guard a.count == b.count, a.count > 1 else { return comparePositions(a, b, at: place, add) }
        let n = a.count - 1  // the closing vertex repeats the first
        for reversed in [false, true] {
            let c = reversed ? Array(b.reversed()) : b
            for start in 0..<n where same(a[0], c[start]) {
                if (0..<n).allSatisfy({ same(a[$0], c[(start + $0) % n]) }) { return }
            }
        }
        comparePositions(a, b, at: place, add)  // no rotation fits: say where they part
    }

    private func comparePositions(_ a: [Coordinate], _ b: [Coordinate], at place: String, _ add: Add) {
        guard a.count == b.count else {
            return add("shape.vertices", place, "\(a.count) positions expected, \(b.count) read")
        }
        var altitudeReported = false
        for (i, (p, q)) in zip(a, b).enumerated() {
            if !sameHorizontally(p, q) {
                return add(
                    "shape.position", place + (a.count > 1 ? " / vertex \(i)" : ""),
                    "(\(p.longitude), \(p.latitude)) expected, (\(q.longitude), \(q.latitude)) read")
            }
            if !altitudeReported, !sameAltitude(p.altitude, q.altitude) {
                altitudeReported = true
                let (expected, read) = (p.altitude.map { "\($0)" } ?? "none", q.altitude.map { "\($0)" } ?? "none")
                let at = place + (a.count > 1 ? " / vertex \(i)" : "")
                add("shape.altitude", at, "altitude \(expected) expected, \(read) read")
            }
        }
    }

    private func same(_ p: Coordinate, _ q: Coordinate) -> Bool {
        sameHorizontally(p, q) && sameAltitude(p.altitude, q.altitude)
    }

    private func sameHorizontally(_ p: Coordinate, _ q: Coordinate) -> Bool {
        (abs(p.longitude - q.longitude) <= tolerance || p.longitude == q.longitude)
            && (abs(p.latitude - q.latitude) <= tolerance || p.latitude == q.latitude)
    }

    private func sameAltitude(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?): return abs(x - y) <= tolerance || x == y
        default: return false
        }
    }
}
