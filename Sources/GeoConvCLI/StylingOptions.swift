import ArgumentParser
import Foundation
import GeoConv

/// `--classify`, `--style` and `--style-file`: colours by one property's classes and rules
/// that style features by their attributes, for `convert`, `render` and `tiles render`
/// (docs/styling.md).
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

    @Option(
        name: .customLong("classify"), parsing: .unconditional,
        help: ArgumentHelp(
            "Colour features by one property's classes, before the style rules: PROPERTY [method=categories|quantile|"
                + "equal-interval|breaks] [classes=N] [breaks=A,B,…] [colors=C,…|ramp=NAME] [target=auto|stroke|fill|"
                + "marker-color] [other=COLOUR], e.g. \"pop classes=6 ramp=YlOrRd\" (ramps: ColorBrewer's).",
            valueName: "spec"))
    var classify: String?

    /// The classification asked for, parsed.
    func classification() throws(GeoConvError) -> Classification? {
        try classify.map { (text) throws(GeoConvError) in try Classification(text) }
    }

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
