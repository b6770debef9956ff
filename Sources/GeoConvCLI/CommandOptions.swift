public import ArgumentParser
import GeoConv
import GeoConvCore
public import GeoConvFormatKit
import GeoConvIO

/// The file a command reads and how: `INPUT` and `--from`. One group for every command
/// that reads a file.
struct InputOptions: ParsableArguments {
    @Argument(help: "The input file, or '-' for standard input.")
    var input: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The input format (default: from the extension or the content).", valueName: "format"))
    var from: FileFormat?

    /// The formats' long flags (`--csv-lon lng`), as `FormatFlags.rewritten` passes them.
    @Option(name: .customLong(FormatFlags.carrier), parsing: .unconditionalSingleValue, help: .hidden)
    var formatFlags: [String] = []

    @Option(
        name: [.customLong("oo"), .customLong("oo", withSingleDash: true)], parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "An option of the input format's reader, as GDAL's -oo (geoconv formats lists them).",
            valueName: "NAME=VALUE"))
    var openOptions: [String] = []

    func validate() throws {
        _ = try givenFlags()
        _ = try givenOpenOptions()
    }

    /// The formats' long flags' values (for the reader and the writer alike).
    private func givenFlags() throws -> FormatOptionValues {
        var values = FormatOptionValues()
        try FormatFlags.apply(formatFlags, to: &values, writing: true)
        return values
    }

    /// `--oo`'s values, set on the input format's options (named by `--from` or the file's
    /// extension: `--oo` needs one of them, as the content is looked at only later).
    private func givenOpenOptions() throws -> FormatOptionValues {
        try FormatRegistry.standard.optionValues(openOptions, for: .read, of: from, path: input == "-" ? nil : input)
    }

    /// The input as the library names it.
    var source: InputSource { input == "-" ? .standardInput : .file(input) }

    /// Options that read the input as these say: its format, the formats' long flags (for
    /// the reader and the writer alike) and `--oo`.
    var options: ConversionOptions {
        var options = ConversionOptions(inputFormat: from)
        options.formatOptions = (try? givenFlags()) ?? FormatOptionValues()  // (checked by validate())
        options.openOptions = (try? givenOpenOptions()) ?? FormatOptionValues()  // (checked by validate())
        return options
    }
}

/// The file a conversion writes and in what: `OUTPUT` and `--to`.
struct OutputOptions: ParsableArguments {
    @Argument(help: "The output file, or '-' for standard output.")
    var output: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The output format (default: from the extension).", valueName: "format"))
    var to: FileFormat?

    @Option(
        name: [
            .customLong("co"), .customLong("co", withSingleDash: true), .customLong("lco", withSingleDash: true),
            .customLong("dsco", withSingleDash: true),
        ],
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "An option of the output format's writer, as GDAL's -co/-lco "
                + "(geoconv formats lists them).",
            valueName: "NAME=VALUE"))
    var creationOptions: [String] = []

    func validate() throws { _ = try givenCreationOptions() }

    /// The output as the library names it.
    var target: OutputTarget { output == "-" ? .standardOutput : .file(output) }

    /// `--co`'s values, set on the output format's options (`--to`'s, or the extension's).
    func givenCreationOptions() throws -> FormatOptionValues {
        try FormatRegistry.standard.optionValues(
            creationOptions, for: .write, of: to,
            path: output == "-" ? nil : output)
    }
}

/// `--from` and `--to` take the registry's format names and aliases (any case); an unknown
/// name is a usage error (exit 64) listing the known ones.
extension FileFormat: ExpressibleByArgument {
    public init?(argument: String) {
        guard let format = FormatRegistry.standard.format(named: argument) else { return nil }
        self = format
    }

    public static var allValueStrings: [String] { FormatRegistry.standard.formats.map(\.name) }
}

extension FormatRegistry {
    /// `--oo`'s (`side` `.read`) or `--co`'s (`.write`) `NAME=VALUE`s set on the options of
    /// `format`, or of the format `path`'s extension names; a usage error when neither says
    /// which, or the format does not take one of them.
    func optionValues(
        _ assignments: [String], for side: FormatOptionSides, of format: FileFormat?,
        path: String?
    ) throws -> FormatOptionValues {
        var values = FormatOptionValues()
        guard !assignments.isEmpty else { return values }
        let (which, given) = side == .read ? ("input", "--from") : ("output", "--to")
        guard let format = format ?? path.flatMap({ self.format(forPath: $0) }) else {
            throw ValidationError(
                "\(side.flags) needs the \(which)'s format: give \(given) "
                    + "(the file's name does not say it)")
        }
        for assignment in assignments {
            do throws(GeoConvError) {
                try format.setOption(assignment, for: side, in: &values)
            } catch {
                throw ValidationError(error.message + (error.hint.map { "\n  hint: " + $0 } ?? ""))
            }
        }
        return values
    }

    /// The names of the formats with a reader and a writer, for help texts: `geojson, kml, …`.
    var names: String { formats.map(\.name).joined(separator: ", ") }

    /// The names of the line-delimited formats (no record spans a line), whose inputs
    /// `--jobs` cuts into chunks of lines.
    var lineDelimitedNames: String {
        formats.filter { $0.capabilities.lineRecords != nil }.map(\.name).joined(separator: ", ")
    }
}
