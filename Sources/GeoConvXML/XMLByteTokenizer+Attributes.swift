#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The current start tag's attributes and the current element's namespace, read from the
/// tag's bytes as they are asked for (nothing is made for an attribute that is not read).
extension XMLByteTokenizer {
    /// The value of the current start tag's attribute with this local name (for a namespace
    /// declaration, libxml2's local name: the prefix, or `xmlns`).
    func attribute(_ wanted: String) -> String? {
        guard kind == .start else { return nil }
        var wanted = wanted
        return wanted.withUTF8 { key -> String? in
            for attribute in attributeList where attribute.local.count == key.count {
                if let start = key.baseAddress, memcmp(base + attribute.local.lowerBound, start, key.count) != 0 {
                    continue
                }
                return value(of: attribute)
            }
            return nil
        }
    }

    /// Whether the current start tag has attributes (namespace declarations count).
    var hasAttributes: Bool { kind == .start && !attributeList.isEmpty }

    /// The current start tag's attributes (qualified name, value) whose local name is not in
    /// `read` and whose qualified name is not in `ignored`, namespace declarations left out.
    /// Names are compared as bytes: nothing is made for an attribute that is read.
    func unread(_ read: [[UInt8]], ignored: Set<String>) -> [(name: String, value: String)] {
        var found: [(name: String, value: String)] = []
        for attribute in attributeList where !attribute.isDeclaration {
            let local = UnsafeBufferPointer(start: base + attribute.local.lowerBound, count: attribute.local.count)
            if read.contains(where: { $0.count == local.count && $0.elementsEqual(local) }) { continue }
            let name = String(
                decoding: UnsafeBufferPointer(
                    start: base + attribute.qualified.lowerBound, count: attribute.qualified.count),
                as: UTF8.self)
            if ignored.contains(name) { continue }
            found.append((name, value(of: attribute)))
        }
        return found
    }

    /// The current start tag's attributes as written (qualified names), namespace
    /// declarations left out, in document order.
    var attributes: [(name: String, value: String)] {
        guard kind == .start else { return [] }
        return attributeList.filter { !$0.isDeclaration }.map { attribute in
            (
                String(
                    decoding: UnsafeBufferPointer(
                        start: base + attribute.qualified.lowerBound, count: attribute.qualified.count), as: UTF8.self),
                value(of: attribute)
            )
        }
    }

    /// The current element's namespace URI (start or end tag), `nil` when it has none.
    var namespaceURI: String? {
        guard kind == .start || kind == .end else { return nil }
        guard let prefix = namePrefix else { return defaultNamespace }
        return namespace(of: prefix)
    }

    /// An attribute's value, entity and character references decoded and blanks normalised when it has any.
    func value(
        of attribute: (qualified: Range<Int>, local: Range<Int>, value: Range<Int>, rewrite: Bool, isDeclaration: Bool)
    ) -> String {
        let raw = UnsafeBufferPointer(start: base + attribute.value.lowerBound, count: attribute.value.count)
        guard attribute.rewrite else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        _ = XMLCharacterData.decode(raw, into: &out, normalizesBlanks: true)
        return String(decoding: out, as: UTF8.self)
    }
}
