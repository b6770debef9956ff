import GeoConvCore
import GeoConvFormatKit
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The classes of a `Classification`, made: the bounds or categories, a colour and a label
/// for each, and the features each has taken so far (shared by every copy of its transform,
/// a parallel run's too). Made by `Converter.featureClasses(for:options:)`, which reads the
/// values first when the classes depend on them.
public final class FeatureClasses: Sendable {
    /// What was asked.
    public let classification: Classification
    /// How the classes were made (the method the values chose, when none was given).
    public let method: Classification.Method
    /// The lower bounds of classes 1… (class 0 has none): a number's class is how many are
    /// at most it. Empty for categories.
    let bounds: [Double]
    /// Each category's class, keyed by its value (numbers by their value, text exactly).
    let categories: [CategoryKey: Int]
    let colors: [Color]
    let entries: [ClassLegend.Entry]
    /// The property classified, its name resolved once.
    let field: FieldReference
    /// Features each class took, then those in no class.
    private let counts: Counters

    /// A category's value: a number (whatever its spelling) or text (exactly as written).
    enum CategoryKey: Hashable {
        case number(Double)
        case text(String)
    }

    init(
        _ classification: Classification, method: Classification.Method, bounds: [Double] = [],
        categories: [CategoryKey: Int] = [:], entries: [ClassLegend.Entry]
    ) {
        self.classification = classification
        self.method = method
        self.bounds = bounds
        self.categories = categories
        self.entries = entries
        colors = entries.map(\.color)
        counts = Counters(count: entries.count + 1)
        field = FieldReference(classification.property)
    }

    /// The transform that colours each feature by its class (one per run; all count here).
    public func transform() -> ClassifyFeatures { ClassifyFeatures(classes: self) }

    /// The classes with the features each took so far.
    public var legend: ClassLegend {
        var entries = entries
        for index in entries.indices { entries[index].count = counts.value(at: index) }
        let outside = counts.value(at: entries.count)
        var other: ClassLegend.Entry?
        if let color = classification.other { other = ClassLegend.Entry(label: "other", color: color, count: outside) }
        return ClassLegend(
            property: classification.property, method: method, target: classification.target, entries: entries,
            other: other, unclassified: other == nil ? outside : 0)
    }

    /// The class of `feature`; `nil` when it is in none.
    func classIndex(of feature: Feature) -> Int? {
        let value = Self.value(of: field, in: feature)
        if !categories.isEmpty {
            switch value {
            case .null: return nil
            case .number(let number): return categories[.number(number)]
            case .string(let text): return categories[numberKey(text) ?? .text(text)]
            }
        }
        let number: Double
        switch value {
        case .number(let n): number = n
        case .string(let text):
            guard case .number(let n)? = WhereExpression.Value.number(from: text) else { return nil }
            number = n
        case .null: return nil
        }
        guard number.isFinite else { return nil }
        if method == .breaks { return Self.count(of: bounds, atMost: number) }
        // Quantile and equal-interval classes span the values read: a value beyond them (one
        // the first reading did not see) is in none.
        guard let first = entries.first?.lower, let last = entries.last?.upper, number >= first, number <= last else {
            return nil
        }
        return Self.count(of: bounds, atMost: number)
    }

    /// A property's value as the classes see it: as `--where` sees it (the property, else
    /// one of that name in another case, else the title, snippet or id), but a boolean as
    /// the text `true` or `false`, a category, not the number 1 or 0.
    static func value(of field: FieldReference, in feature: Feature) -> WhereExpression.Value {
        if case .bool(let flag)? = feature.properties[field.name] { return .string(flag ? "true" : "false") }
        return WhereExpression.value(of: field, in: feature)
    }

    /// Text that is a number, as the number it is (`"3"` is the category 3).
    private func numberKey(_ text: String) -> CategoryKey? {
        guard case .number(let n)? = WhereExpression.Value.number(from: text) else { return nil }
        return .number(n)
    }

    /// How many of the ascending `bounds` are at most `value`.
    static func count(of bounds: [Double], atMost value: Double) -> Int {
        var low = 0
        var high = bounds.count
        while low < high {
            let middle = (low + high) / 2
            if bounds[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Counts a feature in class `index` (`nil`: in none).
    func count(_ index: Int?) {
        counts.add(at: index ?? entries.count)
    }
}

/// Counters the copies of a transform on any thread add to: atomics, not a lock (two
/// workers taking one lock for every feature sleep on it: 0.7 s of system time on 1 M
/// points), in stripes chosen by thread, each on cache lines of its own (two cores adding
/// to one line pass it back and forth: a third of the transform's time).
private final class Counters: @unchecked Sendable {
    private static let stripes = 8
    private let slots: UnsafeMutablePointer<Atomic<Int>>
    /// Counters per stripe, rounded up to whole 64-byte lines.
    private let stride: Int

    init(count: Int) {
        stride = (count + 7) / 8 * 8
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: stride * Self.stripes * MemoryLayout<Atomic<Int>>.stride, alignment: 64)
        slots = raw.bindMemory(to: Atomic<Int>.self, capacity: stride * Self.stripes)
        for index in 0..<(stride * Self.stripes) { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: stride * Self.stripes)
        UnsafeMutableRawPointer(slots).deallocate()
    }

    func add(at index: Int) {
        // (Threads' handles are addresses megabytes apart: their bits are mixed first.)
        let stripe = Int(
            truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: pthread_self())) &* 0x9E37_79B9_7F4A_7C15) >> 61)
        slots[stripe * stride + index].wrappingAdd(1, ordering: .relaxed)
    }

    func value(at index: Int) -> Int {
        (0..<Self.stripes).reduce(0) { $0 + slots[$1 * stride + index].load(ordering: .relaxed) }
    }
}

/// `--classify` applied: each feature in a class gets its colour on the classification's
/// target key (by geometry for `auto`), else `other`'s; one outside every class without
/// `other` keeps its style (a note, counted). Runs before the style rules, which may refine it.
public struct ClassifyFeatures: FeatureTransform, Sendable {
    let classes: FeatureClasses

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        var copy = feature
        return try transform(inPlace: &copy, diagnostics: diagnostics) ?? [copy]
    }

    public mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        let index = classes.classIndex(of: feature)
        classes.count(index)
        guard let color = index.map({ classes.colors[$0] }) ?? classes.classification.other else {
            diagnostics.note(
                PipelineCode.classifyUnclassified,
                "features in no class of --classify \(classes.classification.property) keep their style")
            return nil
        }
        switch classes.classification.target {
        case .stroke: feature.style.strokeColor = color
        case .fill: feature.style.fillColor = color
        case .markerColor: feature.style.markerColor = color
        case .auto:
            switch feature.geometry?.kind {
            case .point?, .multiPoint?: feature.style.markerColor = color
            case .lineString?, .multiLineString?: feature.style.strokeColor = color
            case .polygon?, .multiPolygon?, .circle?: feature.style.fillColor = color
            case .geometryCollection?:
                feature.style.markerColor = color
                feature.style.strokeColor = color
                feature.style.fillColor = color
            case nil: break
            }
        }
        return nil
    }

}
