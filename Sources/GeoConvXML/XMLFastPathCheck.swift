/// The check that the fast XML path (`XMLPullParser(document:)`) reads what libxml2 reads:
/// for tests and the `FuzzXMLFastPath` fuzzer.
public enum XMLFastPathCheck {
    /// Reads `document` with libxml2 and with the fast path, event by event, and describes
    /// the first difference: an event, name, attribute, namespace, text or start-tag place
    /// that differs, or a document the fast path read to its end where libxml2 failed.
    /// `nil` when they agree up to the end, or up to where the fast path gave up. A second
    /// pass compares the root's content as `readElementMarkup` gives it (whitespace kept).
    public static func firstDifference(in document: [UInt8]) -> String? {
        if let difference = compareEvents(document) { return difference }
        return compareMarkup(document)
    }

    private static func parsers(_ document: [UInt8]) -> (slow: XMLPullParser, fast: XMLPullParser)? {
        guard let slow = try? XMLPullParser(libxml2Reading: document), let fast = try? XMLPullParser(document: document)
        else { return nil }
        return (slow, fast)
    }

    private static func compareEvents(_ document: [UInt8]) -> String? {
        guard let (slow, fast) = parsers(document) else { return nil }
        var index = 0
        while true {
            index += 1
            let fastEvent: XMLEvent?
            do {
                fastEvent = try fast.next()
            } catch {
                return fast.gaveUp ? nil : "event \(index): the fast path threw without giving up: \(error)"
            }
            let slowEvent: XMLEvent?
            do {
                slowEvent = try slow.next()
            } catch {
                // libxml2 parses ahead of the events it gives: the fast path must give up
                // before the end too.
                return fastReadsToEnd(fast)
                    ? "libxml2 failed (\(error.message)) at event \(index); the fast path read the document to its end"
                    : nil
            }
            guard fastEvent == slowEvent else {
                return
                    "event \(index): libxml2 read \(String(describing: slowEvent)), the fast path \(String(describing: fastEvent))"
            }
            switch fastEvent {
            case nil:
                return nil
            case .start?:
                if slow.nodeLine != fast.nodeLine || slow.nodeColumn != fast.nodeColumn {
                    return
                        "event \(index): start tag at \(String(describing: slow.nodeLine)):\(String(describing: slow.nodeColumn)) for libxml2, \(fast.nodeLine.map(String.init) ?? "-"):\(fast.nodeColumn.map(String.init) ?? "-") for the fast path"
                }
                let slowAttributes = slow.attributes.map { "\($0.name)=\($0.value)" }
                let fastAttributes = fast.attributes.map { "\($0.name)=\($0.value)" }
                if slowAttributes != fastAttributes {
                    return
                        "event \(index): attributes \(slowAttributes) for libxml2, \(fastAttributes) for the fast path"
                }
                for name in ["id", "name", "xmlns", "schemaUrl", "targetId"]
                where slow.attribute(name) != fast.attribute(name) {
                    return
                        "event \(index): attribute(\(name)) is \(String(describing: slow.attribute(name))) for libxml2, \(String(describing: fast.attribute(name))) for the fast path"
                }
                if slow.namespaceURI != fast.namespaceURI {
                    return
                        "event \(index): namespace \(String(describing: slow.namespaceURI)) for libxml2, \(String(describing: fast.namespaceURI)) for the fast path"
                }
                if slow.depth != fast.depth {
                    return "event \(index): depth \(slow.depth) for libxml2, \(fast.depth) for the fast path"
                }
            case .end?:
                if slow.namespaceURI != fast.namespaceURI {
                    return
                        "event \(index): end tag namespace \(String(describing: slow.namespaceURI)) for libxml2, \(String(describing: fast.namespaceURI))"
                }
            case .text?:
                let slowText = slow.withText { Array($0) }
                let fastText = fast.withText { Array($0) }
                if slowText != fastText {
                    return
                        "event \(index): text \(String(decoding: slowText, as: UTF8.self).debugDescription) for libxml2, \(String(decoding: fastText, as: UTF8.self).debugDescription) for the fast path"
                }
            }
        }
    }

    private static func compareMarkup(_ document: [UInt8]) -> String? {
        guard let (slow, fast) = parsers(document) else { return nil }
        let fastMarkup: String
        do {
            guard case .start(_, let isEmpty)? = try fast.next(), !isEmpty else { return nil }
            fastMarkup = try fast.readElementMarkup()
            guard try fast.next() == nil else { return nil }
        } catch {
            return fast.gaveUp ? nil : "markup: the fast path threw without giving up: \(error)"
        }
        do {
            _ = try slow.next()
            let slowMarkup = try slow.readElementMarkup()
            _ = try slow.next()
            return slowMarkup == fastMarkup
                ? nil
                : "markup: libxml2 read \(slowMarkup.debugDescription), the fast path \(fastMarkup.debugDescription)"
        } catch {
            return "markup: libxml2 failed (\(error.message)) where the fast path read the document"
        }
    }

    /// Whether the fast parser reads on to the end of its document without giving up.
    private static func fastReadsToEnd(_ fast: XMLPullParser) -> Bool {
        do {
            while try fast.next() != nil {}
            return true
        } catch {
            return !fast.gaveUp
        }
    }
}
