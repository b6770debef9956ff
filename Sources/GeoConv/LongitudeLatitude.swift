/// Positions that can be drawn, tiled and measured: finite longitudes/latitudes.
extension GeographicRangeCheck {
    /// Whether a position is a longitude/latitude the map commands can use: finite,
    /// latitude within ±90, longitude within ±360 (one wrap either side, as measuring allows).
    public static func isUsable(_ c: Coordinate) -> Bool {
        c.latitude.isFinite && c.longitude.isFinite && abs(c.latitude) <= 90 && abs(c.longitude) <= 360
    }

    /// Throws unless every position of `geometry` is usable (`isUsable`): `what` names the
    /// command's work ("draw", "measure"), `index` the feature.
    public static func requireLongitudeLatitude(
        _ geometry: Geometry, what: String, index: Int, at location: SourceLocation?
    )
        throws(GeoConvError)
    {
        var usable = true
        geometry.forEachCoordinate { if !isUsable($0) { usable = false } }
        guard !usable else { return }
        let outside = positionsOutOfRange(in: geometry).first { !isUsable($0.coordinate) }
        throw GeoConvError(
            .invalidInput,
            "cannot \(what) feature \(index): " + (outside?.message ?? "a position is not a longitude/latitude"),
            at: location,
            hint:
                "\(what) needs WGS84 longitude/latitude: give the data's CRS with --s-srs (e.g. --s-srs EPSG:32633) or in the file (EWKT SRID=n;, a GeoJSON \"crs\" member); "
                + hint)
    }
}

extension OverlayDocument {
    /// Throws unless every position is a longitude/latitude (`GeographicRangeCheck.isUsable`):
    /// `render`, `tiles`, `tiles render` and `camera` ask this before working, so that
    /// projected metres read as degrees (a line to longitude 1e15) are refused at once
    /// instead of making a picture of astronomical size.
    public func requireLongitudeLatitude(toDo what: String) throws(GeoConvError) {
        for (index, feature) in features.enumerated() {
            guard let geometry = feature.geometry else { continue }
            try GeographicRangeCheck.requireLongitudeLatitude(geometry, what: what, index: index, at: nil)
        }
    }
}
