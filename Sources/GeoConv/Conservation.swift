import Foundation

/// What the conservation check found in one file: how many of the values read reached the
/// output of a same-format round trip, how many a warning names, and which were lost silently.
public struct ConservationResult: Sendable {
    /// The file, as given.
    public var file: String
    /// The format it was read and written in.
    public var format: String
    /// Values read (element text and attribute values, JSON scalars and names, ordinates).
    public var read: Int
    /// Values found in the round trip's output (in an equivalent form where documented).
    public var carried: Int
    /// Values not in the output that a warning names (its place is the value's own or an
    /// enclosing element's), or every value of a file the round trip refused with an error.
    public var reported: Int
    /// Values neither carried nor reported, in input order.
    public var lostSilently: [ListedValue]
    /// Places where the round trip's reading differs from the input's (a value at another
    /// place, of another type, a key spelled otherwise, a ring or vertex moved) and a warning
    /// of the round trip names the feature.
    public var changedReported: Int = 0
    /// Places where the round trip's reading differs from the input's and no warning names it.
    public var changedSilently: [StructuralDifference] = []
    /// The error the round trip stopped with, when it refused the file.
    public var refusal: GeoConvError?
}

/// The conservation check: every value a reader takes in from a file reaches the output of
/// a same-format round trip (KML → KML, KMZ → KMZ, GPX → GPX, GeoJSON → GeoJSON, CSV → CSV,
/// Shapefile → Shapefile, GeoParquet → GeoParquet) or is named by a warning with its code and
/// place; and the round trip's reading equals the input's by address (feature, key, part, ring,
/// vertex), or a warning names the feature that changed. Formats take part by listing their values
/// (`FormatCapabilities.listsValues`); the equivalences accepted are the ones those
/// listings mark (`ListedValue.Kind`) and `ListedValue.matchKey`'s: numbers by value, white
/// space collapsed. See `docs/conservation.md`.
public struct ConservationCheck: Sendable {
    /// The formats to choose from.
    public var registry: FormatRegistry

    /// Creates a check over a registry (the standard one by default).
    public init(registry: FormatRegistry = .standard) { self.registry = registry }

    /// Whether the check applies to the file at `path` (its format lists values and reads
    /// and writes).
    public func applies(to path: String) -> Bool {
        guard let format = registry.format(forPath: path) else { return false }
        return format.capabilities.listsValues != nil && format.makeReader != nil && format.makeWriter != nil
    }

    /// Checks one file; `nil` when the check does not apply to it (`applies(to:)`).
    public func check(_ path: String) throws(GeoConvError) -> ConservationResult? {
        guard applies(to: path), let format = registry.format(forPath: path), let list = format.capabilities.listsValues
        else {
            return nil
        }
        let extensionPart = path.split(separator: ".").last.map(String.init) ?? format.extensions[0]
        let directory = try Self.workDirectory("geoconv-conservation-")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("round-trip." + extensionPart).path

        let input: [ListedValue]
        do throws(GeoConvError) {
            input = try list(ByteReader(.file(path))).filter { !$0.matchKey.isEmpty }
        } catch {
            // Not readable as the format: the conversion says so, with its place.
            return ConservationResult(
                file: path, format: format.name, read: 0, carried: 0, reported: 0, lostSilently: [],
                refusal: error)
        }
        let warnings: [Diagnostic]
        do throws(GeoConvError) {
            warnings = try checkedConversion(path, to: output, as: nil)
        } catch {
            // Refused with a located error: nothing is lost silently.
            return ConservationResult(
                file: path, format: format.name, read: input.count, carried: 0, reported: input.count,
                lostSilently: [], refusal: error)
        }
        let written = try list(ByteReader(.file(output)))
        var result = compare(path: path, format: format.name, input: input, output: written, warnings: warnings)
        // By address: the output read back, feature by feature, against the input's reading.
        let structure = ConservationStructure(converter: Converter(registry: registry))
        let before = try structure.read(path)
        do throws(GeoConvError) {
            let after = try structure.read(output)
            let changes = structure.changes(from: before, to: after, format: format, warnings: warnings)
            result.changedReported = changes.reported
            result.changedSilently = changes.silent
        } catch {
            // geoconv cannot read back what it wrote: everything changed, and nothing said so.
            result.changedSilently = [
                StructuralDifference(
                    feature: 0, category: "file.unreadable", place: "output",
                    detail: error.description)
            ]
        }
        return result
    }

    /// Converts the file at `path` to `format` and compares the output's reading with the
    /// file's own, by address (the structural half of the check, across formats): the
    /// changes a warning of the conversion names, and the silent ones. `nil` when the file
    /// is not read, or the conversion refuses it with an error (nothing changed silently).
    /// `tolerance` is the largest ordinate difference that counts as equal (a polyline's
    /// precision).
    public func changes(
        _ path: String, through format: FileFormat, tolerance: Double = 0
    ) throws(GeoConvError)
        -> (reported: Int, silent: [StructuralDifference])?
    {
        guard registry.format(forPath: path)?.makeReader != nil, format.makeWriter != nil else { return nil }
        let structure = ConservationStructure(converter: Converter(registry: registry))
        let before: ConservationStructure.Reading
        do throws(GeoConvError) { before = try structure.read(path) } catch { return nil }
        let directory = try Self.workDirectory("geoconv-cross-")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent(
            "out." + (format.capabilities.wholeOutputExtension ?? format.extensions[0])
        ).path
        let warnings: [Diagnostic]
        do throws(GeoConvError) { warnings = try checkedConversion(path, to: output, as: format) } catch { return nil }
        do throws(GeoConvError) {
            let after = try structure.read(output)
            return structure.changes(from: before, to: after, format: format, warnings: warnings, tolerance: tolerance)
        } catch {
            let unreadable = StructuralDifference(
                feature: 0, category: "file.unreadable", place: "output", detail: error.description)
            return (0, [unreadable])
        }
    }

    /// Converts `path` to `output` as both halves of the check do (one thread, every warning
    /// listed; `format` `nil`: by the output's extension) and returns every warning: each
    /// listed one, each skipped feature, and the first of each code.
    private func checkedConversion(
        _ path: String, to output: String, as format: FileFormat?
    )
        throws(GeoConvError) -> [Diagnostic]
    {
        var options = ConversionOptions()
        options.outputFormat = format
        options.jobs = 1
        options.listsEveryWarning = true
        let report = try Converter(registry: registry).convert(.file(path), to: .file(output), options: options)
        return report.diagnostics.everyWarning + report.diagnostics.skippedFeatures
            + report.diagnostics.entries.values.map(\.first).filter { !$0.isNote }
    }

    /// A new temporary directory for a conversion's output (the caller removes it).
    private static func workDirectory(_ prefix: String) throws(GeoConvError) -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + UUID().uuidString)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw GeoConvError(
                .io, "cannot make a temporary directory for the conversion's output: \(error)",
                hint: "set TMPDIR to a writable directory")
        }
        return directory
    }

    /// Matches the values read against the values written, then the rest against the warnings.
    package func compare(
        path: String, format: String, input: [ListedValue], output: [ListedValue], warnings: [Diagnostic]
    )
        -> ConservationResult
    {
        var available: [String: Int] = [:]
        var renamableWritten = false
        for value in output {
            available[value.matchKey, default: 0] += 1
            if value.kind == .renamable { renamableWritten = true }
        }
        let present = available
        let places = WarningPlaces(warnings)
        var carried = 0
        var unmatched: [ListedValue] = []
        // Plain values first, each taking one of the output's occurrences; values a warning
        // names go last, so that a dropped and reported value does not take the occurrence
        // of an equal value that was carried.
        // Schema defaults (which may be left out) go after both, so that an `<extrude>0</extrude>`
        // left out does not take the occurrence of a coordinate 0 that was written.
        var unnamed: [ListedValue] = []
        var named: [ListedValue] = []
        var defaults: [ListedValue] = []
        for value in input where value.kind == .plain {
            if value.isDefault {
                defaults.append(value)
            } else if places.cover(value) {
                named.append(value)
            } else {
                unnamed.append(value)
            }
        }
        for value in unnamed + named + defaults {
            let key = value.matchKey
            if let count = available[key], count > 0 {
                available[key] = count - 1
                carried += 1
            } else {
                unmatched.append(value)
            }
        }
        // xsd:boolean's two spellings: a 1 read may be written true, and 0 false.
        for spelling in [("1", "true"), ("0", "false"), ("true", "1"), ("false", "0")] {
            unmatched = unmatched.filter { value in
                let target = ListedValue.matchKey(spelling.1)
                guard value.matchKey == ListedValue.matchKey(spelling.0), let count = available[target], count > 0
                else { return true }
                available[target] = count - 1
                carried += 1
                return false
            }
        }
        // A schema default may be left out.
        unmatched = unmatched.filter { value in
            if value.isDefault { carried += 1 }
            return !value.isDefault
        }
        for value in input where value.kind != .plain {
            let isCarried: Bool
            switch value.kind {
            case .renamable: isCarried = renamableWritten
            case .reprojected: isCarried = true
            case .plain, .shared: isCarried = (present[value.matchKey] ?? 0) > 0 || value.isDefault
            }
            if isCarried { carried += 1 } else { unmatched.append(value) }
        }
        var reported = 0
        var lost: [ListedValue] = []
        for value in unmatched.sorted(by: { ($0.line, $0.column) < ($1.line, $1.column) }) {
            if places.cover(value) { reported += 1 } else { lost.append(value) }
        }
        return ConservationResult(
            file: path, format: format, read: input.count, carried: carried, reported: reported,
            lostSilently: lost, refusal: nil)
    }
}

/// The places the warnings of a round trip name, asked whether one holds a value.
struct WarningPlaces {
    private var positions: Set<ListedValue.Position> = []
    private var lines: Set<Int> = []
    private var pointers: [String] = []

    init(_ warnings: [Diagnostic]) {
        for warning in warnings where !warning.isNote {
            guard let location = warning.location else { continue }
            if let pointer = location.pointer, !pointer.isEmpty { pointers.append(pointer) }
            if let line = location.line {
                if let column = location.column {
                    positions.insert(ListedValue.Position(line: line, column: column))
                } else {
                    lines.insert(line)
                }
            }
        }
    }

    /// Whether a warning names the value: its place, an enclosing element's start, or a
    /// JSON Pointer that is the value's or one of its ancestors'.
    func cover(_ value: ListedValue) -> Bool {
        let own = ListedValue.Position(line: value.line, column: value.column)
        if positions.contains(own) || lines.contains(value.line) { return true }
        for place in value.enclosing where positions.contains(place) || lines.contains(place.line) {
            return true
        }
        if let pointer = value.pointer {
            for prefix in pointers where pointer == prefix || pointer.hasPrefix(prefix + "/") {
                return true
            }
        }
        return false
    }
}
