import GeoConvCore

/// The encoded-polyline reader's and writer's diagnostic codes: each spelled once, here, and
/// listed with its meaning in `docs/errors.md` (checked against these in both directions).
package enum PolylineCode: String, DiagnosticCodes {
    case altitudeDropped = "polyline.altitude-dropped"
    case circleDropped = "polyline.circle-dropped"
    case collectionFlattened = "polyline.collection-flattened"
    case coordinatesRounded = "polyline.coordinates-rounded"
    case emptyGeometryDropped = "polyline.empty-geometry-dropped"
    case foreignMembersDropped = "polyline.foreign-members-dropped"
    case idDropped = "polyline.id-dropped"
    case infoDropped = "polyline.info-dropped"
    case invalidLineSkipped = "polyline.invalid-line-skipped"
    case onePointLine = "polyline.one-point-line"
    case outOfRange = "polyline.out-of-range"
    case propertiesDropped = "polyline.properties-dropped"
    case singlePartMulti = "polyline.single-part-multi"
    case styleDropped = "polyline.style-dropped"
}
