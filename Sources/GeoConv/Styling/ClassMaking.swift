import GeoConvCore
import GeoConvFormatKit

extension Converter {
    /// The classes of `options.classification` for `input` (`nil` when there is none). Where
    /// they depend on the values (quantile, equal intervals, categories), the input is read
    /// once first, through `--where`, `--bbox` and `--limit` as the conversion reads it, to
    /// learn them; `breaks=` needs no reading.
    ///
    /// - Throws: `usage` when the values are needed and the input is standard input (read
    ///   once only), when no feature has a number for a numeric method, when a property has
    ///   too many values for categories, or no ramp has as many colours as classes; what
    ///   reading the input throws.
    public func featureClasses(
        for input: InputSource, options: ConversionOptions, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> FeatureClasses? {
        guard let classification = options.classification else { return nil }
        guard classification.needsValues else {
            return try ClassMaking(classification, diagnostics: diagnostics).classes(method: .breaks)
        }
        if case .standardInput = input {
            throw GeoConvError(
                .usage,
                "--classify \(classification.property) learns its classes from the values, and standard input "
                    + "is read once", hint: "give the input as a file, or the classes as breaks=…")
        }
        var making = ClassMaking(classification, diagnostics: diagnostics)
        // (What the conversion does before classifying: --where, --bbox, --limit; not
        // --select, --explode-collections or --dim, which come after.)
        var reading = options
        reading.classification = nil
        reading.styleRules = []
        reading.selection.properties = nil
        reading.selection.explodesCollections = false
        reading.selection.dimension = nil
        if try readClassValuesInRuns(input, options: reading, into: &making) { return try making.classes() }
        var loading = try FeatureLoading(
            input, options: reading, converter: self, reprojectingToWGS84: false, diagnostics: DiagnosticLog())
        while try loading.next({ (feature: inout Feature) in making.add(feature) }) {}
        return try making.classes()
    }

    /// The first reading on every core (`ClassValueRuns`), where the input's reader cuts runs
    /// and no `--limit` asks for the first features only; `false` when it was not made.
    private func readClassValuesInRuns(
        _ input: InputSource, options: ConversionOptions, into making: inout ClassMaking
    ) throws(GeoConvError) -> Bool {
        let jobs = max(1, options.jobs ?? ConversionOptions.defaultJobs)
        // (A --bbox in another CRS is reprojected per run: the conversion reads it on one thread too.)
        guard jobs >= 2, options.selection.limit == nil, options.selection.boundingBoxCRS == nil else { return false }
        let reader = try ByteReader(input)
        let format = try inputFormat(for: input, reader: reader, options: options)
        guard let makeRunReader = format.reading?.runs else { return false }
        let readerOptions = format.readerOptions(options, for: input)
        let selection = try selectionTransforms(options)
        let sourceCRS = options.sourceCRS
        let runs = ClassValueRuns(
            jobs: jobs, inputName: input.displayName, size: max(16, readerOptions.chunkBytes / 4),
            field: making.field, makeTransforms: { selection() + [GeographicRangeCheck(sourceCRS: sourceCRS)] })
        do throws(GeoConvError) {
            var runReader = try makeRunReader(reader, readerOptions, DiagnosticLog())
            return try runs.read(&runReader, into: &making)
        } catch {
            throw FeatureLoading.located(error, in: input.displayName)
        }
    }
}

/// The values of a property gathered from the features, and the classes made of them.
struct ClassMaking {
    let classification: Classification
    let diagnostics: DiagnosticLog
    /// The property classified, its name resolved once.
    let field: FieldReference
    /// Numbers (at most `sampleSize`: a uniform sample beyond).
    private var numbers: [Double] = []
    private var numbersSeen = 0
    private var minimum = Double.infinity
    private var maximum = -Double.infinity
    /// Distinct values, with how often each was seen and when first.
    private var values: [FeatureClasses.CategoryKey: (count: Int, first: Int)] = [:]
    private var tooManyValues = false
    /// Whether a value was text that is not a number (then the method defaults to categories).
    private var textSeen = false
    private var random = SplitMix64(seed: 0x6765_6f63_6f6e_76)

    static let sampleSize = 1 << 22
    static let maximumCategories = 10_000

    init(_ classification: Classification, diagnostics: DiagnosticLog) {
        self.classification = classification
        self.diagnostics = diagnostics
        field = FieldReference(classification.property)
    }

    mutating func add(_ feature: Feature) { add(FeatureClasses.value(of: field, in: feature)) }

    /// Adds a feature's value of the property (`FeatureClasses.value(of:in:)`).
    mutating func add(_ value: WhereExpression.Value) {
        var number: Double
        switch value {
        case .null: return
        case .number(let n): number = n
        case .string(let text):
            guard case .number(let n)? = WhereExpression.Value.number(from: text) else {
                textSeen = true
                if !tooManyValues { note(.text(text)) }
                return
            }
            number = n
        }
        guard number.isFinite else { return }
        if !tooManyValues { note(.number(number)) }
        minimum = min(minimum, number)
        maximum = max(maximum, number)
        numbersSeen += 1
        if numbers.count < Self.sampleSize {
            numbers.append(number)
        } else {
            let slot = Int(random.next() % UInt64(numbersSeen))
            if slot < Self.sampleSize { numbers[slot] = number }
        }
    }

    private mutating func note(_ key: FeatureClasses.CategoryKey) {
        if let seen = values[key] {
            values[key] = (seen.count + 1, seen.first)
        } else if values.count == Self.maximumCategories {
            tooManyValues = true
            values = [:]
        } else {
            values[key] = (1, values.count)
        }
    }

    /// The classes, by the method asked for or chosen from the values.
    func classes(method asked: Classification.Method? = nil) throws(GeoConvError) -> FeatureClasses {
        let method =
            asked ?? classification.method
            ?? (!classification.breaks.isEmpty ? .breaks : (textSeen || numbersSeen == 0 ? .categories : .quantile))
        switch method {
        case .categories: return try categoryClasses()
        case .breaks: return try numberClasses(method, bounds: classification.breaks)
        case .quantile, .equalInterval:
            guard numbersSeen > 0 else {
                throw GeoConvError(
                    .usage, "--classify \(classification.property): no feature read has a number there",
                    hint: "check the property's name (its case too), or classify its values with method=categories")
            }
            let count = classification.classes ?? (classification.colors.isEmpty ? 5 : classification.colors.count)
            let bounds = method == .quantile ? quantileBounds(count) : intervalBounds(count)
            if bounds.count + 1 < count {
                try diagnostics.warn(
                    PipelineCode.classifyClassesMerged,
                    "--classify \(classification.property): \(bounds.count + 1) classes, not \(count): "
                        + "\(method == .quantile ? "so many features share values" : "every value is the same")",
                    hint: "ask for fewer classes, or give breaks=…")
            }
            if method == .quantile, numbersSeen > numbers.count {
                diagnostics.note(
                    PipelineCode.classifySampled,
                    "--classify \(classification.property): quantiles from a sample of \(numbers.count) of "
                        + "\(numbersSeen) values")
            }
            return try numberClasses(method, bounds: bounds)
        }
    }

    /// The lower bounds of classes 1… holding equal numbers of values: the value `i·n/k`
    /// places into the sorted values, for `i` from 1 (equal bounds, and one at the smallest
    /// value, merged).
    private func quantileBounds(_ count: Int) -> [Double] {
        let sorted = numbers.sorted()
        var bounds: [Double] = []
        for index in 1..<max(count, 1) {
            let bound = sorted[index * sorted.count / count]
            if bound > (bounds.last ?? minimum) { bounds.append(bound) }
        }
        return bounds
    }

    /// The lower bounds of classes 1… of equal width from the smallest value to the largest.
    private func intervalBounds(_ count: Int) -> [Double] {
        guard maximum > minimum else { return [] }
        var bounds: [Double] = []
        for index in 1..<max(count, 1) {
            let bound = minimum + (maximum - minimum) * Double(index) / Double(count)
            if bound > (bounds.last ?? minimum), bound < maximum { bounds.append(bound) }
        }
        return bounds
    }

    private func numberClasses(
        _ method: Classification.Method, bounds: [Double]
    ) throws(GeoConvError) -> FeatureClasses {
        let colors = try palette(bounds.count + 1, kind: .sequential)
        var entries: [ClassLegend.Entry] = []
        for index in 0...bounds.count {
            var lower = index == 0 ? nil : bounds[index - 1]
            var upper = index == bounds.count ? nil : bounds[index]
            if method != .breaks {
                lower = lower ?? minimum
                upper = upper ?? maximum
            }
            let label: String
            switch (lower, upper) {
            case (let lower?, let upper?): label = "\(Self.text(lower)) – \(Self.text(upper))"
            case (nil, let upper?): label = "< \(Self.text(upper))"
            case (let lower?, nil): label = "≥ \(Self.text(lower))"
            case (nil, nil): label = "all"
            }
            entries.append(ClassLegend.Entry(label: label, color: colors[index], lower: lower, upper: upper))
        }
        return FeatureClasses(classification, method: method, bounds: bounds, entries: entries)
    }

    private func categoryClasses() throws(GeoConvError) -> FeatureClasses {
        if values.isEmpty, !tooManyValues {
            throw GeoConvError(
                .usage, "--classify \(classification.property): no feature read has a value there",
                hint: "check the property's name (its case too)")
        }
        if tooManyValues {
            throw GeoConvError(
                .usage,
                "--classify \(classification.property): more than \(Self.maximumCategories) distinct values, "
                    + "too many for categories", hint: "classify numbers with method=quantile or equal-interval")
        }
        let most = classification.ramp.flatMap { ColorBrewer.classCounts(of: $0)?.upperBound } ?? 12
        let count = min(
            values.count, classification.classes ?? (classification.colors.isEmpty ? most : classification.colors.count)
        )
        // The most frequent values (first seen first among equals), in order of value.
        let kept = values.sorted {
            $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.value.first < $1.value.first
        }
        .prefix(count).map(\.key).sorted(by: Self.ascending)
        if values.count > kept.count {
            try diagnostics.warn(
                PipelineCode.classifyClassesMerged,
                "--classify \(classification.property): \(values.count) values, \(kept.count) classes: the "
                    + "\(values.count - kept.count) least frequent values are in none",
                hint: classification.other == nil ? "give other=COLOUR to colour them, or more classes" : nil)
        }
        let colors = try palette(kept.count, kind: .qualitative)
        var categories: [FeatureClasses.CategoryKey: Int] = [:]
        var entries: [ClassLegend.Entry] = []
        for (index, key) in kept.enumerated() {
            categories[key] = index
            switch key {
            case .number(let n):
                entries.append(
                    ClassLegend.Entry(
                        label: Self.text(n), color: colors[index], value: JSONNumber(n).map(JSONValue.number)))
            case .text(let text):
                entries.append(ClassLegend.Entry(label: text, color: colors[index], value: .string(text)))
            }
        }
        return FeatureClasses(classification, method: .categories, categories: categories, entries: entries)
    }

    /// `count` colours: those given, else the ramp's (the default ramp for `kind`).
    private func palette(_ count: Int, kind: ColorBrewer.Kind) throws(GeoConvError) -> [Color] {
        if !classification.colors.isEmpty {
            return (0..<count).map { classification.colors[min($0, classification.colors.count - 1)] }
        }
        let ramp = classification.ramp ?? (kind == .sequential ? "YlOrRd" : (count <= 8 ? "Set2" : "Set3"))
        guard let colors = ColorBrewer.colors(named: ramp, count: count) else {
            let most = ColorBrewer.classCounts(of: ramp)?.upperBound ?? 0
            throw GeoConvError(
                .usage,
                "--classify \(classification.property): \(count) classes, and ramp \(ramp) has \(most) colours "
                    + "at most", hint: "ask for fewer classes, or give colors=…")
        }
        return colors
    }

    /// Numbers before text; numbers ascending, text by its bytes.
    private static func ascending(_ a: FeatureClasses.CategoryKey, _ b: FeatureClasses.CategoryKey) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): x < y
        case (.number, .text): true
        case (.text, .number): false
        case (.text(let x), .text(let y)): Array(x.utf8).lexicographicallyPrecedes(y.utf8)
        }
    }

    /// A number as the legend writes it: its shortest exact form.
    static func text(_ number: Double) -> String {
        JSONNumber(number)?.description ?? "\(number)"
    }
}

/// A small seeded generator (SplitMix64): the quantile sample is the same on every run.
private struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
