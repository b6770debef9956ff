import GeoConvCore

/// The GeoParquet reader's and writer's diagnostic codes: each spelled once, here, and listed
/// with its meaning in `docs/errors.md` (checked against these in both directions).
package enum GeoParquetCode: String, DiagnosticCodes {
    case columnRenamed = "geoparquet.column-renamed"
    case crsUnknown = "geoparquet.crs-unknown"
    case curveLinearised = "geoparquet.curve-linearised"
    case emptyPointDropped = "geoparquet.empty-point-dropped"
    case foreignMembersDropped = "geoparquet.foreign-members-dropped"
    case geographyEdges = "geoparquet.geography-edges"
    case integerAsDouble = "geoparquet.integer-as-double"
    case integersAsDouble = "geoparquet.integers-as-double"
    case invalidGeometrySkipped = "geoparquet.invalid-geometry-skipped"
    case listColumnSkipped = "geoparquet.list-column-skipped"
    case mDropped = "geoparquet.m-dropped"
    case missingZAsZero = "geoparquet.missing-z-as-zero"
    case mixedTypesAsText = "geoparquet.mixed-types-as-text"
    case nestedValueAsJSON = "geoparquet.nested-value-as-json"
    case noGeoMetadata = "geoparquet.no-geo-metadata"
    case noGeometry = "geoparquet.no-geometry"
    case secondaryGeometryAsHex = "geoparquet.secondary-geometry-as-hex"
    case styleDropped = "geoparquet.style-dropped"
}
