package import GeoConvCore
import GeoConvBytes
package import GeoConvFormatKit
import GeoConvGeometryEncoding

/// What a format with typed columns says when a feature's row loses something: each format
/// words its messages under its own codes (`GeoParquetReports`, `FlatGeobufReports`).
package protocol RowReporting {
    /// The feature has a style, which the format has no place for.
    static func styleDropped(_ diagnostics: DiagnosticLog) throws(GeoConvError)
    /// The feature has members beyond its properties.
    static func foreignMembersDropped(_ diagnostics: DiagnosticLog) throws(GeoConvError)
    /// A geometry mixes positions with and without an altitude: those without get 0. At
    /// `location`, `nil` for the feature being written.
    static func missingZAsZero(_ diagnostics: DiagnosticLog, at location: SourceLocation?) throws(GeoConvError)
    /// A feature has two values for the column `name`: the second goes to `renamed`.
    static func cellRenamed(_ name: String, to renamed: String, _ diagnostics: DiagnosticLog) throws(GeoConvError)
    /// The property `column` holds an array or an object (`typeName`).
    static func nestedValue(in column: String, typeName: String, _ diagnostics: DiagnosticLog) throws(GeoConvError)
    /// Whether `nestedValue` reports anything (a format that keeps such values says nothing).
    static var reportsNestedValues: Bool { get }
    /// The column holds values of several kinds and is written as text.
    static func mixedTypesAsText(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) throws(GeoConvError)
    /// The column holds integers and reals and is written as reals (a note).
    static func integersAsReals(_ column: PropertyColumn, _ diagnostics: DiagnosticLog)
    /// The column, written as reals, holds integers beyond ±2^53, which lose digits.
    static func wideIntegersRounded(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) throws(GeoConvError)
}

extension SpooledRows {
    /// Reports what a column's type changes, once every row is made: several kinds written
    /// as text, integers beside reals written as reals, wide integers rounded in reals.
    package static func reportType(
        of column: PropertyColumn, in reporting: any RowReporting.Type, _ diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        if column.kinds.mixesIntoText { try reporting.mixedTypesAsText(column, diagnostics) }
        guard column.kinds.columnType == .double else { return }
        if column.kinds.contains(.integer), column.kinds.contains(.real) {
            reporting.integersAsReals(column, diagnostics)
        }
        if column.wideIntegers > 0 { try reporting.wideIntegersRounded(column, diagnostics) }
    }
}

/// Features made into spooled rows (`SpooledRow`), and what the property columns held: the
/// part of writing that needs nothing but the rows before it. The document's writer has
/// one; so has each records writer on another thread (GeoParquet's), whose columns the
/// document's writer maps onto its own when it adds the records. `reporting` words what is lost
/// (a metatype, not a generic parameter: the rows' code is not specialized across modules,
/// and its messages are rare).
package struct SpooledRows {
    /// The format's words for what a row loses.
    let reporting: any RowReporting.Type
    /// The property columns, in the order met.
    package var columns: [PropertyColumn] = []
    private var slots: [String: Int] = [:]
    /// The bounding box of every geometry: west, south, east, north.
    package var bounds: (Double, Double, Double, Double)?
    /// The rows made.
    package var rowCount = 0
    /// The geometry kinds met (with Z or not), in the order met.
    package var kindsMet: [(GeometryKind, Bool)] = []
    /// The columns that had their first value, and their first integer beyond ±2^53, in the
    /// last row: for the owner to place (`PropertyColumn.firstLocation`).
    package var firstValues: [Int] = []
    package var firstWideIntegers: [Int] = []
    private var row: [UInt8] = []
    private var wkb: [UInt8] = []
    /// The row's cells, made as they are met (their count goes before them), and how many.
    private var cells: [UInt8] = []
    private var cellCount = 0
    /// The names the row before had, in its order, and their columns.
    private var recentNames: [String] = []
    private var recentSlots: [Int] = []
    /// The row each column last had a value in (a second value in one row is renamed).
    private var lastRow: [Int] = []
    /// Whether rows are made at all: `false` when their bytes would go nowhere (`geoconv
    /// info` learning what would be lost), when only what the columns held is learned and
    /// what is lost reported.
    package var makesRows = true
    /// Whether each column's text is checked for dates and date-times (`PropertyColumn.textForm`),
    /// for a format with date columns.
    package var tracksTextForms = false
    /// How often the columns changed (a column made, a first value, a wide integer, a text
    /// form; a kind, counted only when no row is made) or a geometry kind was met: what
    /// `lossKey(shape:changes:state:)` keys on, writing into nowhere.
    package private(set) var changes = 0

    /// Rows that report in `reporting`'s words.
    package init(reporting: any RowReporting.Type) { self.reporting = reporting }

    /// Rows whose columns start as `names`, none with a value yet: a records writer's, so
    /// that its columns are the document's for the names the document has met.
    package init(reporting: any RowReporting.Type, columnNames names: [String]) {
        self.reporting = reporting
        for name in names { _ = column(named: name) }
    }

    /// The slot of the column `name`, made when new.
    package mutating func column(named name: String) -> Int {
        if let slot = slots[name] { return slot }
        let slot = columns.count
        slots[name] = slot
        columns.append(PropertyColumn(name: name))
        lastRow.append(-1)
        changes += 1
        return slot
    }

    /// For a writer into nowhere (`LossKeyedWriter.lossKey(of:shape:)`): a key for adding
    /// `feature`'s row. A feature whose cells follow from its shape (no id, whose number
    /// would decide its column's kind; a title and a snippet only where a property carries
    /// them; no number known by its literal alone, which may be a wide integer) adds to
    /// the columns what its shape says: a row of the same shape added while the columns did
    /// not change reports the same and changes nothing. Circles (refused) and numbers that
    /// are not finite are added.
    /// (Static, given `changes`: called per feature on rows held in a class, which a method
    /// would copy.)
    package static func lossKey(shape: FeatureShape, changes: Int, state: UInt64 = 0) -> LossKey? {
        let facts = shape.facts
        guard facts.contains(.isAllFinite),
            facts.isDisjoint(with: [.containsCircle, .hasID, .hasOtherNumber]),
            !facts.contains(.hasTitle) || facts.contains(.titleCarried),
            !facts.contains(.hasSnippet) || facts.contains(.snippetCarried)
        else { return nil }
        return shape.key(state: UInt64(truncatingIfNeeded: changes) << 4 | state)
    }

    /// Calls `body` with each cell of `feature`'s row, in order: `id`, the title as `name` and
    /// the snippet as `description` when no property carries them (`TitleProperties`: a `NAME`
    /// column read as the title is written back as `NAME`, in its place), then the properties;
    /// `isModel` for the first three.
    package static func forEachCell(
        of feature: Feature, _ body: (_ name: String, _ value: JSONValue, _ isModel: Bool) throws(GeoConvError) -> Void
    )
        throws(GeoConvError)
    {
        if let id = feature.id {
            switch id {
            case .string(let s): try body("id", .string(s), true)
            case .number(let n): try body("id", .number(n), true)
            }
        }
        if let title = feature.title, !TitleProperties.isCarried(.title, in: feature) {
            try body("name", .string(title), true)
        }
        if let snippet = feature.snippet, !TitleProperties.isCarried(.snippet, in: feature) {
            try body("description", .string(snippet), true)
        }
        for (key, value) in feature.properties { try body(key, value, false) }
    }

    /// Whether making `feature`'s row would report something or fail: a style or members
    /// that are dropped, a non-finite number, a nested value written as JSON text, a
    /// property with a model column's name (renamed) — the features a records writer leaves
    /// to the document's writer, so that every message is made there, in order.
    /// (Static, with the format's `reporting`: called per feature on rows held in a class, which
    /// a method would copy.)
    package static func reports(_ feature: Feature, in reporting: any RowReporting.Type) -> Bool {
        guard feature.style.isEmpty, feature.foreignMembers.isEmpty, feature.isAllFinite,
            feature.geometry?.mixesAltitudes != true
        else { return true }
        var reports = false
        let hasID = feature.id != nil
        let hasTitle = feature.title != nil && !TitleProperties.isCarried(.title, in: feature)
        let hasSnippet = feature.snippet != nil && !TitleProperties.isCarried(.snippet, in: feature)
        do throws(GeoConvError) {
            try Self.forEachCell(of: feature) { name, value, isModel in
                switch value {
                case .array, .object: if reporting.reportsNestedValues { reports = true }
                default: break
                }
                if !isModel,
                    (hasID && name == "id") || (hasTitle && name == "name") || (hasSnippet && name == "description")
                {
                    reports = true
                }
            }
        } catch {
            return true
        }
        return reports
    }

    /// Appends `feature`'s row, framed (`varint(length)` then the row), to `out`; what is
    /// lost is reported to `diagnostics`.
    package mutating func append(
        _ feature: Feature, to out: inout [UInt8], diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        if !feature.style.isEmpty { try reporting.styleDropped(diagnostics) }
        if !feature.foreignMembers.isEmpty { try reporting.foreignMembersDropped(diagnostics) }
        row.removeAll(keepingCapacity: true)
        firstValues.removeAll(keepingCapacity: true)
        firstWideIntegers.removeAll(keepingCapacity: true)
        if let geometry = feature.geometry {
            if geometry.mixesAltitudes { try reporting.missingZAsZero(diagnostics, at: nil) }
            if !makesRows, !geometry.containsCircle {
                // Counting: the bounds and the WKB (which refuses only a circle) are not needed.
                noteType(of: geometry)
                try addCells(of: feature, diagnostics: diagnostics)
                rowCount += 1
                return
            }
            wkb.removeAll(keepingCapacity: true)
            try WKB.append(geometry, to: &wkb)  // (first: nothing is changed when it throws)
            SpooledRow.appendVarint(UInt64(wkb.count + 1), to: &row)
            row.append(contentsOf: wkb)
            noteType(of: geometry)
            var box: (Double, Double, Double, Double)?
            if case .point(let c) = geometry {
                box = (c.longitude, c.latitude, c.longitude, c.latitude)  // (the common case, without a closure)
            } else {
                geometry.forEachCoordinate { c in
                    if let b = box {
                        box = (min(b.0, c.longitude), min(b.1, c.latitude), max(b.2, c.longitude), max(b.3, c.latitude))
                    } else {
                        box = (c.longitude, c.latitude, c.longitude, c.latitude)
                    }
                }
            }
            if let box {
                row.append(1)
                SpooledRow.appendBox(box, to: &row)
                widen(box)
            } else {
                row.append(0)
            }
        } else {
            row.append(contentsOf: [0, 0])  // no WKB, no bounding box
        }
        try addCells(of: feature, diagnostics: diagnostics)
        SpooledRow.appendVarint(UInt64(cellCount), to: &row)
        row.append(contentsOf: cells)
        SpooledRow.appendVarint(UInt64(row.count), to: &out)
        out.append(contentsOf: row)
        rowCount += 1
    }

    /// Adds the cells of `feature`'s row, counted as a row of its own.
    private mutating func addCells(of feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) {
        cells.removeAll(keepingCapacity: true)
        cellCount = 0
        try Self.forEachCell(of: feature) { name, value, _ throws(GeoConvError) in
            try add(name, value, diagnostics: diagnostics)
        }
    }

    /// Widens `bounds` to hold `box`.
    package mutating func widen(_ box: (Double, Double, Double, Double)) {
        bounds = bounds.map { (min($0.0, box.0), min($0.1, box.1), max($0.2, box.2), max($0.3, box.3)) } ?? box
    }

    /// Notes a geometry kind met (with Z or not).
    package mutating func noteKind(_ kind: GeometryKind, hasAltitude z: Bool) {
        if let last = kindsMet.last, last.0 == kind, last.1 == z { return }
        guard !kindsMet.contains(where: { $0.0 == kind && $0.1 == z }) else { return }
        kindsMet.append((kind, z))
        changes += 1
    }

    /// Adds a cell, to the column of its name; a name a column of this row already has (a
    /// property `name` beside a title) goes to `name_2`, reported.
    private mutating func add(_ name: String, _ value: JSONValue, diagnostics: DiagnosticLog) throws(GeoConvError) {
        // Rows mostly repeat the one before's names in its order: its slots are tried first.
        let position = cellCount
        var slot: Int
        if position < recentNames.count, recentNames[position] == name {
            slot = recentSlots[position]
        } else {
            slot = column(named: name)
            if position < recentNames.count {
                recentNames[position] = name
                recentSlots[position] = slot
            } else {
                recentNames.append(name)
                recentSlots.append(slot)
            }
        }
        if lastRow[slot] == rowCount {
            var n = 2
            while lastRow[column(named: "\(name)_\(n)")] == rowCount { n += 1 }
            slot = column(named: "\(name)_\(n)")
            try reporting.cellRenamed(name, to: "\(name)_\(n)", diagnostics)
        }
        lastRow[slot] = rowCount
        cellCount += 1
        try append(slot, value, diagnostics: diagnostics)
    }

    private mutating func noteWideInteger(_ slot: Int) {
        if columns[slot].wideIntegers == 0 { firstWideIntegers.append(slot) }
        columns[slot].wideIntegers += 1
        changes += 1
    }

    /// Appends a cell: its column and its value, tagged (`SpooledValue`).
    private mutating func append(_ slot: Int, _ value: JSONValue, diagnostics: DiagnosticLog) throws(GeoConvError) {
        SpooledRow.appendVarint(UInt64(slot), to: &cells)
        if !columns[slot].hasValue, value != .null {
            columns[slot].hasValue = true
            firstValues.append(slot)
            changes += 1
        }
        let kinds = columns[slot].kinds
        defer { if !makesRows, columns[slot].kinds != kinds { changes += 1 } }
        switch value {
        case .null: cells.append(SpooledValue.tagNull)
        case .bool(let flag):
            columns[slot].kinds.insert(.bool)
            cells.append(flag ? SpooledValue.tagTrue : SpooledValue.tagFalse)
        case .number(let number):
            switch NumberKind.value(number) {
            case .integer(let n):
                columns[slot].kinds.formUnion(ColumnKinds.of(n))
                if n.magnitude > 1 << 53 { noteWideInteger(slot) }
                cells.append(SpooledValue.tagInteger)
                ByteEncoding.appendZigzag(n, to: &cells)
            default:
                if !number.literal.utf8.contains(where: {
                    $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
                }) {
                    // An integer beyond Int64: exact in a UINT64 or text column, rounded in a DOUBLE one (reported).
                    columns[slot].kinds.insert(UInt64(number.literal) != nil ? .bigUnsigned : .real)
                    noteWideInteger(slot)
                    cells.append(SpooledValue.tagBigInteger)
                    SpooledRow.appendVarint(UInt64(number.literal.utf8.count), to: &cells)
                    cells.append(contentsOf: number.literal.utf8)
                } else {
                    columns[slot].kinds.insert(.real)
                    cells.append(SpooledValue.tagReal)
                    SpooledRow.appendDouble(number.doubleValue, to: &cells)
                }
            }
        case .string(let text):
            columns[slot].kinds.insert(.string)
            if tracksTextForms {
                let form = columns[slot].textForm
                columns[slot].noteForm(of: text)
                if columns[slot].textForm != form { changes += 1 }
            }
            cells.append(SpooledValue.tagText)
            SpooledRow.appendVarint(UInt64(text.utf8.count), to: &cells)
            cells.append(utf8Of: text)
        case .array, .object:
            try reporting.nestedValue(in: columns[slot].name, typeName: value.typeName, diagnostics)
            columns[slot].kinds.insert(.nested)
            var text: [UInt8] = []
            JSONText.append(value, to: &text)
            cells.append(SpooledValue.tagJSON)
            SpooledRow.appendVarint(UInt64(text.count), to: &cells)
            cells.append(contentsOf: text)
        }
    }

    private mutating func noteType(of geometry: Geometry) {
        var kind: GeometryKind
        switch geometry {
        case .empty(let k): kind = k
        default: kind = geometry.kind
        }
        if kind == .circle { kind = .polygon }
        noteKind(kind, hasAltitude: geometry.hasAltitude)
    }

    /// Geometry types met, in the order met (`Point`, `Polygon Z`…).
    package var geometryTypes: [String] { kindsMet.map { $0.1 ? $0.0.rawValue + " Z" : $0.0.rawValue } }
}
