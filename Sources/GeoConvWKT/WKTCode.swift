import GeoConvCore

/// The WKT and WKB readers' and writers' diagnostic codes: each spelled once, here, and listed
/// with its meaning in `docs/errors.md` (checked against these in both directions).
package enum WKTCode: String, DiagnosticCodes {
    case wkbAttributesDropped = "wkb.attributes-dropped"
    case wkbMissingZAsZero = "wkb.missing-z-as-zero"
    case wkbNullGeometrySkipped = "wkb.null-geometry-skipped"
    case wkbSRIDDropped = "wkb.srid-dropped"
    case wktAttributesDropped = "wkt.attributes-dropped"
    case wktCurveLinearised = "wkt.curve-linearised"
    case wktEmptyPointDropped = "wkt.empty-point-dropped"
    case wktInvalidLineSkipped = "wkt.invalid-line-skipped"
    case wktMDropped = "wkt.m-dropped"
    case wktMissingZAsZero = "wkt.missing-z-as-zero"
    case wktNullGeometrySkipped = "wkt.null-geometry-skipped"
    case wktSRIDDropped = "wkt.srid-dropped"
    case wktUnclosedRing = "wkt.unclosed-ring"
}
