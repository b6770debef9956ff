import GeoConvCore

/// The FlatGeobuf reader's and writer's diagnostic codes: each spelled once, here, and listed
/// with its meaning in `docs/errors.md` (checked against these in both directions).
package enum FlatGeobufCode: String, DiagnosticCodes {
    case columnRenamed = "flatgeobuf.column-renamed"
    case crsUnknown = "flatgeobuf.crs-unknown"
    case emptyAsNull = "flatgeobuf.empty-as-null"
    case emptyMemberDropped = "flatgeobuf.empty-member-dropped"
    case foreignMembersDropped = "flatgeobuf.foreign-members-dropped"
    case indexUsed = "flatgeobuf.index-used"
    case integerAsDouble = "flatgeobuf.integer-as-double"
    case integersAsDouble = "flatgeobuf.integers-as-double"
    case measuresDropped = "flatgeobuf.measures-dropped"
    case missingZAsZero = "flatgeobuf.missing-z-as-zero"
    case mixedTypesAsText = "flatgeobuf.mixed-types-as-text"
    case styleDropped = "flatgeobuf.style-dropped"
    case surfaceAsMultiPolygon = "flatgeobuf.surface-as-multipolygon"
}
