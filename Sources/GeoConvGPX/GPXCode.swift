import GeoConvCore

/// The GPX reader's and writer's diagnostic codes: each spelled once, here, and listed with its
/// meaning in `docs/errors.md` (checked against these in both directions).
package enum GPXCode: String, DiagnosticCodes {
    case coordinatePropertiesAsData = "gpx.coordinate-properties-as-data"
    case emptyEle = "gpx.empty-ele"
    case emptySegmentDropped = "gpx.empty-segment-dropped"
    case extensionNameDropped = "gpx.extension-name-dropped"
    case extensionTextDropped = "gpx.extension-text-dropped"
    case geometryNotWritten = "gpx.geometry-not-written"
    case invalidEle = "gpx.invalid-ele"
    case invalidFeatureSkipped = "gpx.invalid-feature-skipped"
    case invalidPosition = "gpx.invalid-position"
    case lateDocumentElement = "gpx.late-document-element"
    case longitude180 = "gpx.longitude-180"
    case multipointSplit = "gpx.multipoint-split"
    case reordered = "gpx.reordered"
    case segmentElementDropped = "gpx.segment-element-dropped"
    case sensorRenamed = "gpx.sensor-renamed"
    case unknownVersion = "gpx.unknown-version"
}
