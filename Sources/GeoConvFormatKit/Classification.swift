public import GeoConvCore

/// How `--classify` colours features by one property: the classes (categories of its values,
/// or ranges of its numbers), their colours and which style key takes them.
///
/// Written `PROPERTY key=value …`, e.g. `pop method=quantile classes=6 ramp=YlOrRd`:
///
/// - `method`: `categories`, `quantile`, `equal-interval` or `breaks`; by default `breaks`
///   when `breaks=` is given, else `quantile` when every value is a number, else `categories`.
/// - `classes`: how many; 5 for numbers, every value (12 at most) for categories.
/// - `breaks`: the numbers between classes, ascending (`breaks=10,100` makes 3 classes).
/// - `colors`: one colour per class, comma-separated; else `ramp`'s.
/// - `ramp`: a ColorBrewer scheme (`ColorBrewer.names`); `YlOrRd` for numbers by default,
///   `Set2` or `Set3` for categories.
/// - `target`: `auto` (points their marker, lines their stroke, polygons their fill),
///   `stroke`, `fill` or `marker-color`.
/// - `other`: the colour of features in no class; by default they keep their style.
public struct Classification: Hashable, Sendable {
    /// How the classes are made.
    public enum Method: String, Hashable, Sendable, CaseIterable {
        /// One class per distinct value (the most frequent, when there are more than colours).
        case categories
        /// Classes holding equal numbers of features.
        case quantile
        /// Classes of equal width between the smallest and largest value.
        case equalInterval = "equal-interval"
        /// Classes between the numbers of `breaks`.
        case breaks
    }

    /// The style key a class's colour is given to.
    public enum Target: String, Hashable, Sendable, CaseIterable {
        /// By geometry: a point's marker, a line's stroke, a polygon's or circle's fill.
        case auto
        /// Line and outline colour.
        case stroke
        /// Polygon and circle interior.
        case fill
        /// A marker's tint.
        case markerColor = "marker-color"
    }

    /// The property classified.
    public var property: String
    /// How; `nil` to choose from the values (see the type).
    public var method: Method?
    /// How many classes; `nil` for the default.
    public var classes: Int?
    /// The bounds between classes, for `.breaks`.
    public var breaks: [Double]
    /// One colour per class; empty to take `ramp`'s.
    public var colors: [Color]
    /// A ColorBrewer scheme's name; `nil` for the default.
    public var ramp: String?
    /// Which key takes the colour.
    public var target: Target
    /// The colour of features in no class (no value, or a value outside every class).
    public var other: Color?

    /// A classification of `property`; the rest as the type says.
    public init(
        property: String, method: Method? = nil, classes: Int? = nil, breaks: [Double] = [], colors: [Color] = [],
        ramp: String? = nil, target: Target = .auto, other: Color? = nil
    ) {
        self.property = property
        self.method = method
        self.classes = classes
        self.breaks = breaks
        self.colors = colors
        self.ramp = ramp
        self.target = target
        self.other = other
    }

    /// Whether the classes depend on the values (quantile, equal intervals, categories): the
    /// input is then read twice, once to learn them.
    public var needsValues: Bool {
        method != .breaks && !(method == nil && !breaks.isEmpty)
    }

    /// Parses `--classify`'s text (see the type).
    ///
    /// - Throws: `usage`, placed at the column in `--classify`: no property, an unknown key,
    ///   a value that is not of its key's kind, an unknown ramp or one without that many
    ///   classes, colours and classes that disagree, breaks not ascending.
    public init(_ text: String, file: String = "--classify") throws(GeoConvError) {
        var words = ClassificationWords(text, file: file)
        guard let first = try words.next(), !first.text.isEmpty, !first.text.contains("=") || first.quoted else {
            throw GeoConvError(
                .usage, "--classify needs the property to classify first",
                at: SourceLocation(file: file, line: 1, column: 1), hint: "for example --classify 'pop classes=6'")
        }
        self.init(property: first.text)
        for word in try words.all() {
            try set(word, file: file)
        }
        try check(file: file)
    }

    private mutating func set(_ word: ClassificationWords.Word, file: String) throws(GeoConvError) {
        let place = SourceLocation(file: file, line: 1, column: word.column)
        guard let equals = word.text.firstIndex(of: "=") else {
            throw GeoConvError(
                .usage, "'\(word.text)' is not key=value", at: place,
                hint: "keys: method, classes, breaks, colors, ramp, target, other")
        }
        let key = String(word.text[..<equals])
        let value = String(word.text[word.text.index(after: equals)...])
        func bad(_ what: String, _ hint: String) -> GeoConvError {
            GeoConvError(.usage, "\(key)=\(value): \(what)", at: place, hint: hint)
        }
        switch key {
        case "method":
            guard let method = Method(rawValue: value) else {
                throw bad("no such method", "give categories, quantile, equal-interval or breaks")
            }
            self.method = method
        case "classes":
            guard let count = Int(value), (1...256).contains(count) else {
                throw bad("not a number of classes", "give a whole number from 1 to 256")
            }
            classes = count
        case "breaks":
            let numbers = value.split(separator: ",").map { Double($0.trimmingASCIISpaces) }
            guard !numbers.isEmpty, numbers.allSatisfy({ $0?.isFinite ?? false }) else {
                throw bad("not a list of numbers", "give the numbers between classes, e.g. breaks=10,100,1000")
            }
            breaks = numbers.compactMap { $0 }
            guard zip(breaks, breaks.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw bad("the breaks do not ascend", "give each number once, smallest first")
            }
        case "colors", "colours":
            var parsed: [Color] = []
            for item in Self.colorList(value) {
                guard let color = Color(css: item) else {
                    throw bad("'\(item)' is not a colour", "give #rrggbb, a CSS name or rgb(…), separated by commas")
                }
                parsed.append(color)
            }
            colors = parsed
        case "ramp":
            guard ColorBrewer.kind(of: value) != nil else {
                throw bad("no such ColorBrewer ramp", "name one of " + ColorBrewer.names.joined(separator: ", "))
            }
            ramp = value
        case "target":
            guard let target = Target(rawValue: value) else {
                throw bad("no such target", "give auto, stroke, fill or marker-color")
            }
            self.target = target
        case "other":
            guard let color = Color(css: value) else {
                throw bad("not a colour", "give #rrggbb, a CSS name or rgb(…)")
            }
            other = color
        default:
            throw GeoConvError(
                .usage, "unknown --classify key '\(key)'", at: place,
                hint: "keys: method, classes, breaks, colors, ramp, target, other")
        }
    }

    /// What the keys must agree on.
    private func check(file: String) throws(GeoConvError) {
        let place = SourceLocation(file: file, line: 1, column: 1)
        if method == .breaks, breaks.isEmpty {
            throw GeoConvError(
                .usage, "method=breaks needs breaks=…", at: place, hint: "for example breaks=10,100,1000")
        }
        if !breaks.isEmpty, let method, method != .breaks {
            throw GeoConvError(
                .usage, "breaks=… are for method=breaks, not \(method.rawValue)", at: place,
                hint: "drop method= or breaks=")
        }
        if !breaks.isEmpty, let classes, classes != breaks.count + 1 {
            throw GeoConvError(
                .usage, "classes=\(classes) with \(breaks.count) breaks, which make \(breaks.count + 1) classes",
                at: place, hint: "drop classes=, or give one break fewer than classes")
        }
        let count = breaks.isEmpty ? classes : breaks.count + 1
        if let count, !colors.isEmpty, colors.count != count {
            throw GeoConvError(
                .usage, "\(colors.count) colours for \(count) classes", at: place,
                hint: "give one colour per class (breaks=… makes one more class than it has numbers)")
        }
        if let ramp, !colors.isEmpty {
            throw GeoConvError(.usage, "both ramp=\(ramp) and colors=… given", at: place, hint: "give one of them")
        }
        if let ramp, let count, let counts = ColorBrewer.classCounts(of: ramp), count > counts.upperBound {
            throw GeoConvError(
                .usage, "ramp=\(ramp) has at most \(counts.upperBound) classes, not \(count)", at: place,
                hint: "ask for fewer classes, or give colors=…")
        }
    }

    /// A list of colours split at the commas outside `rgb(…)`.
    private static func colorList(_ text: String) -> [String] {
        var items: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0:
                items.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        items.append(current)
        return items.map { String($0.trimmingASCIISpaces) }
    }
}

/// `--classify`'s words: split at spaces, `'…'` quoting a word with spaces (`''` a quote).
struct ClassificationWords {
    struct Word {
        var text: String
        var column: Int
        var quoted: Bool
    }

    private let characters: [Character]
    private let file: String
    private var index = 0

    init(_ text: String, file: String) {
        characters = Array(text)
        self.file = file
    }

    mutating func all() throws(GeoConvError) -> [Word] {
        var words: [Word] = []
        while let word = try next() { words.append(word) }
        return words
    }

    mutating func next() throws(GeoConvError) -> Word? {
        while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 }
        guard index < characters.count else { return nil }
        var word = Word(text: "", column: index + 1, quoted: false)
        var quoteStart = 0
        var inQuotes = false
        while index < characters.count {
            let character = characters[index]
            if inQuotes {
                if character == "'" {
                    if index + 1 < characters.count, characters[index + 1] == "'" {
                        word.text.append("'")
                        index += 2
                        continue
                    }
                    inQuotes = false
                } else {
                    word.text.append(character)
                }
            } else if character == " " || character == "\t" {
                break
            } else if character == "'" {
                inQuotes = true
                word.quoted = true
                quoteStart = index
            } else {
                word.text.append(character)
            }
            index += 1
        }
        if inQuotes {
            throw GeoConvError(
                .usage, "a quote opened here is not closed",
                at: SourceLocation(file: file, line: 1, column: quoteStart + 1),
                hint: "close it with ', and write a quote inside as ''")
        }
        return word
    }
}
