import GeoConvCore
import GeoConvFormatKit

/// `--where` expressions and style rules' selectors made into one flat program, evaluated
/// feature by feature: each property the selectors name is read from a feature once, however
/// many selectors compare it (three rules on `id` look `id` up once, not four times), and
/// the steps are indices into arrays, not a tree of boxes counted as it is walked. Selectors
/// comparing one property with numbers are answered by region of the number line
/// (`NumberRegions`), each region's answers found once.
struct WhereProgram {
    /// One step of a selector; its operands are indices into `operands`, its parts into `steps`.
    private enum Step {
        case and(Int, Int)
        case or(Int, Int)
        case not(Int)
        case compare(Int, WhereExpression.Comparison, Int)
        /// A property compared with a number written in the selector (`id < 300000`), the
        /// common case, with the property's number read in place and no operand looked up:
        /// `flipped` when the number is on the left (`300000 > id`).
        case compareNumber(field: Int, WhereExpression.Comparison, Double, flipped: Bool)
        case isNull(Int)
        case isIn(Int, Range<Int>)
        case like(Int, pattern: Int, ignoringCase: Bool)
    }

    /// An operand: a property (its slot in `fields`) or a value written in the selector.
    private enum Operand {
        case field(Int)
        case constant(WhereExpression.Value)
    }

    private var steps: [Step] = []
    private var operands: [Operand] = []
    /// The operands of `IN` lists, each list a range of this.
    private var lists: [Int] = []
    /// The properties named, each once.
    private var fields: [FieldReference] = []
    /// Each selector's first step; `nil` for one that matches every feature (`*`).
    private var roots: [Int?] = []
    /// The values read, by field slot: the feature at hand's where `readGeneration` holds this
    /// feature's `generation` (counted, not reset, from feature to feature).
    private var values: [WhereExpression.Value] = []
    /// The values read of the fields compared with a number written in a selector, as that
    /// number (NaN for a null, or text that is no number: it compares as nothing), so that
    /// each comparison reads a `Double` and no value is copied.
    private var numbers: [Double] = []
    /// Whether a selector compares the field in the slot with a number it writes.
    private var comparedWithNumber: [Bool] = []
    private var readGeneration: [UInt32] = []
    private var generation: UInt32 = 0
    /// For each field, where the last feature had it among its properties: features mostly
    /// repeat the one before's keys in its order, so the key there is tried before hashing.
    private var hints: [Int] = []
    /// When every selector compares one property with numbers written in it (`id < 300000`,
    /// `pop >= 1000 AND pop < 5000`: rules graduated by hand), the selectors' answers are the
    /// same for every number between two of those numbers: the answers found for each such
    /// region, kept.
    private var regions = NumberRegions()

    /// The program of `selectors`, in order (`nil`: every feature matches).
    init(_ selectors: [WhereExpression?]) {
        for selector in selectors { roots.append(selector.map { add($0.root) }) }
        values = Array(repeating: .null, count: fields.count)
        numbers = Array(repeating: .nan, count: fields.count)
        comparedWithNumber = Array(repeating: false, count: fields.count)
        for step in steps {
            if case .compareNumber(let slot, _, _, _) = step { comparedWithNumber[slot] = true }
        }
        readGeneration = Array(repeating: 0, count: fields.count)
        hints = Array(repeating: 0, count: fields.count)
        regions = numberRegions()
    }

    /// The regions of a program of at most 63 selectors, at least one not `*`, whose steps are
    /// comparisons of one property with numbers joined by `AND`, `OR` and `NOT`; else none.
    private func numberRegions() -> NumberRegions {
        guard roots.count < 64, roots.contains(where: { $0 != nil }) else { return NumberRegions() }
        var field: Int?
        var cuts: [Double] = []
        for step in steps {
            switch step {
            case .and, .or, .not: continue
            case .compareNumber(let slot, _, let number, _) where field == nil || field == slot:
                guard !number.isNaN else { return NumberRegions() }
                field = slot
                cuts.append(number)
            default: return NumberRegions()
            }
        }
        return field.map { NumberRegions(field: $0, cuts: cuts) } ?? NumberRegions()
    }

    /// The number of selectors.
    var count: Int { roots.count }

    /// Whether `mask(_:)` answers by region of one property's numbers (`NumberRegions`).
    var answersByRegion: Bool { regions.field >= 0 }

    /// Evaluates every selector on `feature`: `matched[i]` says whether selector `i` matches.
    mutating func evaluate(_ feature: Feature, into matched: inout [Bool]) {
        nextFeature()
        if matched.count != roots.count { matched = Array(repeating: false, count: roots.count) }
        for index in roots.indices {
            if let root = roots[index] {
                matched[index] = evaluate(step: root, feature)
            } else {
                matched[index] = true
            }
        }
    }

    /// The selectors `feature` matches as bits (bit `i`: selector `i`), for a program of at
    /// most 64 selectors: no array is written per feature, and where the program answers by
    /// region, a region's answers are evaluated for its first feature only.
    mutating func mask(_ feature: Feature) -> UInt64 {
        nextFeature()
        var region = -1
        if regions.field >= 0 {
            let x = number(regions.field, feature)
            region = regions.region(of: x)
            let known = regions.masks[region]
            if known & NumberRegions.known != 0 { return known & ~NumberRegions.known }
        }
        var mask: UInt64 = 0
        for index in roots.indices where index < 64 {
            if let root = roots[index], !evaluate(step: root, feature) { continue }
            mask |= 1 << UInt64(index)
        }
        if region >= 0 { regions.masks[region] = mask | NumberRegions.known }
        return mask
    }

    /// Whether `feature` matches the first selector (a program of one: `--where`).
    mutating func matches(_ feature: Feature) -> Bool {
        nextFeature()
        guard let root = roots.first else { return true }
        return root.map { evaluate(step: $0, feature) } ?? true
    }

    /// Forgets the values read from the feature before.
    private mutating func nextFeature() {
        generation &+= 1
        if generation == 0 {
            // (Once in 2^32 features: no slot may look read in the generation starting again.)
            for slot in readGeneration.indices { readGeneration[slot] = 0 }
            generation = 1
        }
    }

    // MARK: Making

    private mutating func add(_ node: WhereExpression.Node) -> Int {
        let step: Step
        switch node {
        case .and(let a, let b): step = .and(add(a), add(b))
        case .or(let a, let b): step = .or(add(a), add(b))
        case .not(let a): step = .not(add(a))
        case .compare(.field(let field), let comparison, .number(let n)):
            step = .compareNumber(field: slot(of: field), comparison, n, flipped: false)
        case .compare(.number(let n), let comparison, .field(let field)):
            step = .compareNumber(field: slot(of: field), comparison, n, flipped: true)
        case .compare(let a, let comparison, let b): step = .compare(add(a), comparison, add(b))
        case .isNull(let a): step = .isNull(add(a))
        case .isIn(let a, let list):
            let left = add(a)
            let items = list.map { add($0) }
            let start = lists.count
            lists += items
            step = .isIn(left, start..<lists.count)
        case .like(let a, let pattern, let ignoringCase):
            step = .like(add(a), pattern: add(pattern), ignoringCase: ignoringCase)
        }
        steps.append(step)
        return steps.count - 1
    }

    private mutating func add(_ operand: WhereExpression.Operand) -> Int {
        switch operand {
        case .field(let field): operands.append(.field(slot(of: field)))
        case .string(let s): operands.append(.constant(.string(s)))
        case .number(let n): operands.append(.constant(.number(n)))
        case .null: operands.append(.constant(.null))
        }
        return operands.count - 1
    }

    /// The slot of `field` in `fields`, added when new.
    private mutating func slot(of field: FieldReference) -> Int {
        // (Names as typed, byte for byte: two spellings String calls equal, NFC and NFD,
        // may find different properties by the case-folded comparison.)
        if let slot = fields.firstIndex(where: {
            $0.modelField == field.modelField && $0.name.utf8.elementsEqual(field.name.utf8)
        }) {
            return slot
        }
        fields.append(field)
        return fields.count - 1
    }

    // MARK: Evaluating

    private mutating func evaluate(step index: Int, _ feature: Feature) -> Bool {
        switch steps[index] {
        case .and(let a, let b): return evaluate(step: a, feature) && evaluate(step: b, feature)
        case .or(let a, let b): return evaluate(step: a, feature) || evaluate(step: b, feature)
        case .not(let a): return !evaluate(step: a, feature)
        case .compare(let a, let comparison, let b):
            let order = WhereExpression.compare(value(a, feature), value(b, feature))
            return order.map { comparison.holds(for: $0) } ?? false
        case .compareNumber(let slot, let comparison, let number, let flipped):
            // As `WhereExpression.compare` with a number: text read as a number, null none
            // (NaN in `numbers`: no order).
            readField(slot, feature)
            guard let order = WhereExpression.order(numbers[slot], number) else { return false }
            return comparison.holds(for: flipped ? -order : order)
        case .isNull(let a):
            if case .null = value(a, feature) { return true }
            return false
        case .isIn(let a, let list):
            let left = value(a, feature)
            for item in list where WhereExpression.compare(left, value(lists[item], feature)) == 0 { return true }
            return false
        case .like(let a, let pattern, let ignoringCase):
            guard let text = value(a, feature).text, let pattern = value(pattern, feature).text else { return false }
            return WhereExpression.like(Array(text.utf8)[...], Array(pattern.utf8)[...], ignoringCase: ignoringCase)
        }
    }

    /// The operand's value in `feature`, a property read once per feature.
    private mutating func value(_ index: Int, _ feature: Feature) -> WhereExpression.Value {
        switch operands[index] {
        case .constant(let value): return value
        case .field(let slot):
            readField(slot, feature)
            return values[slot]
        }
    }

    /// Reads field `slot` from `feature` into `values`, once per feature.
    @inline(__always) private mutating func readField(_ slot: Int, _ feature: Feature) {
        guard readGeneration[slot] != generation else { return }
        let value = read(slot, feature)
        if comparedWithNumber[slot] {
            switch value {
            case .number(let n): numbers[slot] = n
            case .string(let text):
                if case .number(let n)? = WhereExpression.Value.number(from: text) {
                    numbers[slot] = n
                } else {
                    numbers[slot] = .nan
                }
            case .null: numbers[slot] = .nan
            }
        }
        values[slot] = value
        readGeneration[slot] = generation
    }

    /// The number field `slot` compares as in `feature` (NaN: none), as `readField` reads it:
    /// a number where the last feature had the field taken at once, with no value made.
    private mutating func number(_ slot: Int, _ feature: Feature) -> Double {
        if let hint = hinted(slot, feature), case .number(let number) = feature.properties.values[hint] {
            return number.doubleValue
        }
        readField(slot, feature)
        return numbers[slot]
    }

    /// The value of field `slot` in `feature` (`WhereExpression.value(of:in:)`), its key
    /// tried first where the last feature had it: the same property the lookup would find,
    /// as keys are unique.
    private mutating func read(_ slot: Int, _ feature: Feature) -> WhereExpression.Value {
        if let hint = hinted(slot, feature) { return WhereExpression.Value(feature.properties.values[hint]) }
        if let index = feature.properties.index(forKey: fields[slot].name) {
            hints[slot] = index
            return WhereExpression.Value(feature.properties.values[index])
        }
        return WhereExpression.value(of: fields[slot], in: feature)
    }

    /// The place field `slot` had among the last feature's properties, when `feature` has the
    /// field there too.
    @inline(__always) private func hinted(_ slot: Int, _ feature: Feature) -> Int? {
        let hint = hints[slot]
        // (The properties are borrowed from the feature's storage, not copied out of it: a copy
        // counts a reference to each of their buffers, per field and feature.)
        guard hint < feature.properties.count, feature.properties.keys[hint] == fields[slot].name else { return nil }
        return hint
    }
}

/// The numbers one property is compared with, when the selectors compare no other: they
/// cut the number line into regions (below the first, equal to it, between it and the
/// next, …, above the last, and NaN — the property missing, null, an array or an object, or
/// text that is no number) in which every comparison, so every selector, answers alike.
private struct NumberRegions {
    /// The property's slot; -1 in a program of other selectors.
    let field: Int
    /// The numbers compared with, in order, each once.
    let cuts: [Double]
    /// The selectors' answers for each region, with `known` set once a feature in it was
    /// evaluated (a program of at most 63 selectors).
    var masks: [UInt64]
    /// The bit of `masks` that says a region's answers were found (no selector's bit).
    static let known: UInt64 = 1 << 63

    /// No regions: the selectors are evaluated feature by feature.
    init() {
        field = -1
        cuts = []
        masks = []
    }

    /// The regions `cuts` make of the numbers of the property in slot `field`.
    init(field: Int, cuts: [Double]) {
        self.field = field
        self.cuts = Array(Set(cuts)).sorted()
        masks = Array(repeating: 0, count: 2 * self.cuts.count + 2)
    }

    /// The region `x` is in: `2i` below cut `i` (and above the one before), `2i + 1` equal
    /// to it, `2n` above the last; `2n + 1` for NaN.
    @inline(__always) func region(of x: Double) -> Int {
        guard !x.isNaN else { return 2 * cuts.count + 1 }
        var low = 0
        var high = cuts.count
        while low < high {
            let middle = (low + high) / 2
            if cuts[middle] < x { low = middle + 1 } else { high = middle }
        }
        return low < cuts.count && cuts[low] == x ? 2 * low + 1 : 2 * low
    }
}
