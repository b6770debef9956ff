import GeoConvCore
import GeoConvFormatKit

/// One style rule: the features its selector matches get its keys.
///
/// Written `SELECTOR: key=value key=value …`, where the selector is a `--where` expression
/// (the same grammar and comparisons) or `*` for every feature, and each value is a literal
/// (`#2e7d32`, `steelblue`, `rgb(46, 125, 50)`, `2.5`, `true`, `'two words'`) or holds
/// `{property}` (`fill={colour}`, `label='{name} ({pop})'`): that property's value, feature by
/// feature. The keys are the model's, in simplestyle's names where it has them
/// (`StyleRule.Key`); `highlight.` before a key sets it for the highlighted state (a KML
/// StyleMap).
///
/// ```swift
/// let parks = try StyleRule("kind = 'park': fill=#2e7d32 fill-opacity=0.5 stroke-width=2")
/// let roads = try StyleRule(where: "kind = 'road'", ["stroke": "#616161", "stroke-width": "3"])
/// ```
public struct StyleRule: Sendable {
    /// A key a rule sets.
    public enum Key: String, Sendable, CaseIterable {
        /// Line and outline colour (`Style.strokeColor`).
        case stroke
        /// Line and outline width, in screen points (`Style.strokeWidth`).
        case strokeWidth = "stroke-width"
        /// The stroke colour's opacity, 0…1.
        case strokeOpacity = "stroke-opacity"
        /// Polygon and circle interior colour (`Style.fillColor`).
        case fill
        /// The fill colour's opacity, 0…1.
        case fillOpacity = "fill-opacity"
        /// A marker's tint (`Style.markerColor`).
        case markerColor = "marker-color"
        /// A marker's icon: a URL or a path (`Style.icon`).
        case icon
        /// The icon's scale (`Style.iconScale`).
        case iconScale = "icon-scale"
        /// The icon's heading, degrees clockwise (`Style.rotation`).
        case iconHeading = "icon-heading"
        /// The feature's title, drawn as its label.
        case label
        /// The label's scale (KML `LabelStyle/scale`; the `label-scale` property elsewhere).
        case labelScale = "label-scale"
        /// Drawing order (`Style.zIndex`).
        case zIndex = "z-index"
        /// Lines along great circles (`Style.geodesic`).
        case geodesic
        /// Not shown when the file opens (KML `visibility` 0; the `visibility` property).
        case hidden

        /// What the key's values are.
        enum Kind { case color, number, opacity, integer, flag, text }

        var kind: Kind {
            switch self {
            case .stroke, .fill, .markerColor: .color
            case .strokeWidth, .iconScale, .iconHeading, .labelScale: .number
            case .strokeOpacity, .fillOpacity: .opacity
            case .zIndex: .integer
            case .geodesic, .hidden: .flag
            case .icon, .label: .text
            }
        }

        /// Whether `highlight.` may come before it (what a highlight style holds).
        var highlights: Bool {
            switch self {
            case .label, .zIndex, .geodesic, .hidden: false
            default: true
            }
        }
    }

    /// A value as written: known when the rule is read, or made from a feature's properties.
    enum Value: Sendable {
        case known(Resolved)
        /// Text with `{property}` places: literal runs and property names, alternating.
        case template([TemplatePart])
    }

    enum TemplatePart: Sendable {
        case text(String)
        /// A property, its name resolved once (not for every feature).
        case property(FieldReference)
    }

    /// A value of the key's kind.
    enum Resolved: Hashable, Sendable {
        case color(Color)
        case number(Double)
        case integer(Int)
        case flag(Bool)
        case text(String)
    }

    /// One `key=value` of a rule.
    struct Assignment: Sendable {
        let key: Key
        let highlight: Bool
        let value: Value
        /// Where the key is written.
        let location: SourceLocation
    }

    /// A value the rule holds that is not of its key's kind (`fill=blurple`), with its place:
    /// reported as a warning, an error with `--strict`, and the key left out.
    struct Problem: Sendable {
        let message: String
        let location: SourceLocation
        let hint: String
    }

    /// The selector; `nil` for `*`.
    let selector: WhereExpression?
    let assignments: [Assignment]
    let problems: [Problem]
    /// Where the rule is written.
    public let location: SourceLocation
    /// The rule as written.
    public let text: String

    /// Parses a rule written at `location` (`--style:1:1` by default).
    ///
    /// - Throws: `usage`, placed at the line and column: a rule without `:`, a bad selector
    ///   (as `--where` reports it), an unknown key or one without `=`. A value that is not of
    ///   its key's kind is not thrown but kept in `problems`.
    public init(_ written: StyleRuleText) throws(GeoConvError) {
        var parser = StyleRuleParser(written)
        let parsed = try parser.parse()
        selector = parsed.selector
        assignments = parsed.assignments
        problems = parsed.problems
        location = SourceLocation(file: written.file, line: written.line, column: written.column)
        text = written.text
    }

    /// Parses `text` as a `--style` rule.
    public init(_ text: String) throws(GeoConvError) {
        try self.init(StyleRuleText(text))
    }

    /// A rule from its parts: `selector` a `--where` expression (`nil` or `*` for every
    /// feature), `values` keyed by the keys' names (`"fill"`, `"highlight.stroke"`), each
    /// written as in a rule's text.
    public init(where selector: String?, _ values: KeyValuePairs<String, String>) throws(GeoConvError) {
        var text = (selector ?? "*") + ":"
        for (key, value) in values {
            let quoted = "'" + value.replacing("'", with: "''") + "'"
            text += " \(key)=\(quoted)"
        }
        try self.init(text)
    }
}
