public import OrderedCollections

/// A warning about a conversion: something dropped or approximated, or a suspicious input.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// A stable identifier for the kind of warning, e.g. `polyline.properties-dropped`;
    /// warnings with the same code are counted together in the summary.
    public var code: String
    /// What happened, in one sentence.
    public var message: String
    /// Where it happened first.
    public var location: SourceLocation?
    /// A note reports a change that loses nothing; a warning reports a loss.
    public var isNote: Bool

    /// Creates a diagnostic.
    public init(code: String, message: String, location: SourceLocation? = nil, isNote: Bool = false) {
        self.code = code
        self.message = message
        self.location = location
        self.isNote = isNote
    }

    public var description: String {
        ((location.map { $0.description + ": " } ?? "") + (isNote ? "note: " : "warning: ") + message + " [" + code
            + "]")
            .escapingControlCharacters
    }
}

/// The diagnostic codes one module reports under: an enum whose raw values are the codes
/// (`kml.number-as-text`), declared in the module beside the rules that report them, so that
/// each code is spelled once and the whole set is known (`FileFormat.diagnosticCodes`; the
/// tests check `docs/errors.md` against every set in both directions).
public protocol DiagnosticCodes: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

extension DiagnosticCodes {
    /// Every code of the set, as messages show them.
    public static var names: [String] { allCases.map(\.rawValue) }
}

/// Collects the warnings of one conversion, counting repeats, and turns them into errors
/// in strict mode.
///
/// Readers, transforms and writers report through it; the pump sets `currentLocation` to
/// the feature being processed so that writers need not know where a feature came from.
public final class DiagnosticLog {
    /// When true, the first warning is thrown as a `GeoConvError` with code `dataLoss`.
    public let isStrict: Bool
    /// Where the feature being processed came from.
    public var currentLocation: SourceLocation? {
        get { setLocation ?? locator?() }
        set {
            setLocation = newValue
            locator = nil
        }
    }
    @exclusivity(unchecked) private var setLocation: SourceLocation?
    @exclusivity(unchecked) private var locator: (() -> SourceLocation?)?

    /// Makes `currentLocation` come from `locator`, asked only when a message needs a place
    /// (most repeats are only counted): for a writer handed features read elsewhere, whose
    /// places would otherwise be made for every feature. Setting `currentLocation` ends it.
    package func locateCurrent(by locator: @escaping () -> SourceLocation?) {
        setLocation = nil
        self.locator = locator
    }
    /// Each distinct warning code with its first occurrence and how often it happened.
    @exclusivity(unchecked) public private(set) var entries:
        OrderedDictionary<String, (first: Diagnostic, count: Int)> = [:]

    /// Creates an empty log.
    public init(strict: Bool = false) { isStrict = strict }

    /// Records a warning, or throws it when strict.
    /// The message (often interpolated) and the place are made only when the warning is not
    /// merely counted.
    public func warn(
        _ code: some DiagnosticCodes, _ message: @autoclosure () -> String,
        at location: @autoclosure () -> SourceLocation? = nil, hint: String? = nil
    )
        throws(GeoConvError)
    {
        try warn(named: code.rawValue, message(), at: location(), hint: hint)
    }

    /// Records that `format` refused what it was handed, under the code `<format>.refused`
    /// (`geoconv info`, for a target that cannot take the input): the one code made from a
    /// name rather than declared in a `DiagnosticCodes` set.
    package func warn(refusalBy format: String, _ message: String) throws(GeoConvError) {
        try warn(named: format + ".refused", message)
    }

    private func warn(
        named code: String, _ message: @autoclosure () -> String,
        at location: @autoclosure () -> SourceLocation? = nil, hint: String? = nil
    )
        throws(GeoConvError)
    {
        // A code seen before is only counted (the common case: one loss on every feature).
        if !isStrict, !listsEveryWarning, let index = entryIndex(code) {
            entries.values[index].count += 1
            if recorded != nil { recorded?.append(index) }
            return
        }
        let diagnostic = try record(code, message(), at: location(), hint: hint)
        if listsEveryWarning {
            if everyWarning.count < DiagnosticLog.maximumListedSkips {
                everyWarning.append(diagnostic)
            } else {
                unlistedWarnings += 1
            }
        }
    }

    /// Counts a warning under its code (throwing it when strict) and returns it.
    private func record(
        _ code: String, _ message: String, at location: SourceLocation?, hint: String?
    ) throws(GeoConvError)
        -> Diagnostic
    {
        let diagnostic = Diagnostic(code: code, message: message, location: location ?? currentLocation)
        if isStrict {
            throw GeoConvError(
                .dataLoss, message + " [" + code + "]", at: diagnostic.location,
                hint: hint ?? "drop --strict to convert anyway, accepting this loss")
        }
        if let index = entries.index(forKey: code) {
            entries.values[index].count += 1
            if recorded != nil { recorded?.append(index) }
        } else {
            entries[code] = (diagnostic, 1)
            if recorded != nil { recorded?.append(entries.count - 1) }
        }
        return diagnostic
    }

    /// Records a feature skipped by `--skip-invalid`: a warning like any other, and also
    /// listed one by one in `skippedFeatures` (or thrown when strict).
    public func skip(
        _ code: some DiagnosticCodes, _ message: String, at location: SourceLocation? = nil
    ) throws(GeoConvError) {
        listSkip(try record(code.rawValue, message, at: location, hint: nil))
        recordingSpoilt = true
    }

    /// How many skipped features (and, with `listsEveryWarning`, warnings) are listed one by
    /// one; beyond it they are only counted.
    public static let maximumListedSkips = 10_000

    /// Whether every warning is also listed one by one in `everyWarning`, as `geoconv
    /// validate` needs (off by default: `entries` keeps the first of each code and a count).
    @exclusivity(unchecked) public var listsEveryWarning = false
    /// With `listsEveryWarning`: every warning (not the skipped features, which are in
    /// `skippedFeatures`, nor notes) in the order reported, up to `maximumListedSkips`.
    public private(set) var everyWarning: [Diagnostic] = []
    /// With `listsEveryWarning`: warnings beyond `maximumListedSkips`, counted only.
    public private(set) var unlistedWarnings = 0

    /// Every feature `--skip-invalid` skipped (up to `maximumListedSkips`), in input order.
    public private(set) var skippedFeatures: [Diagnostic] = []
    /// Skips beyond `maximumListedSkips`.
    public private(set) var unlistedSkips = 0

    private func listSkip(_ diagnostic: Diagnostic) {
        if skippedFeatures.count < DiagnosticLog.maximumListedSkips {
            skippedFeatures.append(diagnostic)
        } else {
            unlistedSkips += 1
        }
    }

    /// Records a note: a change that loses nothing (a geometry cut at the antimeridian, a
    /// ring reoriented). Notes are counted and printed like warnings but never fail `--strict`.
    public func note(
        _ code: some DiagnosticCodes, _ message: @autoclosure () -> String,
        at location: @autoclosure () -> SourceLocation? = nil
    ) {
        let code = code.rawValue
        // A code seen before is only counted: no message or place is made for it.
        if let index = entryIndex(code) {
            entries.values[index].count += 1
            if recorded != nil { recorded?.append(index) }
            return
        }
        entries[code] = (
            Diagnostic(code: code, message: message(), location: location() ?? currentLocation, isNote: true), 1
        )
        if recorded != nil { recorded?.append(entries.count - 1) }
    }

    /// While recording: the places in `entries` of the codes counted since it began, in order.
    @exclusivity(unchecked) private var recorded: [Int]?
    /// Whether something was reported while recording that counting codes again cannot
    /// repeat (a skipped feature, listed one by one).
    @exclusivity(unchecked) private var recordingSpoilt = false

    /// Whether what is reported can be recorded and counted again (`countAgain(_:times:)`): not
    /// when strict, nor when every warning is listed.
    package var canRecord: Bool { !isStrict && !listsEveryWarning }

    /// Starts noting which codes are counted (`geoconv info`, learning what a writer reports
    /// for a feature of some shape, to count it again for the next ones).
    package func startRecording() {
        recorded = []
        recordingSpoilt = false
    }

    /// Stops recording: the places of the codes counted since `startRecording()`, in order;
    /// `nil` when what was reported cannot be counted again.
    package func stopRecording() -> [Int]? {
        defer { recorded = nil }
        return recordingSpoilt ? nil : recorded
    }

    /// Counts again, `times` times, the codes at `places` (from `stopRecording()`), as the
    /// same reports would.
    package func countAgain(_ places: [Int], times: Int = 1) {
        for place in places { entries.values[place].count += times }
    }

    /// The two codes counted last, with their places in `entries` (which only grows, but for
    /// `replace(with:)`): a writer that loses something on every feature reports one or two
    /// codes over and over, found here by comparing the strings instead of hashing them.
    @exclusivity(unchecked) private var recentCodes:
        (last: (code: String, index: Int)?, before: (code: String, index: Int)?)

    /// Where `code`'s entry is, `nil` when it has none yet.
    @inline(__always)
    private func entryIndex(_ code: String) -> Int? {
        if let last = recentCodes.last, last.code == code { return last.index }
        if let before = recentCodes.before, before.code == code {
            recentCodes = (before, recentCodes.last)
            return before.index
        }
        guard let index = entries.index(forKey: code) else { return nil }
        recentCodes = ((code, index), recentCodes.last)
        return index
    }

    /// Replaces this log's entries with another's.
    public func replace(with other: DiagnosticLog) {
        recentCodes = (nil, nil)
        entries = other.entries
        skippedFeatures = other.skippedFeatures
        unlistedSkips = other.unlistedSkips
        everyWarning = other.everyWarning
        unlistedWarnings = other.unlistedWarnings
    }

    /// Adds another log's entries (counts merged by code), as if they had been reported here.
    public func absorb(_ other: DiagnosticLog) {
        absorb(other) { $0 }
    }

    /// Adds another log's entries with their locations mapped by `transform` (for logs of
    /// pieces of one input, absorbed in input order so the first occurrence stays first).
    public func absorb(_ other: DiagnosticLog, relocating transform: (SourceLocation) -> SourceLocation) {
        for (code, entry) in other.entries {
            if let existing = entries[code] {
                entries[code] = (existing.first, existing.count + entry.count)
            } else {
                var first = entry.first
                first.location = first.location.map(transform)
                entries[code] = (first, entry.count)
            }
        }
        for var skipped in other.skippedFeatures {
            skipped.location = skipped.location.map(transform)
            listSkip(skipped)
        }
        unlistedSkips += other.unlistedSkips
        for var warning in other.everyWarning {
            warning.location = warning.location.map(transform)
            if everyWarning.count < DiagnosticLog.maximumListedSkips {
                everyWarning.append(warning)
            } else {
                unlistedWarnings += 1
            }
        }
        unlistedWarnings += other.unlistedWarnings
    }

    /// How many times each code has been reported so far (`absorb(_:since:)`).
    public struct Checkpoint: Sendable {
        let counts: [String: Int]
    }

    /// The counts so far, to absorb only what is reported after this point.
    public var checkpoint: Checkpoint {
        Checkpoint(counts: Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value.count) }))
    }

    /// Adds the entries `other` recorded after `checkpoint` (a code first seen before it is
    /// added with its later count only, at its first place).
    public func absorb(_ other: DiagnosticLog, since checkpoint: Checkpoint) {
        for (code, entry) in other.entries {
            let count = entry.count - (checkpoint.counts[code] ?? 0)
            guard count > 0 else { continue }
            if let existing = entries[code] {
                entries[code] = (existing.first, existing.count + count)
            } else {
                entries[code] = (entry.first, count)
            }
        }
    }

    /// Whether nothing was reported.
    public var isEmpty: Bool { entries.isEmpty }

    /// The total number of warnings and notes, repeats included.
    public var count: Int { entries.values.reduce(0) { $0 + $1.count } }

    /// Whether any warning (not a note) was reported.
    public var hasWarnings: Bool { entries.values.contains { !$0.first.isNote } }

    /// One line per warning code: the first occurrence, and how many more followed; those of
    /// the document first, then in the order of their first places in the input (so that one
    /// thread or several print them alike: a transform's note on a worker thread may be
    /// recorded before a writer's warning about an earlier feature).
    public var summary: [String] {
        var fileRanks: [String: Int] = [:]
        let ranked = entries.values.enumerated().map { index, entry in
            let place = entry.first.location
            let file = place.map { location in
                let name = location.file ?? ""
                if let rank = fileRanks[name] { return rank }
                fileRanks[name] = fileRanks.count
                return fileRanks.count - 1
            }
            return (
                entry: entry,
                key: [
                    place == nil ? 0 : 1, file ?? 0, place?.line ?? 0, place?.column ?? 0,
                    place?.byteOffset ?? 0, index,
                ]
            )
        }
        return ranked.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { item in
            let entry = item.entry
            return entry.count == 1 ? entry.first.description : entry.first.description + " (\(entry.count) times)"
        }
    }

    /// One line per skipped feature, where it was and why, then how many more were not listed.
    public var skippedSummary: [String] {
        var lines = skippedFeatures.map { skipped in
            (skipped.location.map { $0.description + ": " } ?? "") + skipped.message
        }
        if unlistedSkips > 0 { lines.append("… and \(unlistedSkips) more skipped features, not listed") }
        return lines
    }
}

/// A problem found by `geoconv validate`: an error (the input is invalid) or a warning (a
/// deviation the readers tolerate), with its place.
public struct ValidationProblem: Hashable, Sendable, CustomStringConvertible {
    /// Errors make an input invalid; warnings are "SHOULD"s and tolerated deviations.
    public enum Severity: String, Hashable, Sendable {
        case error, warning
    }

    /// How serious.
    public var severity: Severity
    /// What is wrong.
    public var message: String
    /// Where: line, column, byte offset and, for JSON, the JSON Pointer.
    public var location: SourceLocation

    /// Creates a problem.
    public init(severity: Severity, message: String, location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    public var description: String { "\(location): \(severity.rawValue): \(message)".escapingControlCharacters }
}
