import ArgumentParser
import Foundation
import GeoConv

/// `--style` and `--style-file`: rules that style features by their attributes, for
/// `convert`, `render` and `tiles render` (docs/styling.md).
struct StylingOptions: ParsableArguments {
    @Option(
        name: .customLong("style"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "A style rule, SELECTOR: key=value … (repeatable; after --style-file's, in order; later rules win key "
                + "by key), e.g. \"kind = 'park': fill=#2e7d32 stroke-width=2\" or \"*: stroke={colour}\".",
            valueName: "rule"))
    var style: [String] = []

    @Option(
        name: .customLong("style-file"), parsing: .unconditional,
        help: ArgumentHelp(
            "Style rules, one a line ('#' starts a comment), applied before --style's.", valueName: "file"))
    var styleFile: String?

    /// The rules as written, the file's first, each with its place.
    func rules() throws(GeoConvError) -> [StyleRuleText] {
        var rules: [StyleRuleText] = []
        if let styleFile {
            guard let data = FileManager.default.contents(atPath: styleFile) else {
                throw GeoConvError(
                    .io, "cannot read the style file '\(styleFile)'", hint: "check the path and its permissions")
            }
            rules += StyleRuleText.lines(of: String(decoding: data, as: UTF8.self), file: styleFile)
        }
        for (index, text) in style.enumerated() { rules.append(StyleRuleText(text, line: index + 1)) }
        return rules
    }
}
