import GeoConvCore

/// The conversion pipeline's diagnostic codes: coordinate checks, reprojection, selection,
/// clustering, style rules: each spelled once, here, and listed with its meaning in `docs/errors.md`
/// (checked against these in both directions).
package enum PipelineCode: String, DiagnosticCodes {
    case classifyClassesMerged = "classify.classes-merged"
    case classifySampled = "classify.sampled"
    case classifyUnclassified = "classify.unclassified"
    case clusterNonPointsSkipped = "cluster.non-points-skipped"
    case coordinateOutOfRange = "coordinate.out-of-range"
    case geometryEmptyMemberDropped = "geometry.empty-member-dropped"
    case projCRSNotUnderstood = "proj.crs-not-understood"
    case projGridMissing = "proj.grid-missing"
    case projOutsideAreaOfUse = "proj.outside-area-of-use"
    case selectionBbox = "selection.bbox"
    case selectionDim = "selection.dim"
    case selectionSelect = "selection.select"
    case selectionWhere = "selection.where"
    case styleBadValue = "style.bad-value"
    case styleKeyNotDrawn = "style.key-not-drawn"
    case styleNoRuleMatched = "style.no-rule-matched"
    case styleRuleUnused = "style.rule-unused"
}
