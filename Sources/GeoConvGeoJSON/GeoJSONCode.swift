import GeoConvCore

/// The GeoJSON and GeoJSONSeq readers' and writers' diagnostic codes: each spelled once, here,
/// and listed with its meaning in `docs/errors.md` (checked against these in both directions).
package enum GeoJSONCode: String, DiagnosticCodes {
    case antimeridianCut = "geojson.antimeridian-cut"
    case bbox = "geojson.bbox"
    case changedSemantics = "geojson.changed-semantics"
    case circleAsPoint = "geojson.circle-as-point"
    case collectionMemberForeign = "geojson.collection-member-foreign"
    case duplicateMember = "geojson.duplicate-member"
    case extraOrdinates = "geojson.extra-ordinates"
    case featureGeometryMembers = "geojson.feature-geometry-members"
    case geometryMembers = "geojson.geometry-members"
    case invalidFeatureSkipped = "geojson.invalid-feature-skipped"
    case invalidID = "geojson.invalid-id"
    case membersAfterFeatures = "geojson.members-after-features"
    case missingGeometry = "geojson.missing-geometry"
    case missingProperties = "geojson.missing-properties"
    case nestedCircleAsPoint = "geojson.nested-circle-as-point"
    case nestedCollection = "geojson.nested-collection"
    case notRFC7946 = "geojson.not-rfc7946"
    case nullPosition = "geojson.null-position"
    case propertiesNotObject = "geojson.properties-not-object"
    case shortLine = "geojson.short-line"
    case shortRing = "geojson.short-ring"
    case styleValueUnusable = "geojson.style-value-unusable"
    case typeCase = "geojson.type-case"
    case unclosedRing = "geojson.unclosed-ring"
    case winding = "geojson.winding"
    case geojsonseqRecordMembersDropped = "geojsonseq.record-members-dropped"
}
