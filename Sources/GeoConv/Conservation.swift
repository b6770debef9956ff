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
            input = try list(ByteReader(.file(path))).filter { !ListedValue.isBlank($0.text) }
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
        guard registry.format(forPath: path)?.makeReader != nil, format.makeWriter != nil,
            let before = reading(path)
        else { return nil }
        return try changes(path, from: before, through: format, tolerance: tolerance)
    }

    /// The file's reading that the structural half compares with (`nil` when it is not read):
    /// to check one file through several formats, read it once.
    package func reading(_ path: String) -> ConservationStructure.Reading? {
        guard registry.format(forPath: path)?.makeReader != nil else { return nil }
        let structure = ConservationStructure(converter: Converter(registry: registry))
        do throws(GeoConvError) { return try structure.read(path) } catch { return nil }
    }

    /// `changes(_:through:tolerance:)` with the file's reading given (`reading(_:)`).
    package func changes(
        _ path: String, from before: ConservationStructure.Reading, through format: FileFormat, tolerance: Double = 0
    ) throws(GeoConvError)
        -> (reported: Int, silent: [StructuralDifference])?
    {
        guard format.makeWriter != nil else { return nil }
        let structure = ConservationStructure(converter: Converter(registry: registry))
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
        // Each value's comparison form, made once (values are referred to by index below).
        let keys = input.map(\.matchKey)
        var carried = 0
        var unmatched: [Int] = []
        // Plain values first, each taking one of the output's occurrences; values a warning
        // names go last, so that a dropped and reported value does not take the occurrence
        // of an equal value that was carried.
        // Schema defaults (which may be left out) go after both, so that an `<extrude>0</extrude>`
        // left out does not take the occurrence of a coordinate 0 that was written.
        var unnamed: [Int] = []
        var named: [Int] = []
        var defaults: [Int] = []
        var covered = [Bool](repeating: false, count: input.count)
        for (index, value) in input.enumerated() where value.kind == .plain {
            covered[index] = places.cover(value)
            if value.isDefault {
                defaults.append(index)
            } else if covered[index] {
                named.append(index)
            } else {
                unnamed.append(index)
            }
        }
        for index in unnamed + named + defaults {
            if let count = available[keys[index]], count > 0 {
                available[keys[index]] = count - 1
                carried += 1
            } else {
                unmatched.append(index)
            }
        }
        // xsd:boolean's two spellings: a 1 read may be written true, and 0 false.
        for spelling in [("1", "true"), ("0", "false"), ("true", "1"), ("false", "0")] {
            let source = ListedValue.matchKey(spelling.0)
            let target = ListedValue.matchKey(spelling.1)
            unmatched = unmatched.filter { index in
                guard keys[index] == source, let count = available[target], count > 0 else { return true }
                available[target] = count - 1
                carried += 1
                return false
            }
        }
        // A schema default may be left out.
        unmatched = unmatched.filter { index in
            if input[index].isDefault { carried += 1 }
            return !input[index].isDefault
        }
        for (index, value) in input.enumerated() where value.kind != .plain {
            let isCarried: Bool
            switch value.kind {
            case .renamable: isCarried = renamableWritten
            case .reprojected: isCarried = true
            case .plain, .shared: isCarried = (present[keys[index]] ?? 0) > 0 || value.isDefault
            }
            if isCarried {
                carried += 1
            } else {
                covered[index] = places.cover(value)
                unmatched.append(index)
            }
        }
        var reported = 0
        var lost: [ListedValue] = []
        let inPlaceOrder = unmatched.sorted { (input[$0].line, input[$0].column) < (input[$1].line, input[$1].column) }
        for index in inPlaceOrder {
            if covered[index] { reported += 1 } else { lost.append(input[index]) }
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
    /// JSON Pointers the warnings name (a set: a value's ancestors are looked up in it).
    private var pointers: Set<String> = []

    init(_ warnings: [Diagnostic]) {
        for warning in warnings where !warning.isNote {
            guard let location = warning.location else { continue }
            if let pointer = location.pointer, !pointer.isEmpty { pointers.insert(pointer) }
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
        guard let pointer = value.pointer, !pointers.isEmpty else { return false }
        // The value's own pointer and each ancestor's: its prefixes that end before a "/".
        if pointers.contains(pointer) { return true }
        let bytes = pointer.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: "/"), index != bytes.startIndex,
                pointers.contains(String(decoding: bytes[..<index], as: UTF8.self))
            {
                return true
            }
            index = bytes.index(after: index)
        }
        return false
    }
}
