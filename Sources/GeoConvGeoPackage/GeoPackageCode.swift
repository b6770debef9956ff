import GeoConvCore

/// The GeoPackage reader's and writer's diagnostic codes: each spelled once, here, and listed
/// with its meaning in `docs/errors.md` (checked against these in both directions).
package enum GeoPackageCode: String, DiagnosticCodes {
    case columnRenamed = "geopackage.column-renamed"
    case curveLinearised = "geopackage.curve-linearised"
    case foreignMembersDropped = "geopackage.foreign-members-dropped"
    case idsAsColumn = "geopackage.ids-as-column"
    case indexUsed = "geopackage.index-used"
    case integerAsReal = "geopackage.integer-as-real"
    case integersAsReal = "geopackage.integers-as-real"
    case measuresDropped = "geopackage.measures-dropped"
    case missingZAsZero = "geopackage.missing-z-as-zero"
    case mixedTypesAsText = "geopackage.mixed-types-as-text"
    case stylePartsDropped = "geopackage.style-parts-dropped"
    case tablesMerged = "geopackage.tables-merged"
    case whereInSQL = "geopackage.where-in-sql"
}
