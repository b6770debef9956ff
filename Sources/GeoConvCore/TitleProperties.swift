/// Which property of a feature carries its title or snippet, in formats whose features are rows
/// of columns (CSV, GeoParquet, Shapefile): one place for the rule, for readers and writers.
///
/// Keys belong to the user. A tabular reader takes the title from the column named `name` (or
/// `title`, or either in any ASCII case: `Name`, `NAME`, as GDAL's KML driver finds its
/// `NameField`) when its value is text, the snippet likewise from `description`/`snippet`, and
/// keeps that
/// column as a property, under its own key and in its own place. A writer then writes that
/// property where it is and adds a `name` (`description`) column of its own only when no
/// property carries the title (snippet): a KML placemark's name, say. So a `NAME` column comes
/// back as `NAME`, in its place, through CSV, GeoParquet and Shapefile.
package enum TitleProperties {
    /// The two roles a property can carry.
    package enum Role: Sendable {
        case title, snippet

        /// The key a writer gives the role's own column when no property carries it.
        package var columnName: String {
            switch self {
            case .title: "name"
            case .snippet: "description"
            }
        }
    }

    /// The role a column named `key` gives its text, in any ASCII case; `nil` for other keys.
    /// Compares bytes; allocates nothing.
    package static func role(ofKey key: String) -> Role? {
        let found = key.utf8.withContiguousStorageIfAvailable { bytes -> Role? in
            switch bytes.count {
            case 4: return equalsIgnoringCase(bytes, "name") ? .title : nil
            case 5: return equalsIgnoringCase(bytes, "title") ? .title : nil
            case 7: return equalsIgnoringCase(bytes, "snippet") ? .snippet : nil
            case 11: return equalsIgnoringCase(bytes, "description") ? .snippet : nil
            default: return nil
            }
        }
        if let found { return found }
        return key.utf8.count <= 11 ? role(ofKey: String(decoding: Array(key.utf8), as: UTF8.self)) : nil
    }

    /// The columns among `keys` a role may be taken from, in order of preference: those named
    /// exactly as GeoJSON's reader takes them (`name`, then `title`; `description`, then
    /// `snippet`), or where there is none, those named so in any case (`Name`, `NAME`). The role's value is the
    /// first of them that holds text — the same rule for every format, so that a title a reader
    /// derives agrees with what another reader derives from the same properties.
    package static func columns<Keys: Collection<String>>(of role: Role, in keys: Keys) -> [Keys.Index] {
        let exact: [String] = role == .title ? ["name", "title"] : ["description", "snippet"]
        // Where a key is named exactly so, only those: the model's view of a `name` that is not
        // text (a number) must not fall back to a `NAME`, or its writers would replace it.
        let result = exact.compactMap { keys.firstIndex(of: $0) }
        if !result.isEmpty { return result }
        return keys.indices.filter { self.role(ofKey: keys[$0]) == role }
    }

    /// Whether any key names a role in any case (one pass over the keys, each rejected on its
    /// length in the common case).
    package static func mentionsRole(_ properties: JSONObject) -> Bool {
        properties.keys.contains { role(ofKey: $0) != nil }
    }

    /// The places among a fixed set of keys (a table's columns, every row's keys in the same
    /// order) that `columns(of:in:)` gives for each role: found once, for every row.
    package struct Places: Sendable {
        private let title: [Int]
        private let snippet: [Int]

        /// The places among `keys`, in their order.
        package init(keys: some Sequence<String>) {
            let keys = Array(keys)
            title = TitleProperties.columns(of: .title, in: keys)
            snippet = TitleProperties.columns(of: .snippet, in: keys)
        }

        /// Sets the feature's title and snippet as `TitleProperties.derive(into:)` does, from
        /// properties whose keys are those the places were found among, in the same order.
        package func derive(into feature: inout Feature) {
            let values = feature.properties.values
            for index in title where index < values.count {
                if case .string(let text) = values[index] {
                    feature.title = text
                    break
                }
            }
            for index in snippet where index < values.count {
                if case .string(let text) = values[index] {
                    feature.snippet = text
                    break
                }
            }
        }
    }

    /// Sets the feature's title and snippet from its properties (`columns(of:in:)`). The
    /// properties stay as they are.
    package static func derive(into feature: inout Feature) {
        let keys = feature.properties.keys
        let values = feature.properties.values
        for index in columns(of: .title, in: keys) {
            if case .string(let text) = values[index] {
                feature.title = text
                break
            }
        }
        for index in columns(of: .snippet, in: keys) {
            if case .string(let text) = values[index] {
                feature.snippet = text
                break
            }
        }
    }

    /// Whether the property `key: value` carries `feature`'s title or snippet: its key names
    /// that role (any case) and its text is the feature's (a number's or boolean's literal
    /// counts: a typed column's `123` carries the title `123`). A writer writes such a property
    /// in its place instead of a column of its own for the title (snippet).
    package static func carries(_ key: String, _ value: JSONValue, of feature: borrowing Feature) -> Role? {
        guard let role = role(ofKey: key) else { return nil }
        return holds(value, role == .title ? feature.title : feature.snippet) ? role : nil
    }

    /// Whether the property `key: value` carries `text` in `role`.
    package static func carries(_ key: String, _ value: JSONValue, text: String?, as role: Role) -> Bool {
        self.role(ofKey: key) == role && holds(value, text)
    }

    /// Whether a property's value reads as `text`.
    private static func holds(_ value: JSONValue, _ text: String?) -> Bool {
        guard let text else { return false }
        switch value {
        case .string(let string): return string == text
        case .number(let number): return number.literal == text
        case .bool(let flag): return (flag ? "true" : "false") == text
        case .null, .array, .object: return false
        }
    }

    /// Whether some property carries the feature's title (`role` `.title`) or snippet; with
    /// `key`, some property other than that one.
    package static func isCarried(_ role: Role, in feature: borrowing Feature, besides key: String? = nil) -> Bool {
        guard let text = role == .title ? feature.title : feature.snippet else { return false }
        return isCarried(text, as: role, in: feature.properties, besides: key)
    }

    /// Whether some property of `properties` (other than `key`) carries `text` in `role`.
    package static func isCarried(
        _ text: String, as role: Role, in properties: JSONObject,
        besides key: String? = nil
    ) -> Bool {
        for (other, value) in properties where other != key && carries(other, value, text: text, as: role) {
            return true
        }
        return false
    }

    /// Whether a writer that gives the title (snippet) an element of its own (KML's and GPX's
    /// `<name>`) must still write the property `key: value` as data: it is the role's own
    /// column (`name`, `description`) saying the same text, and another property (`NAME`)
    /// carries the role too — a reader would then take that one for it, and `key` were gone.
    package static func mustKeepBesideElement(
        _ key: String, _ value: JSONValue,
        of feature: borrowing Feature
    ) -> Bool {
        guard let role = role(ofKey: key), key == role.columnName, carries(key, value, of: feature) == role else {
            return false
        }
        return isCarried(role, in: feature, besides: key)
    }

    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: StaticString) -> Bool {
        guard bytes.count == lower.utf8CodeUnitCount else { return false }
        let expected = lower.utf8Start
        for i in 0..<bytes.count {
            let byte = bytes[i]
            let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            if folded != expected[i] { return false }
        }
        return true
    }
}
