/// An option a format declares for its reader or writer — GeoJSON's `--pretty`, WKT's
/// `--arc-step` — with the name a command line gives it and its help. The format's own
/// module defines it (`GeoJSONOptions.pretty`); the pipeline carries its value to the
/// format in `ConversionOptions.formatOptions` without knowing what it means.
public struct FormatOption<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The option's name on the command line, without dashes (`pretty`).
    public let name: String
    /// One line of help, as `--help` prints it.
    public let help: String

    /// Declares an option.
    public init(name: String, help: String) {
        self.name = name
        self.help = help
    }
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

    public static func == (a: FormatOptionValues, b: FormatOptionValues) -> Bool {
        a.values.count == b.values.count && a.values.allSatisfy { key, value in
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
