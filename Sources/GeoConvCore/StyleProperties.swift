/// The property names that carry the model's title, snippet and style in GeoJSON (and in
/// any format whose features are property bags): the simplestyle-spec names viewers render,
/// togeojson's names for icons, and `geoconv:`-prefixed names (`ModelKey`) for what only the model has.
///
/// Properties are the source's own data and are never reordered or rewritten on reading:
/// `derive(from:)` reads the model fields out of them, and `merged(into:)` writes the model
/// back — a property that already says what the model says is kept byte for byte, one that
/// disagrees is replaced in place, and model values with no property are appended. So a
/// GeoJSON → GeoJSON conversion keeps every property's position and literal, while KML →
/// GeoJSON gains `name`, `stroke`, `fill`… from the KML styles.
///
/// | model | property |
/// | --- | --- |
/// | title | `name` (`title` is read too) |
/// | snippet | `description` |
/// | stroke colour, opacity, width | `stroke`, `stroke-opacity`, `stroke-width` |
/// | fill colour, opacity | `fill`, `fill-opacity` |
/// | marker colour and opacity, symbol, size | `marker-color` (`icon-color` read too), `icon-opacity`, `marker-symbol`, `marker-size` |
/// | icon, icon scale, rotation | `icon`, `icon-scale`, `icon-heading` (togeojson) |
/// | geodesic | `geoconv:geodesic` |
/// | spans | `geoconv:spans`: `[{"segments": 1.5, "color": "#ff0000", "opacity": 1, "to-color": …, "to-opacity": …, "stamp": {"kind": "sprite", "image": "…"}}]` |
/// | ground anchor, info-window anchor | `geoconv:ground-anchor`, `geoconv:info-window-anchor`: `[x, y]` fractions from the top-left |
/// | marker opacity | `geoconv:opacity` |
/// | z-index | `geoconv:z-index` |
package enum StyleProperties {
    /// Every property name this mapping reads or writes.
    package static let names = NameSet(mappings.flatMap(\.keys))

    /// Sets `feature`'s title, snippet and style from its properties (which stay as they are).
    /// Values of the wrong type are left alone and do not set anything. With `only`, just
    /// the mappings with a property name it accepts are read (KML has its own elements for
    /// names and most styles, and keeps only the rest as data).
    ///
    /// Returns the style properties whose values it could not use (`"stroke": "blurple"`,
    /// `"stroke-width": "wide"`): they stay properties but style nothing, for the reader to
    /// report.
    @discardableResult
    package static func derive(into feature: inout Feature, only include: ((String) -> Bool)? = nil) -> [String] {
        let present = presentMappings(in: feature.properties)
        guard present != 0 else { return [] }  // the common case: no lookups at all
        var unusable: [String] = []
        for index in mappings.indices where present & (1 << index) != 0 {
            let mapping = mappings[index]
            if let include, !mapping.keys.contains(where: include) { continue }
            var used = false
            var tried: String?
            for key in mapping.keys {
                guard let value = feature.properties[key] else { continue }
                if mapping.read(value, feature.properties, &feature) {
                    used = true
                    break
                }
                if value != .null, tried == nil { tried = key }
            }
            if !used, mapping.reportsUnusable, let tried { unusable.append(tried) }
        }
        return unusable
    }

    /// A number, or text that is one (`"3"`, `" 0.5 "`: simplestyle values as people write them).
    package static func number(from value: JSONValue) -> Double? {
        switch value {
        case .number(let number): return number.doubleValue.isFinite ? number.doubleValue : nil
        case .string(let text):
            let trimmed = text.trimmingASCIIWhitespace()
            guard !trimmed.isEmpty,
                trimmed.utf8.allSatisfy({
                    (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                        || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
                }),
                let number = Double(trimmed), number.isFinite
            else { return nil }
            return number
        default: return nil
        }
    }

    /// The properties to write for `feature`: its own, in order, with model-mirroring keys
    /// brought up to date, followed by model values no property carries yet.
    package static func merged(_ feature: Feature) -> JSONObject { MergedProperties(feature).object }

    /// Whether `key`'s value in `feature.properties` is what the model's fields say (so a
    /// format with separate slots for style and data need not repeat it as data).
    package static func isMirrored(_ key: String, in feature: Feature) -> Bool {
        guard let index = mappingIndex(of: key), let value = feature.properties[key],
            let wanted = mappings[index].write(feature)
        else { return false }
        return mappings[index].agrees(value, wanted, feature.properties)
    }

    /// Whether `key` is one of the names this mapping reads or writes (no hashing).
    package static func isStyleName(_ key: String) -> Bool { mappingIndex(of: key) != nil }

    /// Whether `key` names a part of the style (not the title or snippet, the first two mappings).
    package static func isStyleOnlyName(_ key: String) -> Bool { (mappingIndex(of: key) ?? 0) >= titleAndSnippet }

    /// How many mappings, from the first, carry the title and snippet rather than the style.
    static let titleAndSnippet = 2

    /// Whether any key of `properties` is one of `names`, so that `derive(into:)` would read
    /// something (most features carry none: their reader can then build the feature in one go).
    package static func mentionsStyle(_ properties: JSONObject) -> Bool {
        properties.keys.elements.withUnsafeBufferPointer(namesAny)
    }

    /// `mentionsStyle(_:)` of `feature`'s properties, asked in place: they are not copied out
    /// of the feature to be asked (a copy counts a reference to each of their buffers).
    package static func mentionsStyle(in feature: borrowing Feature) -> Bool {
        feature.storage.properties.keys.elements.withUnsafeBufferPointer(namesAny)
    }

    /// Whether one of `keys` is a name of a mapping.
    private static func namesAny(_ keys: UnsafeBufferPointer<String>) -> Bool {
        let table = keyTable  // (once, not for every key)
        return keys.contains { mappingIndex(of: $0, in: table) != nil }
    }

    /// Bit `i` is set when a name of `mappings[i]` is among the keys of `properties`: one
    /// pass over the keys, each rejected on its length and first byte in the common case.
    static func presentMappings(in properties: JSONObject) -> UInt64 {
        let table = keyTable  // (once, not for every key)
        var mask: UInt64 = 0
        for key in properties.keys {
            if let index = mappingIndex(of: key, in: table) { mask |= 1 << index }
        }
        return mask
    }

    /// The index in `mappings` of the mapping with `key` among its names. Keys are told
    /// apart by length and first byte before any comparison, so a property that is not a
    /// style name costs two loads.
    static func mappingIndex(of key: String) -> Int? { mappingIndex(of: key, in: keyTable) }

    @inline(__always)
    private static func mappingIndex(of key: String, in table: [UInt64]) -> Int? {
        let utf8 = key.utf8
        let count = utf8.count
        guard count >= 4, count <= 26, let first = utf8.first else { return nil }
        var candidates = table[Int(first) &* 32 &+ count]
        while candidates != 0 {
            let index = Int(candidates & 0xFF) - 1
            if mappings[index].keys.contains(key) { return index }
            candidates >>= 8
        }
        return nil
    }

    /// Mapping indices (plus one, a byte each) by first byte × 32 + length of their names.
    private static let keyTable: [UInt64] = {
        var table = [UInt64](repeating: 0, count: 256 * 32)
        for (index, mapping) in mappings.enumerated() {
            for key in mapping.keys {
                let slot = Int(key.utf8.first ?? 0) * 32 + key.utf8.count
                var entry = table[slot]
                var shift: UInt64 = 0
                while entry & 0xFF != 0, entry & 0xFF != UInt64(index + 1) {
                    entry >>= 8
                    shift += 8
                }
                table[slot] |= UInt64(index + 1) << shift
            }
        }
        return table
    }()

    // MARK: The table

    struct Mapping: Sendable {
        /// Property names, the one written first.
        var keys: [String]
        /// Reads the property into the feature; false when the value does not fit.
        var read: @Sendable (JSONValue, JSONObject, inout Feature) -> Bool
        /// The value the model says, or nil when the model has nothing here.
        var write: @Sendable (Feature) -> JSONValue?
        /// Whether a value `read` cannot use is reported (a style's; not an opacity, read with
        /// its colour, nor a title or description, which are data whatever their type).
        var reportsUnusable = true
        /// Whether an existing value says the same as `wanted`.
        var agrees: @Sendable (JSONValue, JSONValue, JSONObject) -> Bool = { existing, wanted, _ in
            StyleProperties.sameValue(existing, wanted)
        }
    }

    /// Whether two values say the same: numbers compared by value, others exactly.
    package static func sameValue(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): x.doubleValue == y.doubleValue
        case (.string(let x), .string(let y)): x == y
        default: a == b
        }
    }

    package static func number(_ value: Double) -> JSONValue { JSONNumber(value).map(JSONValue.number) ?? .null }

    /// A style field read and written by closures (key paths cost a generic projection per access).
    struct Field<Value>: Sendable {
        var get: @Sendable (Style) -> Value?
        var set: @Sendable (inout Style, Value) -> Void
    }

    static func colorMapping(
        _ key: String, _ opacityKey: String, _ path: Field<Color>,
        alsoKeys: [String] = [], alsoOpacityKeys: [String] = []
    ) -> [Mapping] {
        [
            Mapping(
                keys: [key] + alsoKeys,
                read: { value, properties, feature in
                    guard let text = value.stringValue, let color = Color(css: text) else { return false }
                    var opacity = color.opacity
                    for opacityKey in [opacityKey] + alsoOpacityKeys {
                        if let o = properties[opacityKey].flatMap(number(from:)) {
                            opacity = o * color.opacity
                            break
                        }
                    }
                    path.set(&feature.style, color.withOpacity(opacity))
                    return true
                },
                write: { feature in path.get(feature.style).map { .string($0.cssHex) } },
                agrees: { existing, wanted, _ in
                    guard let text = existing.stringValue, let a = Color(css: text),
                        let b = wanted.stringValue.flatMap({ Color(css: $0) })
                    else { return false }
                    return a.red == b.red && a.green == b.green && a.blue == b.blue
                }),
            Mapping(
                keys: [opacityKey] + alsoOpacityKeys,
                read: { _, _, _ in false },
                write: { feature in
                    guard let color = path.get(feature.style) else { return nil }
                    // A colour property kept as written (`rgba(255,0,0,0.5)`: its colour is the
                    // model's) says its own opacity, which the reader multiplies with this one:
                    // the opacity to write is what is left over (`#rrggbb` says none).
                    var own = 1.0
                    for colorKey in [key] + alsoKeys {
                        guard let text = feature.properties[colorKey]?.stringValue else { continue }
                        if let written = Color(css: text), written.red == color.red, written.green == color.green,
                            written.blue == color.blue, written.opacity > 0
                        {
                            own = written.opacity
                        }
                        break
                    }
                    let opacity = color.opacity / own
                    guard abs(opacity - 1) > 1e-12 else { return nil }
                    return number(opacity)
                },
                reportsUnusable: false,
                agrees: { existing, wanted, _ in
                    guard let a = number(from: existing), let b = number(from: wanted) else { return false }
                    return abs(a - b) < 1e-12
                }),
        ]
    }

    static func doubleMapping(_ key: String, _ path: Field<Double>) -> Mapping {
        Mapping(
            keys: [key],
            read: { value, _, feature in
                guard let number = number(from: value) else { return false }
                path.set(&feature.style, number)
                return true
            },
            write: { feature in path.get(feature.style).map(number) },
            agrees: { existing, wanted, _ in
                // "3" as written says what 3 says: kept as written.
                guard let a = number(from: existing), let b = number(from: wanted) else { return false }
                return a == b
            })
    }

    static func stringMapping(_ key: String, _ path: Field<String>) -> Mapping {
        Mapping(
            keys: [key],
            read: { value, _, feature in
                guard let text = value.stringValue else { return false }
                path.set(&feature.style, text)
                return true
            },
            write: { feature in path.get(feature.style).map(JSONValue.string) })
    }

    static func anchorMapping(_ key: String, _ path: Field<Anchor>) -> Mapping {
        Mapping(
            keys: [key],
            read: { value, _, feature in
                guard let pair = value.arrayValue, pair.count == 2, let x = pair[0].doubleValue,
                    let y = pair[1].doubleValue,
                    x.isFinite, y.isFinite
                else { return false }
                path.set(&feature.style, Anchor(x: x, y: y))
                return true
            },
            write: { feature in path.get(feature.style).map { .array([number($0.x), number($0.y)]) } })
    }

    /// `mappings` in plain memory made once and kept for the life of the process, read in
    /// place by every worker for every styled feature written.
    nonisolated(unsafe) static let mappingTable: UnsafeBufferPointer<Mapping> = {
        let table = UnsafeMutableBufferPointer<Mapping>.allocate(capacity: mappings.count)
        _ = table.initialize(from: mappings)
        return UnsafeBufferPointer(table)
    }()

    static let mappings: [Mapping] =
        [
            Mapping(
                keys: ["name", "title"],
                read: { value, _, feature in
                    guard let text = value.stringValue else { return false }
                    feature.title = text
                    return true
                },
                write: { $0.title.map(JSONValue.string) }, reportsUnusable: false),
            Mapping(
                keys: ["description"],
                read: { value, _, feature in
                    guard let text = value.stringValue else { return false }
                    feature.snippet = text
                    return true
                },
                write: { $0.snippet.map(JSONValue.string) }, reportsUnusable: false),
        ]
        + colorMapping("stroke", "stroke-opacity", Field(get: { $0.strokeColor }, set: { $0.strokeColor = $1 }))
        + [doubleMapping("stroke-width", Field(get: { $0.strokeWidth }, set: { $0.strokeWidth = $1 }))]
        + colorMapping("fill", "fill-opacity", Field(get: { $0.fillColor }, set: { $0.fillColor = $1 }))
        + colorMapping(
            "marker-color", "icon-opacity", Field(get: { $0.markerColor }, set: { $0.markerColor = $1 }),
            alsoKeys: ["icon-color"])
        + [
            stringMapping("marker-symbol", Field(get: { $0.markerSymbol }, set: { $0.markerSymbol = $1 })),
            Mapping(
                keys: ["marker-size"],
                read: { value, _, feature in
                    guard let text = value.stringValue else { return false }
                    feature.style.markerSize = text
                    return true
                },
                write: { $0.style.markerSize.map(JSONValue.string) }),
            stringMapping("icon", Field(get: { $0.icon }, set: { $0.icon = $1 })),
            doubleMapping("icon-scale", Field(get: { $0.iconScale }, set: { $0.iconScale = $1 })),
            doubleMapping("icon-heading", Field(get: { $0.rotation }, set: { $0.rotation = $1 })),
            Mapping(
                keys: [ModelKey.geodesic.name],
                read: { value, _, feature in
                    guard let flag = value.boolValue else { return false }
                    feature.style.geodesic = flag
                    return true
                },
                write: { $0.style.geodesic.map(JSONValue.bool) }),
            Mapping(
                keys: [ModelKey.spans.name],
                read: { value, _, feature in
                    guard let list = value.arrayValue else { return false }
                    var spans: [StyleSpan] = []
                    for item in list {
                        guard let span = spanFromJSON(item) else { return false }
                        spans.append(span)
                    }
                    feature.style.spans = spans
                    return true
                },
                write: { feature in feature.style.spans.isEmpty ? nil : .array(feature.style.spans.map(spanJSON)) }),
            anchorMapping(ModelKey.groundAnchor.name, Field(get: { $0.groundAnchor }, set: { $0.groundAnchor = $1 })),
            anchorMapping(
                ModelKey.infoWindowAnchor.name, Field(get: { $0.infoWindowAnchor }, set: { $0.infoWindowAnchor = $1 })),
            doubleMapping(ModelKey.opacity.name, Field(get: { $0.opacity }, set: { $0.opacity = $1 })),
            Mapping(
                keys: [ModelKey.zIndex.name],
                read: { value, _, feature in
                    guard case .number(let n) = value, let z = n.intValue else { return false }
                    feature.style.zIndex = z
                    return true
                },
                write: { $0.style.zIndex.map { .number(JSONNumber($0)) } }),
        ]

    /// A span as JSON: `{"segments":…, "color":"#rrggbb", "opacity":…, "to-color":…, "to-opacity":…, "stamp":{"kind":…,"image":…}}`.
    package static func spanJSON(_ span: StyleSpan) -> JSONValue {
        var object: JSONObject = ["segments": number(span.segments), "color": .string(span.style.fromColor.cssHex)]
        if span.style.fromColor.opacity != 1 { object["opacity"] = number(span.style.fromColor.opacity) }
        if span.style.isGradient {
            object["to-color"] = .string(span.style.toColor.cssHex)
            if span.style.toColor.opacity != 1 { object["to-opacity"] = number(span.style.toColor.opacity) }
        }
        if let stamp = span.style.stamp {
            object["stamp"] = .object(["kind": .string(stamp.kind.rawValue), "image": .string(stamp.image)])
        }
        return .object(object)
    }

    /// Reads a span written by `spanJSON`; `nil` when it does not fit.
    package static func spanFromJSON(_ value: JSONValue) -> StyleSpan? {
        guard let object = value.objectValue, let text = object["color"]?.stringValue, let color = Color(css: text)
        else { return nil }
        let from = color.withOpacity(object["opacity"]?.doubleValue ?? color.opacity)
        var to = from
        if let toText = object["to-color"]?.stringValue {
            guard let toColor = Color(css: toText) else { return nil }
            to = toColor.withOpacity(object["to-opacity"]?.doubleValue ?? toColor.opacity)
        }
        var stamp: StampStyle?
        if let stampObject = object["stamp"]?.objectValue {
            guard let kindText = stampObject["kind"]?.stringValue, let kind = StampStyle.Kind(rawValue: kindText),
                let image = stampObject["image"]?.stringValue
            else { return nil }
            stamp = StampStyle(kind, image: image)
        }
        let segments = object["segments"]?.doubleValue ?? 1
        return StyleSpan(style: StrokeStyle(fromColor: from, toColor: to, stamp: stamp), segments: segments)
    }
}
