import ArgumentParser
import GeoConv

/// The formats' own long flags (`--csv-lon`, `--pretty`, `--arc-step`…), built from the
/// options each format declares (`FileFormat.options`): no flag of a format is declared in
/// the CLI. Before parsing, `rewritten(_:)` turns each into `--format-flag NAME=VALUE`,
/// which every command that reads a file takes (`InputOptions`); a command that writes no
/// format refuses the flags that only speak to writers.
enum FormatFlags {
    /// The hidden option the long flags become.
    static let carrier = "format-flag"

    /// Every long flag a registered format declares, once (an option several formats list,
    /// `--arc-step`, is one flag), in registry order.
    static let declared: [DeclaredFormatOption] = {
        var seen = Set<String>()
        return FormatRegistry.standard.formats.flatMap(\.options).filter { seen.insert($0.name).inserted }
    }()

    /// The declared option a long flag (without dashes) names.
    static func option(named name: String) -> DeclaredFormatOption? {
        declared.first { $0.name == name }
    }

    /// The arguments with each format long flag and its value (`--csv-lon lng`,
    /// `--csv-lon=lng`, `--pretty`) as `--format-flag csv-lon=lng`. Nothing after `--` is
    /// touched; a flag missing its value is passed on without one, for `apply` to report.
    static func rewritten(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                result += arguments[(index - 1)...]
                break
            }
            guard argument.hasPrefix("--") else {
                result.append(argument)
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            guard let option = option(named: name) else {
                result.append(argument)
                continue
            }
            var assignment = name
            if body.count > name.count {
                assignment += String(body.dropFirst(name.count))  // "=value" as given
            } else if option.isFlag {
                assignment += "=YES"
            } else if index < arguments.endIndex {
                assignment += "=" + arguments[index]
                index += 1
            }
            result += ["--" + carrier, assignment]
        }
        return result
    }

    /// Sets each `NAME=VALUE` of `--format-flag` on `values`; a usage error names the flag and
    /// what it takes, and, with `writing` false, refuses a flag that only a writer takes.
    static func apply(
        _ assignments: [String], to values: inout FormatOptionValues, writing: Bool
    ) throws {
        for assignment in assignments {
            let name = String(assignment.prefix { $0 != "=" })
            guard let option = option(named: name) else {
                throw ValidationError("--\(carrier) \(assignment): no format declares --\(name) (geoconv formats)")
            }
            guard assignment.count > name.count else {
                throw ValidationError("--\(name) needs a value: \(option.help)")
            }
            if !writing, !option.sides.contains(.read) {
                throw ValidationError(
                    "--\(name) is an option of writing \(formats(declaring: name)); this command writes no file")
            }
            let text = String(assignment.dropFirst(name.count + 1))
            guard option.assign(text, &values) else {
                throw ValidationError("--\(name) takes \(option.takes), not '\(text)'\n  hint: \(option.help)")
            }
        }
    }

    /// The formats that declare the long flag `name`, for messages: `geojson, geojsonseq`.
    static func formats(declaring name: String) -> String {
        FormatRegistry.standard.formats.filter { $0.options.contains { $0.name == name } }.map(\.name)
            .joined(separator: ", ")
    }

    /// The help's section listing the long flags of `sides`: each with its value, the
    /// formats that take it and its help, wrapped to 80 columns (the help's own width).
    static func help(for sides: FormatOptionSides) -> String {
        let lines = declared.filter { !$0.sides.isDisjoint(with: sides) }.flatMap { option in
            let flag = "--" + option.name + (option.isFlag ? "" : " <\(option.valueName)>")
            return ["  " + flag + " (" + formats(declaring: option.name) + ")"]
                + wrapped(option.help, width: 72).map { "      " + $0 }
        }
        return (["FORMAT OPTIONS (for reader and writer; --oo/--co NAME=VALUE for one side):"] + lines)
            .joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

/// A command that reads a file with `InputOptions`, and so takes the formats' long flags.
protocol TakesFormatFlags {
    /// The input's options (the flags among them).
    var inputOptions: InputOptions { get }
    /// Whether the command writes a format (and so takes the writers' flags too).
    static var writesFormats: Bool { get }
}

extension TakesFormatFlags {
    static var writesFormats: Bool { false }

    /// A usage error when the command writes no format and a writer's flag was given.
    func checkWriterFlags() throws {
        guard !Self.writesFormats else { return }
        var values = FormatOptionValues()
        try FormatFlags.apply(inputOptions.formatFlags, to: &values, writing: false)
    }
}
