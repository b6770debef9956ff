import GeoConvCore
import GeoConvFormatKit
import Synchronization

/// Style rules applied as a transform: each feature gets the keys of every rule whose
/// selector it matches, in order, a later rule overriding an earlier one key by key; what no
/// rule sets stays as the input had it. `--style` and `--style-file` make
/// these; a library caller makes them from `StyleRule`s:
///
/// ```swift
/// let rules = try StyleRules([
///     StyleRule("*: stroke=#424242 stroke-width=1"),
///     StyleRule("kind = 'park': fill=#2e7d32 fill-opacity=0.5"),
/// ])
/// let report = try Converter().convert(.file("parcels.gpkg"), to: .file("parcels.kml"), transforms: [rules])
/// try rules.reportUnused(into: report.diagnostics)
/// ```
///
/// Where the model holds a key, the style gets it (`Style.strokeColor`, `fillColor`,
/// `markerColor`, `icon`, `iconScale`, `rotation`, `zIndex`, `geodesic`); `label` sets the
/// title; `label-scale`, `hidden` (as `visibility`) and the `highlight.` keys (as
/// `geoconv:highlight-style`) are properties the writers know. An opacity without its colour
/// applies to the colour the feature has, else simplestyle's default (`#555555`).
///
/// Reported: a value of the wrong kind when the rules are read (`style.bad-value`), and one a
/// `{property}` gives a feature; each feature no rule matched (`style.no-rule-matched`, a
/// note, counted); after the run, a rule that matched nothing (`style.rule-unused`) and a key
/// no feature it matched could draw (`style.key-not-drawn`: a fill on lines). Each names the
/// rule's line and column.
public struct StyleRules: FeatureTransform, Sendable {
    /// The rules, in order.
    public let rules: [StyleRule]
    private let assignments: [StyleRule.Assignment]
    /// For each rule, the range of its assignments in `assignments`.
    private let ranges: [Range<Int>]
    /// Whether a rule matches every feature (`*`): then no feature goes unmatched.
    private let coversAll: Bool
    /// Whether each rule's values are all known when read (the style can be cached).
    private let knownOnly: [Bool]
    private let tally: Tally
    /// The assignment setting each slot for the current feature (`-1`: none). Reused.
    private var slots: [Int]
    /// The slots `slots` has an assignment in. Reused.
    private var filledSlots: [Int] = []
    /// For each assignment set on the current feature, the one it replaced in its slot
    /// (`-1`: none): where a `{property}` gives this feature no value, the earlier rule's
    /// holds. Reused; read only along the chain from `slots`.
    private var replaced: [Int]
    /// What this copy has told the tally already.
    private var told: Tally.State
    /// Styles made for a set of matched rules, on a feature that had none.
    private var cache: [UInt64: Style] = [:]
    /// The last set of matched rules found in `cache` or added to it, and its style: features
    /// mostly match the rules the one before matched.
    private var lastMask: UInt64?
    private var lastCached = Style()
    /// The geometry kind of the last feature given `lastCached` on the whole path, when it set
    /// no property: a feature with no style matching the same rules, of the same kind, is given
    /// `lastCached` at once — what it could tell the tally, that feature told.
    private var repeats: (mask: UInt64, kind: GeometryKind?)?
    /// Whether any rule sets a key kept as a property or the title (`label`, `label-scale`,
    /// `hidden`, the `highlight.` keys): else `applyProperties` has nothing to do.
    private let setsProperties: Bool
    /// The rules' selectors, evaluated together (a property read once per feature).
    private var program: WhereProgram
    /// Which rules the feature at hand matched. Reused.
    private var matches: [Bool]
    /// Each assignment's slot (`Slot.index(of:)`), found once.
    private let assignmentSlots: [Int]

    /// Rules applied in this order.
    public init(_ rules: [StyleRule]) {
        self.rules = rules
        var all: [StyleRule.Assignment] = []
        var ranges: [Range<Int>] = []
        for rule in rules {
            let start = all.count
            all += rule.assignments
            ranges.append(start..<all.count)
        }
        assignments = all
        self.ranges = ranges
        coversAll = rules.contains { $0.selector == nil }
        knownOnly = rules.map { rule in
            rule.assignments.allSatisfy { if case .known = $0.value { true } else { false } }
        }
        tally = Tally(rules: rules.count, assignments: all.count)
        slots = Array(repeating: -1, count: Slot.count)
        replaced = Array(repeating: -1, count: all.count)
        told = Tally.State(rules: rules.count, assignments: all.count)
        program = WhereProgram(rules.map(\.selector))
        matches = Array(repeating: false, count: rules.count)
        assignmentSlots = all.map(Slot.index(of:))
        setsProperties = all.contains { $0.highlight || [.label, .labelScale, .hidden].contains($0.key) }
    }

    /// The rules written in `texts` (`--style` flags, a style file's lines), in order.
    ///
    /// - Throws: `usage`, placed at the rule's line and column (`StyleRule.init(_:)`).
    public init(_ texts: [StyleRuleText]) throws(GeoConvError) {
        var rules: [StyleRule] = []
        for text in texts { rules.append(try StyleRule(text)) }
        self.init(rules)
    }

    /// Reports the values that are not of their key's kind (warnings; errors when `log` is
    /// strict). Called once, before the features.
    public func reportProblems(into log: DiagnosticLog) throws(GeoConvError) {
        for rule in rules {
            for problem in rule.problems {
                try log.warn(
                    PipelineCode.styleBadValue, problem.message + ": the key is left out", at: problem.location,
                    hint: problem.hint)
            }
        }
    }

    /// Reports, after the features, each rule that matched none and each key that no feature
    /// its rule matched could draw (every copy of these rules counts: a parallel run's too).
    public func reportUnused(into log: DiagnosticLog) throws(GeoConvError) {
        let (matched, drawn) = tally.state.withLock { ($0.matched, $0.drawn) }
        for (index, rule) in rules.enumerated() {
            guard matched[index] else {
                try log.warn(
                    PipelineCode.styleRuleUnused, "the style rule '\(rule.text)' matched no feature",
                    at: rule.location, hint: "check its selector's property names and values")
                continue
            }
            for slot in ranges[index] where !drawn[slot] {
                let assignment = assignments[slot]
                try log.warn(
                    PipelineCode.styleKeyNotDrawn,
                    "\(assignment.highlight ? "highlight." : "")\(assignment.key.rawValue) draws nothing on the "
                        + "features its rule matched (\(assignment.key.drawnOn))",
                    at: assignment.location, hint: "narrow the rule's selector, or drop the key")
            }
        }
    }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        var copy = feature
        return try transform(inPlace: &copy, diagnostics: diagnostics) ?? [copy]
    }

    public mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        if rules.count <= 64 {
            let mask = program.mask(feature)
            if let repeats, repeats.mask == mask, feature.style.boxIdentity == nil,
                repeats.kind == feature.geometryKind
            {
                feature.style = lastCached
                return nil
            }
            for index in rules.indices { matches[index] = mask & (1 << UInt64(index)) != 0 }
        } else {
            program.evaluate(feature, into: &matches)
        }
        return try transformMatched(&feature, diagnostics: diagnostics)
    }

    /// The whole path: the rules `matches` holds applied to `feature`, what they did told.
    private mutating func transformMatched(
        _ feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        var mask: UInt64 = 0
        var matched = false
        var cacheable = rules.count <= 64 && feature.style.isEmpty
        for index in rules.indices where matches[index] {
            if !matched {
                // (Only the slots the last feature that matched filled hold an assignment.)
                for slot in filledSlots { slots[slot] = -1 }
                filledSlots.removeAll(keepingCapacity: true)
                matched = true
            }
            if !told.matched[index] { tell(matchedRule: index) }
            if index < 64 { mask |= 1 << UInt64(index) }
            cacheable = cacheable && knownOnly[index]
            for assignment in ranges[index] {
                let slot = assignmentSlots[assignment]
                replaced[assignment] = slots[slot]
                if slots[slot] < 0 { filledSlots.append(slot) }
                slots[slot] = assignment
                // (Every matched key, not only the last of its slot: an earlier rule's value
                // holds where a later {property} gives none.)
                if !told.drawn[assignment], assignments[assignment].key.isDrawn(on: feature.geometryKind) {
                    tell(drawnAssignment: assignment)
                }
            }
        }
        guard matched else {
            if !coversAll {
                diagnostics.note(PipelineCode.styleNoRuleMatched, "features no style rule matched keep their style")
            }
            return nil
        }
        if cacheable, lastMask == mask {
            feature.style = lastCached
        } else if cacheable, let style = cache[mask] {
            feature.style = style
            (lastMask, lastCached) = (mask, style)
        } else {
            try applyStyle(to: &feature, diagnostics: diagnostics)
            if cacheable {
                cache[mask] = feature.style
                (lastMask, lastCached) = (mask, feature.style)
            }
        }
        if setsProperties {
            try applyProperties(to: &feature, diagnostics: diagnostics)
        } else if cacheable {
            repeats = (mask, feature.geometryKind)
        }
        return nil
    }

    // MARK: Tallies shared by the copies

    /// Which rules matched and which assignments drew, over every copy of the rules.
    final class Tally: Sendable {
        /// Which rules matched and which assignments drew (what one copy has told, too).
        struct State: Sendable {
            var matched: [Bool]
            var drawn: [Bool]

            init(rules: Int, assignments: Int) {
                matched = Array(repeating: false, count: rules)
                drawn = Array(repeating: false, count: assignments)
            }
        }
        let state: Mutex<State>

        init(rules: Int, assignments: Int) {
            state = Mutex(State(rules: rules, assignments: assignments))
        }
    }

    private mutating func tell(matchedRule index: Int) {
        told.matched[index] = true
        tally.state.withLock { $0.matched[index] = true }
    }

    private mutating func tell(drawnAssignment index: Int) {
        told.drawn[index] = true
        tally.state.withLock { $0.drawn[index] = true }
    }

    // MARK: Applying

    /// The value an assignment gives `feature`: its literal, or its template filled from the
    /// feature's properties and read as the key's kind (`nil`, reported, when it is not one or
    /// a property is missing).
    private func value(
        of index: Int, for feature: Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> StyleRule.Resolved? {
        let assignment = assignments[index]
        switch assignment.value {
        case .known(let resolved): return resolved
        case .template(let parts):
            var text = ""
            for part in parts {
                switch part {
                case .text(let literal): text += literal
                case .property(let field):
                    guard let value = WhereExpression.value(of: field, in: feature).text else {
                        return nil  // a missing or null property sets nothing
                    }
                    text += value
                }
            }
            switch StyleRuleParser.resolve(text, for: assignment.key) {
            case .success(let resolved): return resolved
            case .failure(let problem):
                try diagnostics.warn(
                    PipelineCode.styleBadValue,
                    "\(problem.message) (from \(assignment.key.rawValue) at \(assignment.location)): this rule sets "
                        + "no \(assignment.key.rawValue) on the feature; an earlier rule's holds", hint: problem.hint)
                return nil
            }
        }
    }

    /// The key's value for `feature`: the last matched rule's, else (where its `{property}`
    /// gives none) the rule's before it, and so on.
    private func resolved(
        _ key: StyleRule.Key, highlight: Bool = false, _ feature: Feature, _ diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> StyleRule.Resolved? {
        var assignment = slots[Slot.index(of: key, highlight: highlight)]
        while assignment >= 0 {
            if let value = try value(of: assignment, for: feature, diagnostics: diagnostics) { return value }
            assignment = replaced[assignment]
        }
        return nil
    }

    /// The model style's keys.
    private func applyStyle(to feature: inout Feature, diagnostics: DiagnosticLog) throws(GeoConvError) {
        var style = feature.style
        let stroke = try color(.stroke, .strokeOpacity, current: style.strokeColor, feature, diagnostics)
        if let stroke { style.strokeColor = stroke }
        if case .number(let width)? = try resolved(.strokeWidth, feature, diagnostics) { style.strokeWidth = width }
        let fill = try color(.fill, .fillOpacity, current: style.fillColor, feature, diagnostics)
        if let fill { style.fillColor = fill }
        if case .color(let color)? = try resolved(.markerColor, feature, diagnostics) { style.markerColor = color }
        if case .text(let icon)? = try resolved(.icon, feature, diagnostics) { style.icon = icon }
        if case .number(let scale)? = try resolved(.iconScale, feature, diagnostics) { style.iconScale = scale }
        if case .number(let heading)? = try resolved(.iconHeading, feature, diagnostics) { style.rotation = heading }
        if case .integer(let z)? = try resolved(.zIndex, feature, diagnostics) { style.zIndex = z }
        if case .flag(let geodesic)? = try resolved(.geodesic, feature, diagnostics) { style.geodesic = geodesic }
        feature.style = style
    }

    /// A colour key with its opacity key: the colour set (else the current one, else
    /// simplestyle's default grey) at the opacity set (else the colour's own).
    private func color(
        _ key: StyleRule.Key, _ opacityKey: StyleRule.Key, highlight: Bool = false, current: Color?,
        _ feature: Feature, _ diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> Color? {
        var color: Color?
        if case .color(let set)? = try resolved(key, highlight: highlight, feature, diagnostics) { color = set }
        if case .number(let opacity)? = try resolved(opacityKey, highlight: highlight, feature, diagnostics) {
            color = (color ?? current ?? Color(red: 0x55, green: 0x55, blue: 0x55)).withOpacity(opacity)
        }
        return color
    }

    /// The title, and the keys the model carries as properties.
    private func applyProperties(to feature: inout Feature, diagnostics: DiagnosticLog) throws(GeoConvError) {
        if case .text(let label)? = try resolved(.label, feature, diagnostics) { feature.title = label }
        if case .number(let scale)? = try resolved(.labelScale, feature, diagnostics) {
            feature.properties["label-scale"] = StyleProperties.number(scale)
        }
        if case .flag(let hidden)? = try resolved(.hidden, feature, diagnostics) {
            feature.properties["visibility"] = .bool(!hidden)
        }
        guard Slot.highlightRange.contains(where: { slots[$0] >= 0 }) else { return }
        var highlight = feature[model: .highlightStyle] ?? [:]
        let stroke = try color(.stroke, .strokeOpacity, highlight: true, current: nil, feature, diagnostics)
        if let stroke { Self.set(stroke, "stroke", "stroke-opacity", in: &highlight) }
        let fill = try color(.fill, .fillOpacity, highlight: true, current: nil, feature, diagnostics)
        if let fill { Self.set(fill, "fill", "fill-opacity", in: &highlight) }
        if case .color(let marker)? = try resolved(.markerColor, highlight: true, feature, diagnostics) {
            Self.set(marker, "marker-color", nil, in: &highlight)
        }
        let numbers: [(StyleRule.Key, String)] = [
            (.strokeWidth, "stroke-width"), (.iconScale, "icon-scale"), (.iconHeading, "icon-heading"),
            (.labelScale, "label-scale"),
        ]
        for (key, name) in numbers {
            if case .number(let number)? = try resolved(key, highlight: true, feature, diagnostics) {
                highlight[name] = StyleProperties.number(number)
            }
        }
        if case .text(let icon)? = try resolved(.icon, highlight: true, feature, diagnostics) {
            highlight["icon"] = .string(icon)
        }
        feature[model: .highlightStyle] = highlight
    }

    private static func set(_ color: Color, _ key: String, _ opacityKey: String?, in object: inout JSONObject) {
        object[key] = .string(color.cssHex)
        if let opacityKey, color.opacity < 1 { object[opacityKey] = StyleProperties.number(color.opacity) }
    }

    /// The place each key's value is kept for the feature at hand: one per key, and one per
    /// key's highlight.
    enum Slot {
        static let count = StyleRule.Key.allCases.count * 2
        static let highlightRange = StyleRule.Key.allCases.count..<count

        static func index(of key: StyleRule.Key, highlight: Bool) -> Int {
            (StyleRule.Key.allCases.firstIndex(of: key) ?? 0) + (highlight ? StyleRule.Key.allCases.count : 0)
        }

        static func index(of assignment: StyleRule.Assignment) -> Int {
            index(of: assignment.key, highlight: assignment.highlight)
        }
    }
}

extension StyleRule.Key {
    /// Whether a geometry of `kind` draws the key (`nil`: no geometry, which draws only a
    /// label and its visibility).
    func isDrawn(on kind: GeometryKind?) -> Bool {
        switch self {
        case .label, .labelScale, .hidden, .zIndex: return true
        case .stroke, .strokeWidth, .strokeOpacity, .geodesic:
            return kind.map { $0 != .point && $0 != .multiPoint } ?? false
        case .fill, .fillOpacity:
            return [.polygon, .multiPolygon, .circle, .geometryCollection].contains(kind)
        case .markerColor, .icon, .iconScale, .iconHeading:
            return [.point, .multiPoint, .geometryCollection].contains(kind)
        }
    }

    /// What draws the key, for a message.
    var drawnOn: String {
        switch self {
        case .label, .labelScale, .hidden, .zIndex: "every feature"
        case .stroke, .strokeWidth, .strokeOpacity, .geodesic: "lines, polygons and circles draw it"
        case .fill, .fillOpacity: "polygons and circles draw it"
        case .markerColor, .icon, .iconScale, .iconHeading: "points draw it"
        }
    }
}
