#if GeoPackage
import GeoConvFormatKit

/// `--where` said in SQL, so that SQLite passes over the rows it rules out and only the
/// others are decoded into features.
///
/// The SQL condition is a *superset* of the expression: every row the pipeline's filter keeps
/// meets it, and the pipeline still tests each feature read. The two differ because OGR SQL
/// (geoconv's `--where`, whatever the format) is not SQLite's SQL: strings compare without
/// ASCII case, a number compares with a string by reading the string as a number, booleans
/// are 1 and 0, a non-finite real is null, and `LIKE` heeds case. So each comparison is
/// said only for the values whose storage makes the two agree, and lets the others through:
///
/// - a column and a string: `(typeof(c) IN ('integer', 'real', 'blob') OR +c = 'park'
///   COLLATE NOCASE)` (`+c` has no affinity, so SQLite converts neither side; `NOCASE` folds
///   ASCII, as OGR SQL; a NULL makes the whole NULL, and the row is passed over, as the
///   pipeline would leave it out);
/// - a column and a number: `(typeof(c) IN ('text', 'blob') OR +c > 1000)`; a `BOOLEAN`
///   column compares `c <> 0`, as the reader makes its integers true or false;
/// - `IN` as its comparisons ORed; `LIKE`/`ILIKE` as SQLite's `LIKE` (which ignores ASCII
///   case, a superset of `LIKE`); `IS NULL` with the reals a reader makes null;
/// - `AND` of what can be said (a part that cannot is dropped: the rest is still a
///   superset), `OR` only when both sides can be said, `NOT` only before `IS NULL`.
///
/// A name that is no plain column of the table (a JSON or style column, the fid, the
/// geometry, `name` standing for a title), a field compared with a field, and numbers of
/// 2^52 or more are not said: those rows all pass to the pipeline.
enum GeoPackageWhere {
    /// The condition to put after `WHERE`, `nil` when nothing of `expression` can be said.
    static func condition(_ expression: WhereExpression, columns: [GeoPackageTable.Rows.Column]) -> String? {
        Translation(columns: columns).superset(of: expression.root)
    }

    private struct Translation {
        let columns: [GeoPackageTable.Rows.Column]

        /// A condition every row that meets `node` meets; `nil` for "every row".
        func superset(of node: WhereExpression.Node) -> String? {
            switch node {
            case .and(let a, let b):
                switch (superset(of: a), superset(of: b)) {
                case (let x?, let y?): return "(\(x) AND \(y))"
                case (let x?, nil), (nil, let x?): return x
                case (nil, nil): return nil
                }
            case .or(let a, let b):
                guard let x = superset(of: a), let y = superset(of: b) else { return nil }
                return "(\(x) OR \(y))"
            case .not(.isNull(let operand)):
                // A row whose value the reader makes null (an infinite real) passes: a superset.
                return column(operand).map { "\(GeoPackageSchema.quoted($0.name)) IS NOT NULL" }
            case .not:
                return nil
            case .compare(let a, let comparison, let b):
                if let column = column(a) { return compare(column, comparison, b) }
                if let column = column(b) { return compare(column, comparison.reversed, a) }
                return nil
            case .isNull(let operand):
                guard let column = column(operand) else { return nil }
                let name = GeoPackageSchema.quoted(column.name)
                return "(\(name) IS NULL OR typeof(\(name)) = 'real')"
            case .isIn(let operand, let list):
                guard let column = column(operand) else { return nil }
                var alternatives: [String] = []
                for item in list {
                    if case .null = item { continue }
                    guard let said = compare(column, .equal, item) else { return nil }
                    alternatives.append(said)
                }
                return alternatives.isEmpty ? "0" : "(" + alternatives.joined(separator: " OR ") + ")"
            case .like(let operand, .string(let pattern), _):
                guard let column = column(operand) else { return nil }
                let name = GeoPackageSchema.quoted(column.name)
                let said = GeoPackageSchema.literal(pattern)
                return "(typeof(\(name)) IN ('integer', 'real', 'blob') OR +\(name) LIKE \(said))"
            case .like:
                return nil
            }
        }

        /// The plain column (read as a value or a boolean) `operand` names, as the pipeline
        /// finds a property: the name as written, else in any ASCII case (SQLite's names are
        /// one whatever their case).
        private func column(_ operand: WhereExpression.Operand) -> GeoPackageTable.Rows.Column? {
            guard case .field(let field) = operand else { return nil }
            let found =
                columns.first { $0.name == field.name }
                ?? columns.first {
                    $0.name.utf8.count == field.name.utf8.count
                        && WhereExpression.compareIgnoringCase($0.name, field.name) == 0
                }
            guard let found, found.kind == .value || found.kind == .boolean else { return nil }
            return found
        }

        /// `column comparison literal`, for the rows whose storage makes SQL and OGR SQL agree.
        private func compare(
            _ column: GeoPackageTable.Rows.Column, _ comparison: WhereExpression.Comparison,
            _ literal: WhereExpression.Operand
        ) -> String? {
            let name = GeoPackageSchema.quoted(column.name)
            let symbol = comparison.sqlSymbol
            switch literal {
            case .null:
                return "0"
            case .field:
                return nil
            case .string(let text):
                let said = GeoPackageSchema.literal(text)
                return "(typeof(\(name)) IN ('integer', 'real', 'blob') OR +\(name) \(symbol) \(said) COLLATE NOCASE)"
            case .number(let number):
                guard let said = Self.sqlNumber(number) else { return nil }
                if column.kind == .boolean {
                    return "(typeof(\(name)) IN ('real', 'text', 'blob') OR (+\(name) <> 0) \(symbol) \(said))"
                }
                return "(typeof(\(name)) IN ('text', 'blob') OR +\(name) \(symbol) \(said))"
            }
        }

        /// A number as an SQL literal, where SQLite's integer-to-real comparison and the
        /// pipeline's (both as doubles) cannot differ: below 2^52 in magnitude.
        static func sqlNumber(_ number: Double) -> String? {
            guard number.isFinite, number.magnitude < 4_503_599_627_370_496 else { return nil }
            if number == number.rounded() { return String(Int64(number)) }
            return "\(number)"
        }
    }
}

extension WhereExpression.Comparison {
    /// The comparison with its operands swapped (`5 < a` is `a > 5`).
    fileprivate var reversed: Self {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }

    /// SQLite's spelling.
    fileprivate var sqlSymbol: String {
        switch self {
        case .equal: "="
        case .notEqual: "<>"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }
}
#endif
