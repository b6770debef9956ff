import GeoConvCore
import GeoConvRows

/// What a FlatGeobuf feature loses, under FlatGeobuf's codes. Arrays and objects lose
/// nothing: a column of them is a `Json` column.
enum FlatGeobufReports: RowReporting {
    static func styleDropped(_ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            FlatGeobufCode.styleDropped, "styles have no place in FlatGeobuf and are not written",
            hint: "write GeoJSON or KML to keep them")
    }

    static func foreignMembersDropped(_ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            FlatGeobufCode.foreignMembersDropped,
            "a feature's members beyond its properties have no place in FlatGeobuf and are not written")
    }

    static func missingZAsZero(_ diagnostics: DiagnosticLog, at location: SourceLocation?) throws(GeoConvError) {
        try diagnostics.warn(
            FlatGeobufCode.missingZAsZero,
            "positions with and without an altitude are mixed: a FlatGeobuf file gives every position one, "
                + "so those without are written at altitude 0",
            at: location, hint: "give every position an altitude, or write 2D with --dim 2")
    }

    static func cellRenamed(_ name: String, to renamed: String, _ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            FlatGeobufCode.columnRenamed,
            "a feature has two values for the column \"\(name)\": the second is written to \"\(renamed)\"")
    }

    static let reportsNestedValues = false

    static func nestedValue(in column: String, typeName: String, _ diagnostics: DiagnosticLog) {}

    static func mixedTypesAsText(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            FlatGeobufCode.mixedTypesAsText,
            "the property \"\(column.name)\" holds values of several types (\(column.kinds.summary)): its column "
                + "is String, the numbers, booleans, arrays and objects written as they read",
            at: column.firstLocation, hint: "give the property one type in every feature to keep it typed")
    }

    static func integersAsReals(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) {
        diagnostics.note(
            FlatGeobufCode.integersAsDouble,
            "the property \"\(column.name)\" holds integers and reals: its column is Double, as "
                + "GDAL types it, and its integers (12) read back as reals (12.0) in other tools",
            at: column.firstLocation)
    }

    static func wideIntegersRounded(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            FlatGeobufCode.integerAsDouble,
            "the property \"\(column.name)\" holds \(column.wideIntegers) integers beyond ±2^53 in a Double column "
                + "(beside reals, or beyond 64 bits), which rounds them",
            at: column.firstWideInteger, hint: "give the property integers within 64 bits only to keep it Long")
    }
}
