import GeoConvCore

/// The FlatGeobuf reader's diagnostic codes: each spelled once, here, and listed with its
/// meaning in `docs/errors.md` (checked against these in both directions).
package enum FlatGeobufCode: String, DiagnosticCodes {
    case crsUnknown = "flatgeobuf.crs-unknown"
    case indexUsed = "flatgeobuf.index-used"
    case measuresDropped = "flatgeobuf.measures-dropped"
    case surfaceAsMultiPolygon = "flatgeobuf.surface-as-multipolygon"
}
