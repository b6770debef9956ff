/// Reprojects every feature from the document's CRS (or `--s-srs`) to the target CRS
/// (`--t-srs`, else WGS84 longitude/latitude), through PROJ, and reports what PROJ could not
/// do exactly: coordinates outside the source CRS's area of use, and datum grids PROJ lacks.
/// An identity when both sides are WGS84.
public struct Reproject: FeatureTransform {
    /// The source CRS, overriding the document's.
    public var sourceCRS: String?
    /// The target CRS; `nil` for WGS84 longitude/latitude.
    public var targetCRS: String?
    private var reprojection: Reprojection?

    /// Creates the transform.
    public init(sourceCRS: String? = nil, targetCRS: String? = nil) {
        self.sourceCRS = sourceCRS
        self.targetCRS = targetCRS
    }

    /// Whether a CRS name means WGS84 longitude/latitude.
    public static func isWGS84(_ crs: String?) -> Bool {
        guard let crs else { return true }
        let upper = crs.uppercased().replacingOccurrences(of: " ", with: "")
        return ["OGC:CRS84", "CRS84", "EPSG:4326", "URN:OGC:DEF:CRS:OGC:1.3:CRS84", "URN:OGC:DEF:CRS:OGC::CRS84",
                "URN:OGC:DEF:CRS:EPSG::4326", "URN:OGC:DEF:CRS:EPSG:4326", "WGS84"].contains(upper)
    }

    public mutating func transform(_ header: DocumentHeader, diagnostics: DiagnosticLog) throws(GeoConvError) -> DocumentHeader {
        let source = sourceCRS ?? header.crs
        var result = header
        result.crs = Reproject.isWGS84(targetCRS) ? nil : targetCRS
        guard !(Reproject.isWGS84(source) && Reproject.isWGS84(targetCRS)) else { return result }
        let operation = try Reprojection(from: Reproject.isWGS84(source) ? "OGC:CRS84" : (source ?? "OGC:CRS84"),
                                         to: targetCRS.map { Reproject.isWGS84($0) ? "OGC:CRS84" : $0 } ?? "OGC:CRS84")
        if !operation.missingGrids.isEmpty {
            try diagnostics.warn("proj.grid-missing",
                                 "the datum change from \(operation.source) needs \(operation.missingGrids.joined(separator: ", ")), which PROJ does not have here; a less accurate transformation is used\(operation.accuracy.map { " (about \($0) m)" } ?? "")",
                                 hint: "install the grid (projsync, or the proj-data package) for full accuracy")
        }
        reprojection = operation
        return result
    }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        guard let reprojection, let geometry = feature.geometry else { return [feature] }
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(16)
        geometry.forEachCoordinate { coordinates.append($0) }
        let originals = coordinates
        try reprojection.transform(&coordinates)
        if let area = reprojection.areaOfUse {
            let lonLat = Reproject.isWGS84(targetCRS) ? coordinates : (reprojection.sourceIsGeographic ? originals : [])
            if let outside = lonLat.first(where: { !area.contains($0) }) {
                try diagnostics.warn("proj.outside-area-of-use",
                                     "(\(DecimalFormatter.shortest(outside.longitude)), \(DecimalFormatter.shortest(outside.latitude))) is outside the area of use of \(reprojection.sourceName) (\(area)); the transformation may be inaccurate there",
                                     hint: "check that --s-srs names the CRS the data is really in")
            }
        }
        var index = 0
        var copy = feature
        copy.geometry = geometry.mapCoordinates { _ in
            defer { index += 1 }
            return coordinates[index]
        }
        copy.foreignMembers.removeValue(forKey: "bbox")  // stale after reprojection
        return [copy]
    }
}

/// Warns about positions outside latitude ±90 / longitude ±180 in geographic (WGS84) input,
/// naming the likely latitude/longitude swap. An error with `--strict`.
public struct GeographicRangeCheck: FeatureTransform {
    private var active = true
    /// The input's CRS given on the command line, overriding the document's.
    public var sourceCRS: String?

    /// Creates the check.
    public init(sourceCRS: String? = nil) { self.sourceCRS = sourceCRS }

    public mutating func transform(_ header: DocumentHeader, diagnostics: DiagnosticLog) throws(GeoConvError) -> DocumentHeader {
        active = Reproject.isWGS84(sourceCRS ?? header.crs)
        return header
    }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        guard active, let geometry = feature.geometry else { return [feature] }
        var outside: Coordinate?
        var swapped = true
        geometry.forEachCoordinate { c in
            if !c.isValidGeographic {
                if outside == nil { outside = c }
            }
            if abs(c.longitude) > 90 || abs(c.latitude) > 180 { swapped = false }
        }
        if let outside {
            var message = "(\(DecimalFormatter.shortest(outside.longitude)), \(DecimalFormatter.shortest(outside.latitude))) is outside longitude ±180 / latitude ±90"
            if abs(outside.latitude) > 90, abs(outside.longitude) <= 90, swapped {
                message += "; latitude and longitude look swapped"
            } else if abs(outside.longitude) > 360 || abs(outside.latitude) > 360 {
                message += "; the data looks projected: give its CRS with --s-srs"
            }
            try diagnostics.warn("coordinate.out-of-range", message,
                                 hint: "GeoJSON, KML and WKT put longitude first; polylines latitude first")
        }
        return [feature]
    }
}
