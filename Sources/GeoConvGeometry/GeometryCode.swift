import GeoConvCore

/// The geometry transforms' diagnostic codes (circles, style spans): each spelled once, here,
/// and listed with its meaning in `docs/errors.md` (checked against these in both directions).
package enum GeometryCode: String, DiagnosticCodes {
    case circleApproximated = "circle.approximated"
    case circleDrawnAsPolygon = "circle.drawn-as-polygon"
    case circleRecognized = "circle.recognized"
    case spansExploded = "spans.exploded"
    case spansGradientDiscretised = "spans.gradient-discretised"
    case spansStampDropped = "spans.stamp-dropped"
}
