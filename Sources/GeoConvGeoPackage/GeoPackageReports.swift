import GeoConvCore
import GeoConvRows

/// What a GeoPackage row loses, under GeoPackage's codes. Styles are written (`OGR_STYLE`,
/// `GeoPackageStyle`) and arrays and objects kept (JSON text columns): neither is reported here.
enum GeoPackageReports: RowReporting {
    static func styleDropped(_ diagnostics: DiagnosticLog) throws(GeoConvError) {}

    static func foreignMembersDropped(_ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GeoPackageCode.foreignMembersDropped,
            "a feature's members beyond its properties have no place in a GeoPackage and are not written")
    }

    static func missingZAsZero(_ diagnostics: DiagnosticLog, at location: SourceLocation?) throws(GeoConvError) {
        try diagnostics.warn(
            GeoPackageCode.missingZAsZero,
            "a geometry mixes positions with and without an altitude: its WKB gives every position one, so "
                + "those without are written at altitude 0",
            at: location, hint: "give every position an altitude, or write 2D with --dim 2")
    }

    static func cellRenamed(_ name: String, to renamed: String, _ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GeoPackageCode.columnRenamed,
            "a feature has two values for the column \"\(name)\": the second is written to \"\(renamed)\"")
    }

    static let reportsNestedValues = false

    static func nestedValue(in column: String, typeName: String, _ diagnostics: DiagnosticLog) {}

    static func mixedTypesAsText(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GeoPackageCode.mixedTypesAsText,
            "the property \"\(column.name)\" holds values of several types (\(column.kinds.summary)): its column "
                + "is TEXT, the numbers, booleans, arrays and objects written as they read",
            at: column.firstLocation, hint: "give the property one type in every feature to keep it typed")
    }

    static func integersAsReals(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) {
        diagnostics.note(
            GeoPackageCode.integersAsReal,
            "the property \"\(column.name)\" holds integers and reals: its column is REAL, as GDAL types it, "
                + "and its integers (12) read back as reals (12.0)",
            at: column.firstLocation)
    }

    static func wideIntegersRounded(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GeoPackageCode.integerAsReal,
            "the property \"\(column.name)\" holds \(column.wideIntegers) integers beyond ±2^53 in a REAL column "
                + "(beside reals, or beyond 64 bits), which rounds them",
            at: column.firstWideInteger, hint: "give the property integers within 64 bits only to keep it INTEGER")
    }
}
