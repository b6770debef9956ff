import GeoConvCore
import GeoConvFormatKit

/// `--where` expressions and style rules' selectors made into one flat program, evaluated
/// feature by feature: each property the selectors name is read from a feature once, however
/// many selectors compare it (three rules on `id` look `id` up once, not four times), and
/// the steps are indices into arrays, not a tree of boxes counted as it is walked.
struct WhereProgram {
    /// One step of a selector; its operands are indices into `operands`, its parts into `steps`.
    private enum Step {
        case and(Int, Int)
        case or(Int, Int)
        case not(Int)
        case compare(Int, WhereExpression.Comparison, Int)
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
    /// The values read from the feature at hand, by field slot (`nil`: not read yet).
    private var values: [WhereExpression.Value?] = []

    /// The program of `selectors`, in order (`nil`: every feature matches).
    init(_ selectors: [WhereExpression?]) {
        for selector in selectors { roots.append(selector.map { add($0.root) }) }
        values = Array(repeating: nil, count: fields.count)
    }

    /// The number of selectors.
    var count: Int { roots.count }

    /// Evaluates every selector on `feature`: `matched[i]` says whether selector `i` matches.
    mutating func evaluate(_ feature: Feature, into matched: inout [Bool]) {
        for slot in values.indices { values[slot] = nil }
        if matched.count != roots.count { matched = Array(repeating: false, count: roots.count) }
        for index in roots.indices {
            if let root = roots[index] {
                matched[index] = evaluate(step: root, feature)
            } else {
                matched[index] = true
            }
        }
    }

    /// Whether `feature` matches the first selector (a program of one: `--where`).
    mutating func matches(_ feature: Feature) -> Bool {
        for slot in values.indices { values[slot] = nil }
        guard let root = roots.first else { return true }
        return root.map { evaluate(step: $0, feature) } ?? true
    }

    // MARK: Making

    private mutating func add(_ node: WhereExpression.Node) -> Int {
        let step: Step
        switch node {
        case .and(let a, let b): step = .and(add(a), add(b))
        case .or(let a, let b): step = .or(add(a), add(b))
        case .not(let a): step = .not(add(a))
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
        case .field(let field):
            // (Names as typed, byte for byte: two spellings String calls equal, NFC and NFD,
            // may find different properties by the case-folded comparison.)
            let slot =
                fields.firstIndex {
                    $0.modelField == field.modelField && $0.name.utf8.elementsEqual(field.name.utf8)
                }
                ?? {
                    fields.append(field)
                    return fields.count - 1
                }()
            operands.append(.field(slot))
        case .string(let s): operands.append(.constant(.string(s)))
        case .number(let n): operands.append(.constant(.number(n)))
        case .null: operands.append(.constant(.null))
        }
        return operands.count - 1
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
            if let value = values[slot] { return value }
            let value = WhereExpression.value(of: fields[slot], in: feature)
            values[slot] = value
            return value
        }
    }
}
