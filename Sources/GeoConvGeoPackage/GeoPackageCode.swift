import GeoConvCore

/// The GeoPackage reader's diagnostic codes: each spelled once, here, and listed with its
/// meaning in `docs/errors.md` (checked against these in both directions).
package enum GeoPackageCode: String, DiagnosticCodes {
    case curveLinearised = "geopackage.curve-linearised"
    case measuresDropped = "geopackage.measures-dropped"
    case tablesMerged = "geopackage.tables-merged"
}
