import GeoConvCore
import GeoConvRows

/// What a GeoParquet row loses, under GeoParquet's codes.
enum GeoParquetReports: RowReporting {
    static func styleDropped(_ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GeoParquetCode.styleDropped, "styles have no place in GeoParquet and are not written",
            hint: "write GeoJSON or KML to keep them")
    }

    static func foreignMembersDropped(_ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GeoParquetCode.foreignMembersDropped,
            "a feature's members beyond its properties have no place in GeoParquet and are not written")
    }

    static func missingZAsZero(_ diagnostics: DiagnosticLog, at location: SourceLocation?) throws(GeoConvError) {
        try diagnostics.warn(
            GeoParquetCode.missingZAsZero,
            "a geometry mixes positions with and without an altitude: WKB gives every position one, "
                + "so those without are written at altitude 0",
            at: location, hint: "give every position an altitude, or write 2D with --dim 2")
    }

    static func cellRenamed(_ name: String, to renamed: String, _ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GeoParquetCode.columnRenamed,
            "a feature has two values for the column \"\(name)\": the second is written to \"\(renamed)\"")
    }

    static let reportsNestedValues = true

    static func nestedValue(in column: String, typeName: String, _ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GeoParquetCode.nestedValueAsJSON,
            "the property \"\(column)\" holds an \(typeName): it is written as JSON text",
            hint: "GeoParquet columns here are flat; read the text back with a JSON parser")
    }

    static func mixedTypesAsText(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GeoParquetCode.mixedTypesAsText,
            "the property \"\(column.name)\" holds values of several types (\(column.kinds.summary)): its column "
                + "is text, the numbers and booleans written as they read",
            at: column.firstLocation, hint: "give the property one type in every feature to keep it typed")
    }

    static func integersAsReals(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) {
        // GDAL's AUTODETECT_TYPE types such a column Real; other readers print 12 as 12.0.
        diagnostics.note(
            GeoParquetCode.integersAsDouble,
            "the property \"\(column.name)\" holds integers and reals: its column is DOUBLE, as "
                + "GDAL types it, and its integers (12) read back as reals (12.0) in other tools",
            at: column.firstLocation)
    }

    static func wideIntegersRounded(_ column: PropertyColumn, _ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GeoParquetCode.integerAsDouble,
            "the property \"\(column.name)\" holds \(column.wideIntegers) integers beyond ±2^53 in a DOUBLE column "
                + "(beside reals, or beyond 64 bits), which rounds them",
            at: column.firstWideInteger, hint: "give the property integers within 64 bits only to keep it INT64")
    }
}
