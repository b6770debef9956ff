import ArgumentParser
import Foundation
import GeoConv

struct Conservation: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that every value of each file survives a same-format round trip or is reported.",
        discussion: """
            For each KML, KMZ, GPX, GeoJSON, CSV, Shapefile and GeoParquet file (directories
            are searched), lists every value the file holds (element text, attribute values,
            JSON scalars, cells, ordinates), converts the file to its own format and checks
            each value reaches the output or is named by a warning at its place (else: lost);
            then reads the output back and compares it with the input's reading by address,
            feature by feature, key by key, part, ring and vertex (else: changed). Prints per
            file and in total the values read, carried, reported, lost silently and the places
            changed silently; exit status 1 when anything was lost or changed silently. See
            docs/conservation.md.
            """
    )

    @Argument(help: "Files or directories to check.")
    var paths: [String]

    @Flag(help: "Print only the files with a silent loss or a refusal, and the totals.")
    var quiet = false

    @Option(parsing: .unconditional, help: "How many silently lost values to list per file.")
    var show = 5

    func run() throws {
        let check = ConservationCheck()
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw fail(GeoConvError(.io, "'\(path)' does not exist", hint: "give files or directories to check"))
            }
            if isDirectory.boolValue {
                let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
                files += found.sorted().map { path + "/" + $0 }.filter { check.applies(to: $0) }
            } else {
                files.append(path)
            }
        }
        var totals = (files: 0, read: 0, carried: 0, reported: 0, lost: 0, refused: 0, changed: 0, changedSilently: 0)
        for file in files {
            let result: ConservationResult
            do {
                guard let checked = try check.check(file) else {
                    FileHandle.standardError.write(Data("\(file): not checked: its format lists no values\n".utf8))
                    continue
                }
                result = checked
            } catch {
                throw fail(error)
            }
            totals.files += 1
            totals.read += result.read
            totals.carried += result.carried
            totals.reported += result.reported
            totals.lost += result.lostSilently.count
            totals.changed += result.changedReported
            totals.changedSilently += result.changedSilently.count
            if result.refusal != nil { totals.refused += 1 }
            if quiet, result.lostSilently.isEmpty, result.changedSilently.isEmpty, result.refusal == nil { continue }
            var line =
                "\(file): \(result.format): read \(result.read), carried \(result.carried), "
                + "reported \(result.reported), lost silently \(result.lostSilently.count); "
                + "changed with a warning \(result.changedReported), changed silently \(result.changedSilently.count)"
            if let refusal = result.refusal { line += " (refused: \(refusal.message))" }
            print(line.escapingControlCharacters)  // file names and messages quote the input
            for value in result.lostSilently.prefix(show) {
                let text = value.text.count > 60 ? String(value.text.prefix(57)) + "..." : value.text
                print(
                    "  \(file):\(value.line):\(value.column): lost silently: \(value.holder.isEmpty ? "" : value.holder + " ")\(Conservation.quoted(text))"
                        + (value.pointer.map { " at \($0)" } ?? ""))
            }
            if result.lostSilently.count > show { print("  … and \(result.lostSilently.count - show) more") }
            for change in result.changedSilently.prefix(show) {
                print("  \(file): changed silently: \(change)".escapingControlCharacters)
            }
            if result.changedSilently.count > show {
                print("  … and \(result.changedSilently.count - show) more changes")
            }
        }
        print(
            "total: \(totals.files) files (\(totals.refused) refused), values read \(totals.read), "
                + "carried \(totals.carried), reported \(totals.reported), lost silently \(totals.lost); "
                + "changed with a warning \(totals.changed), changed silently \(totals.changedSilently)")
        if totals.lost > 0 || totals.changedSilently > 0 { throw ExitCode(1) }
    }

    /// Text in quotes, with control characters shown as escapes.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\"": out += "\\\""
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
