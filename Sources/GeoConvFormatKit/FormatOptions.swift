/// Which side of a conversion an option speaks to: the reader's (GDAL's open options,
/// `--oo`) or the writer's (GDAL's creation options, `--co`).
public struct FormatOptionSides: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The reader's.
    public static let read = FormatOptionSides(rawValue: 1)
    /// The writer's.
    public static let write = FormatOptionSides(rawValue: 2)

    /// The flags that give an option of these sides: `--oo`, `--co` or `--oo --co`.
    public var flags: String {
        [contains(.read) ? "--oo" : nil, contains(.write) ? "--co" : nil].compactMap { $0 }.joined(separator: " ")
    }
}

/// A value an option takes from the command line's text (`--oo NAME=VALUE`).
public protocol FormatOptionValue: Hashable, Sendable {
    /// The value `text` spells, `nil` when it spells none.
    init?(optionText text: String)
    /// What `geoconv formats` calls such a value (`integer`, `text`…).
    static var optionTypeName: String { get }
}

extension Int: FormatOptionValue {
    public init?(optionText text: String) { self.init(text) }
    public static var optionTypeName: String { "integer" }
}

extension Double: FormatOptionValue {
    public init?(optionText text: String) {
        guard let value = Double(text), value.isFinite else { return nil }
        self = value
    }
    public static var optionTypeName: String { "number" }
}

extension String: FormatOptionValue {
    public init?(optionText text: String) { self = text }
    public static var optionTypeName: String { "text" }
}

extension Bool: FormatOptionValue {
    /// YES/NO, TRUE/FALSE, ON/OFF or 1/0, any case (GDAL's spellings).
    public init?(optionText text: String) {
        switch text.lowercased() {
        case "yes", "true", "on", "1": self = true
        case "no", "false", "off", "0": self = false
        default: return nil
        }
    }
    public static var optionTypeName: String { "YES/NO" }
}

/// An option a format declares for its reader or writer — GeoJSON's `--pretty`, WKT's
/// `--arc-step` — with the long flag a command line gives it, the name `--oo`/`--co`
/// give it (GDAL's where GDAL has the same option), the sides it speaks to and its help.
/// The format's own module defines it (`GeoJSONOptions.pretty`) and lists it in its
/// `FileFormat.options`; the pipeline carries its value to the format in
/// `ConversionOptions.formatOptions` without knowing what it means.
public struct FormatOption<Value: FormatOptionValue>: Hashable, Sendable {
    /// The option's long flag, without dashes (`pretty`).
    public let name: String
    /// Its name in `--oo NAME=VALUE` / `--co NAME=VALUE` (`PRETTY`, GDAL's `WRITE_BBOX`).
    public let key: String
    /// Whether it speaks to the reader, the writer or both.
    public let sides: FormatOptionSides
    /// One line of help, as `--help` prints it.
    public let help: String
    /// What the help calls its value (`column`, `char`); the type's name when `nil`.
    public let valueName: String?
    /// The values it takes beyond its type's, in words (`0…13`), with the test; `nil` when
    /// every value of the type is taken.
    public let allowed: (words: String, test: @Sendable (Value) -> Bool)?

    /// Declares an option.
    public init(
        name: String, key: String, sides: FormatOptionSides, help: String, valueName: String? = nil,
        allowed: (words: String, test: @Sendable (Value) -> Bool)? = nil
    ) {
        self.name = name
        self.key = key
        self.sides = sides
        self.help = help
        self.valueName = valueName
        self.allowed = allowed
    }

    /// Options are the same when their names are (a value is kept under its option's name).
    public static func == (a: Self, b: Self) -> Bool { a.name == b.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The option without its value's type: for `--oo`/`--co`, its long flag and `geoconv formats`.
    public var declared: DeclaredFormatOption {
        DeclaredFormatOption(
            name: name, key: key, sides: sides, help: help, typeName: Value.optionTypeName,
            valueName: valueName ?? Value.optionTypeName, allowedWords: allowed?.words,
            isFlag: Value.self == Bool.self
        ) { text, values in
            guard let value = Value(optionText: text), allowed?.test(value) ?? true else { return false }
            values[self] = value
            return true
        }
    }
}

/// A format's option as `--oo`/`--co`, its long flag and `geoconv formats` see it: its names,
/// sides, help and how a text sets it.
public struct DeclaredFormatOption: Sendable {
    /// The long flag, without dashes.
    public let name: String
    /// The name in `NAME=VALUE`.
    public let key: String
    /// The sides it speaks to.
    public let sides: FormatOptionSides
    /// One line of help.
    public let help: String
    /// What its value is (`integer`, `text`, `YES/NO`…).
    public let typeName: String
    /// What the long flag's help calls its value (`column`, `integer`…).
    public let valueName: String
    /// The values it takes, in words, when not every value of its type (`0…13`).
    public let allowedWords: String?
    /// Whether the long flag takes no value (a YES/NO option: `--pretty` says YES).
    public let isFlag: Bool
    /// How `--oo`/`--co` take it: `NAME=<type>`.
    public var usage: String { "\(key)=<\(typeName)>" }
    /// What its values must be, for messages: `integer values`, `0…13`.
    public var takes: String { allowedWords ?? "\(typeName) values" }
    /// Sets the option to the value `text` spells in `values`; `false` when it spells none
    /// (or one the option does not take).
    public let assign: @Sendable (String, inout FormatOptionValues) -> Bool
}

/// The values given to formats' options, by option: what a conversion hands each format's
/// reader and writer beside the options every format shares.
public struct FormatOptionValues: Hashable, Sendable {
    private var values: [String: any Hashable & Sendable] = [:]

    /// No option given.
    public init() {}

    /// The value given to `option`, `nil` when none was (the format's default then applies).
    public subscript<Value>(option: FormatOption<Value>) -> Value? {
        get { values[option.name] as? Value }  // set only through this subscript, with this type
        set { values[option.name] = newValue }
    }

    /// Whether no option has a value.
    public var isEmpty: Bool { values.isEmpty }

    /// These values, with `other`'s over them where both give one.
    public func merging(_ other: FormatOptionValues) -> FormatOptionValues {
        var merged = self
        merged.values.merge(other.values) { _, new in new }
        return merged
    }

    public static func == (a: FormatOptionValues, b: FormatOptionValues) -> Bool {
        a.values.count == b.values.count
            && a.values.allSatisfy { key, value in
                b.values[key].map { AnyHashable($0) == AnyHashable(value) } ?? false
            }
    }

    public func hash(into hasher: inout Hasher) {
        for key in values.keys.sorted() {
            hasher.combine(key)
            if let value = values[key] { hasher.combine(AnyHashable(value)) }
        }
    }
}
