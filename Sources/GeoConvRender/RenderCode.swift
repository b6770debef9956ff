import GeoConvCore

/// The renderer's diagnostic codes: each spelled once, here, and listed with its meaning in
/// `docs/errors.md` (checked against these in both directions).
package enum RenderCode: String, DiagnosticCodes {
    case altitudeFlattened = "render.altitude-flattened"
    case iconMissing = "render.icon-missing"
    case stampNotDrawn = "render.stamp-not-drawn"
    case tiltIgnored = "render.tilt-ignored"
}
