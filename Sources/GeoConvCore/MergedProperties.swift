/// The properties `StyleProperties.merged(_:)` makes of a feature, without making a new
/// dictionary: the feature's own in order, a few values replaced, then the model values no
/// property carries. A writer that only goes through them uses this: a copy of ~100
/// properties to add a title rebuilt their hash table, which cost more than writing them.
package struct MergedProperties {
    /// What `init(_:memo:)` keeps from one feature to the next.
    package struct StyleMemo {
        var style = Style()
        var added: [(key: String, value: JSONValue)] = []
        /// `added` as JSON members (`"key":value`, comma-separated), written once per style.
        var encoded: [UInt8] = []

        package init() {}
    }

    /// The feature's own properties.
    package let base: JSONObject
    /// Values that replace the base's at these places, in order of place.
    private var replaced: [(index: Int, value: JSONValue)] = []
    /// Properties after the base's.
    private var added: [(key: String, value: JSONValue)] = []
    /// The last `encodedCount` of `added` (the memo's) as JSON members, or `nil`.
    private var encodedTail: [UInt8]?
    private var encodedCount = 0

    /// The properties to write for `feature` (as `StyleProperties.merged(_:)`).
    package init(_ feature: borrowing Feature) {
        var memo = StyleMemo()
        self.init(feature, memo: &memo)
    }

    /// The properties to write for `feature`; `memo` keeps the style's properties made for
    /// the last style seen, for the next feature styled alike (style rules and classes give
    /// thousands of features one style: its colours are written as text once).
    package init(_ feature: borrowing Feature, memo: inout StyleMemo) {
        let base = feature.properties
        self.base = base
        // (Asked once: each question of the feature's style counts a reference to its box.)
        let styleIsEmpty = feature.style.isEmpty
        // Every mapping writes nothing when the model says nothing: the properties stand.
        if feature.title == nil, feature.snippet == nil, styleIsEmpty { return }
        // The common case of rows read from a table: no style, and the title (snippet) carried
        // by a property of the user's (`name`, `NAME`): nothing to merge.
        if styleIsEmpty, feature.title.map({ TitleProperties.isCarried($0, as: .title, in: base) }) ?? true,
            feature.snippet.map({ TitleProperties.isCarried($0, as: .snippet, in: base) }) ?? true
        {
            return
        }
        let present = StyleProperties.presentMappings(in: base)
        // Styled with the very box the memo was made for (rules and classes give thousands of
        // features one), with no title, no snippet and no property naming a style field: the
        // memo's members, as the path below would find them.
        if feature.title == nil, feature.snippet == nil, present >> StyleProperties.titleAndSnippet == 0,
            let identity = feature.style.boxIdentity, identity == memo.style.boxIdentity
        {
            added = memo.added
            (encodedTail, encodedCount) = (memo.encoded, memo.added.count)
            return
        }
        var replaced: [(index: Int, value: JSONValue)] = []
        var added: [(key: String, value: JSONValue)] = []
        // (Each mapping used in place, no closure capturing the feature: a copy of either
        // would retain what it holds.)
        let mappings = StyleProperties.mappingTable
        // (Past the title and snippet every mapping writes a style field: none without a
        // style. Loading each mapping's closure retains what every thread shares.)
        var end = styleIsEmpty ? StyleProperties.titleAndSnippet : mappings.count
        // Where no property already says a style field, the style's part is the style's
        // alone: the memo's when the style is the one it was made for.
        let memoized = end > StyleProperties.titleAndSnippet && present >> StyleProperties.titleAndSnippet == 0
        if memoized { end = StyleProperties.titleAndSnippet }
        // (Without a title and a snippet their mappings write nothing: not called.)
        let start = feature.title == nil && feature.snippet == nil ? StyleProperties.titleAndSnippet : 0
        for index in start..<end {
            guard let wanted = mappings[index].write(feature) else { continue }
            if index < 2, case .string(let text) = wanted,
                base.contains(where: {
                    TitleProperties.carries($0.key, $0.value, text: text, as: index == 0 ? .title : .snippet)
                })
            {
                // The title (snippet) is carried by a property under the user's own key (`Name`,
                // `title` beside a `name` of 12): nothing is added or replaced (`TitleProperties`).
                continue
            } else if present & (1 << index) != 0,
                let place = mappings[index].keys.lazy.compactMap({ base.index(forKey: $0) }).first,
                index >= StyleProperties.titleAndSnippet || base.keys[place] == mappings[index].keys[0]
            {
                // Keep the source's literal when it already says the same thing. (A `title` that
                // says another title is the user's data: the title goes under `name`.)
                if !mappings[index].agrees(base.values[place], wanted, base) { replaced.append((place, wanted)) }
            } else {
                added.append((mappings[index].keys[0], wanted))
            }
        }
        if memoized {
            // (The very box the memo was made for, told by its identity, before the fields.)
            if memo.style.boxIdentity != feature.style.boxIdentity {
                if !memo.style.writesAs(feature.style) { Self.remake(&memo, for: feature) }
                // (This box kept, even where it writes as the one before: the features given it
                // after this one take the path above.)
                memo.style = feature.style
            }
            if added.isEmpty { added = memo.added } else { added += memo.added }
            (encodedTail, encodedCount) = (memo.encoded, memo.added.count)
        }
        if replaced.count > 1 { replaced.sort { $0.index < $1.index } }
        self.replaced = replaced
        self.added = added
    }

    /// The memo's members made again for `feature`'s style.
    private static func remake(_ memo: inout StyleMemo, for feature: borrowing Feature) {
        let mappings = StyleProperties.mappingTable
        memo.added.removeAll(keepingCapacity: true)
        for index in StyleProperties.titleAndSnippet..<mappings.count {
            if let wanted = mappings[index].write(feature) {
                memo.added.append((mappings[index].keys[0], wanted))
            }
        }
        memo.encoded.removeAll(keepingCapacity: true)
        for (key, value) in memo.added {
            if !memo.encoded.isEmpty { memo.encoded.append(UInt8(ascii: ",")) }
            JSONText.appendString(key, to: &memo.encoded)
            memo.encoded.append(UInt8(ascii: ":"))
            JSONText.append(value, to: &memo.encoded)
        }
    }

    /// Whether there is no property.
    package var isEmpty: Bool { base.isEmpty && added.isEmpty }

    /// Sets `key` to `value`: in its place when there is one, else after the others.
    package mutating func set(_ key: String, _ value: JSONValue) {
        if let place = base.index(forKey: key) {
            if let at = replaced.firstIndex(where: { $0.index == place }) {
                replaced[at].value = value
            } else {
                replaced.append((place, value))
                replaced.sort { $0.index < $1.index }
            }
        } else if let at = added.firstIndex(where: { $0.key == key }) {
            added[at].value = value
            encodedTail = nil
        } else {
            added.append((key, value))
            encodedTail = nil
        }
    }

    /// Calls `body` with each property in order but those of `encodedMembers`, which follow them.
    @inline(__always)
    package func forEachUnencoded(_ body: (String, JSONValue) -> Void) {
        if encodedTail == nil { return forEach(body) }
        forEachOfBase(body)
        for (key, value) in added[..<(added.count - encodedCount)] { body(key, value) }
    }

    /// The last properties as JSON members (`"key":value`, comma-separated), made once for
    /// every feature styled alike; `nil` when `forEachUnencoded` gives them all.
    package var encodedMembers: [UInt8]? { encodedTail }

    /// Calls `body` with each property in order.
    @inline(__always)
    package func forEach(_ body: (String, JSONValue) -> Void) {
        forEachOfBase(body)
        for (key, value) in added { body(key, value) }
    }

    /// Calls `body` with each of the base's properties in order, replaced where they are.
    @inline(__always)
    private func forEachOfBase(_ body: (String, JSONValue) -> Void) {
        if replaced.isEmpty {
            for (key, value) in base { body(key, value) }
        } else {
            var next = 0
            for (index, (key, value)) in base.enumerated() {
                if next < replaced.count, replaced[next].index == index {
                    body(key, replaced[next].value)
                    next += 1
                } else {
                    body(key, value)
                }
            }
        }
    }

    /// The properties as a dictionary (the feature's own, unchanged, when nothing is merged).
    package var object: JSONObject {
        if replaced.isEmpty && added.isEmpty { return base }
        var result = base
        for (index, value) in replaced { result.values[index] = value }
        result.reserveCapacity(result.count + added.count)
        for (key, value) in added { result[key] = value }
        return result
    }
}
