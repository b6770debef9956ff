public import GeoConvCore

/// The classes `--classify` made, with the features each took: what `--legend FILE` writes
/// as JSON and `render --legend` draws.
public struct ClassLegend: Hashable, Sendable {
    /// One class.
    public struct Entry: Hashable, Sendable {
        /// What the legend says: the value, or the range (`12 – 3,400`).
        public var label: String
        /// Its colour.
        public var color: Color
        /// The value of a category.
        public var value: JSONValue?
        /// The range of a class of numbers: from `lower` (included) to `upper` (excluded, but
        /// for the last class); `nil` where it is open.
        public var lower: Double?
        public var upper: Double?
        /// Features the class took.
        public var count: Int

        /// An entry.
        public init(
            label: String, color: Color, value: JSONValue? = nil, lower: Double? = nil, upper: Double? = nil,
            count: Int = 0
        ) {
            self.label = label
            self.color = color
            self.value = value
            self.lower = lower
            self.upper = upper
            self.count = count
        }
    }

    /// The property classified.
    public var property: String
    /// How the classes were made.
    public var method: Classification.Method
    /// Which key took the colours.
    public var target: Classification.Target
    /// The classes, in order.
    public var entries: [Entry]
    /// The class of features in no other, when `other=` gave it a colour.
    public var other: Entry?
    /// Features in no class that kept their style (no `other=`).
    public var unclassified: Int

    /// A legend.
    public init(
        property: String, method: Classification.Method, target: Classification.Target, entries: [Entry],
        other: Entry? = nil, unclassified: Int = 0
    ) {
        self.property = property
        self.method = method
        self.target = target
        self.entries = entries
        self.other = other
        self.unclassified = unclassified
    }

    /// The legend as JSON: `property`, `method`, `target`, `classes` (each `label`, `color`,
    /// `value` or `min`/`max`, `count`), `other` and `unclassified`.
    public var json: JSONValue {
        func object(_ entry: Entry) -> JSONValue {
            var object: JSONObject = ["label": .string(entry.label), "color": .string(entry.color.cssHex)]
            if let value = entry.value { object["value"] = value }
            if let lower = entry.lower, let number = JSONNumber(lower) { object["min"] = .number(number) }
            if let upper = entry.upper, let number = JSONNumber(upper) { object["max"] = .number(number) }
            object["count"] = .number(JSONNumber(entry.count))
            return .object(object)
        }
        var root: JSONObject = [
            "property": .string(property), "method": .string(method.rawValue), "target": .string(target.rawValue),
        ]
        root["classes"] = .array(entries.map(object))
        root["other"] = other.map(object) ?? .null
        root["unclassified"] = .number(JSONNumber(unclassified))
        return .object(root)
    }
}
