import GeoConvCore

/// The CSV reader's and writer's diagnostic codes: each spelled once, here, and listed with its
/// meaning in `docs/errors.md` (checked against these in both directions).
package enum CSVCode: String, DiagnosticCodes {
    case altitudeNotNumber = "csv.altitude-not-number"
    case columnRenamed = "csv.column-renamed"
    case crLineEnds = "csv.cr-line-ends"
    case curveLinearised = "csv.curve-linearised"
    case decoded = "csv.decoded"
    case duplicateColumnRenamed = "csv.duplicate-column-renamed"
    case emptyPointDropped = "csv.empty-point-dropped"
    case foreignMembersDropped = "csv.foreign-members-dropped"
    case invalidEncoding = "csv.invalid-encoding"
    case invalidRowSkipped = "csv.invalid-row-skipped"
    case invalidUTF8 = "csv.invalid-utf8"
    case longRow = "csv.long-row"
    case mDropped = "csv.m-dropped"
    case missingZAsZero = "csv.missing-z-as-zero"
    case nestedValueAsJSON = "csv.nested-value-as-json"
    case noGeometryColumns = "csv.no-geometry-columns"
    case noHeader = "csv.no-header"
    case partialCoordinates = "csv.partial-coordinates"
    case shortRow = "csv.short-row"
    case sridIgnored = "csv.srid-ignored"
    case styleDropped = "csv.style-dropped"
    case textAfterQuote = "csv.text-after-quote"
    case textReadsAsTyped = "csv.text-reads-as-typed"
    case unclosedRing = "csv.unclosed-ring"
}
