public import GeoConvCore
import GeoConvFormatKit

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The CRSs geoconv handles without PROJ: WGS84 longitude/latitude (EPSG:4326 with its axes
/// normalised, OGC:CRS84) and Web Mercator (EPSG:3857 and its older codes), in every
/// spelling GeoJSON, KML, GML and WKT files use. They are what the Maps SDK and web maps
/// work in; without the PROJ trait they are all geoconv transforms between.
public enum NativeCRS: Equatable, Sendable {
    /// Longitude/latitude degrees on WGS84 (`EPSG:4326` is read longitude first, as PROJ's
    /// normalisation for visualisation does).
    case wgs84(name: String)
    /// Spherical Mercator on the WGS84 semi-major axis, metres (EPSG:3857).
    case webMercator

    /// The WGS84 semi-major axis: Web Mercator's sphere.
    static let radius = 6_378_137.0

    /// The CRS `text` names, if it is one of these; case and spelling as in files.
    public init?(_ text: String) {
        guard let (authority, code) = CRSNames.authorityAndCode(text) else { return nil }
        switch (authority, code) {
        case ("ogc", "crs84"): self = .wgs84(name: "WGS 84 (CRS84)")
        case ("epsg", "4326"): self = .wgs84(name: "WGS 84")
        case ("epsg", "3857"), ("epsg", "900913"), ("epsg", "3785"), ("epsg", "102100"), ("epsg", "102113"),
            ("esri", "102100"), ("esri", "102113"):
            self = .webMercator
        default: return nil
        }
    }

    /// The CRS `text` names, or the error that says geoconv needs PROJ for it.
    static func required(_ text: String) throws(GeoConvError) -> NativeCRS {
        guard let crs = NativeCRS(text) else {
            throw GeoConvError(
                .invalidInput, "the CRS '\(text)' needs PROJ, and this geoconv was built without the PROJ trait",
                hint:
                    "WGS84 (EPSG:4326, OGC:CRS84) and Web Mercator (EPSG:3857) work without it; build with the PROJ trait (a default trait) for other CRSs"
            )
        }
        return crs
    }

    /// Its name, as PROJ gives it.
    public var name: String {
        switch self {
        case .wgs84(let name): name
        case .webMercator: "WGS 84 / Pseudo-Mercator"
        }
    }

    /// Whether coordinates are degrees.
    public var isGeographic: Bool {
        if case .wgs84 = self { return true }
        return false
    }

    /// Where it is meant to be used, longitude/latitude degrees (EPSG's areas of use).
    public var areaOfUse: CoordinateBounds {
        switch self {
        case .wgs84: CoordinateBounds(south: -90, west: -180, north: 90, east: 180)
        case .webMercator: CoordinateBounds(south: -85.06, west: -180, north: 85.06, east: 180)
        }
    }

    /// `coordinate` moved from one CRS to the other; `nil` where the target cannot represent it
    /// (Web Mercator at the poles) or the input is not a finite position.
    public static func transform(_ coordinate: Coordinate, from: NativeCRS, to: NativeCRS) -> Coordinate? {
        var longitude = coordinate.longitude
        var latitude = coordinate.latitude
        guard longitude.isFinite, latitude.isFinite else { return nil }
        if case .webMercator = from {
            // Inverse spherical Mercator.
            longitude = longitude / radius * 180 / .pi
            latitude = atan(sinh(latitude / radius)) * 180 / .pi
        }
        if case .webMercator = to {
            guard abs(latitude) < 90 else { return nil }
            let φ = latitude * .pi / 180
            longitude = radius * longitude * .pi / 180
            latitude = radius * asinh(tan(φ))
        }
        guard longitude.isFinite, latitude.isFinite else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude, altitude: coordinate.altitude)
    }
}
