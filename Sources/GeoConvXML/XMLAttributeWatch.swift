/// Which attributes a reader reads, so that the parser reports the others (a format that
/// promises to lose nothing silently says what it drops): by element local name, the local
/// names of the attributes read; an element not listed reads none. Namespace declarations
/// are never reported. (A class: the parser holds one reference, looked at only for start
/// tags with attributes.)
public final class XMLAttributeWatch {
    /// Element → the attributes read on it (local names, as bytes).
    private let read: [String: [[UInt8]]]
    /// Qualified names never reported (`xsi:schemaLocation`).
    let ignored: Set<String>
    /// Called with the element, the attribute's qualified name and its value.
    let report: (_ element: String, _ attribute: String, _ value: String) -> Void
    /// The last element asked about and its attributes (most start tags with attributes are
    /// the same element as the one before: a placemark's `id`).
    private var last: (element: String, read: [[UInt8]]) = ("", [])

    /// Creates a watch: `read` gives, by element, the local names of the attributes read.
    public init(
        read: [String: Set<String>], ignored: Set<String> = [],
        report: @escaping (_ element: String, _ attribute: String, _ value: String) -> Void
    ) {
        self.read = read.mapValues { names in names.map { Array($0.utf8) } }
        self.ignored = ignored
        self.report = report
    }

    func attributesRead(by element: String) -> [[UInt8]] {
        if element == last.element { return last.read }
        let names = read[element] ?? []
        last = (element, names)
        return names
    }
}
