public import GeoConvCore

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

extension CameraPosition {
    /// The viewport KML views are converted for: 640 points high, 60° vertical field of view.
    public static let kmlViewportHeight = 640.0
    /// The vertical field of view assumed for KML views, degrees.
    public static let kmlFieldOfView = 60.0

    /// The camera a KML `LookAt` (or `Camera`) describes: the range (metres from the target)
    /// becomes the zoom at which a 640-point-high viewport with a 60° field of view shows the
    /// same ground height at this latitude (Web Mercator: 156,543.034 m per point at zoom 0
    /// on the equator, × cos(latitude)).
    public init(kmlLatitude latitude: Double, longitude: Double, range: Double, heading: Double, tilt: Double) {
        let metresPerPointAtZoom0 = 156_543.033_92 * cos(latitude * .pi / 180)
        let visibleMetres = 2 * max(range, 0.01) * tan(CameraPosition.kmlFieldOfView / 2 * .pi / 180)
        let zoom = log2(max(metresPerPointAtZoom0 * CameraPosition.kmlViewportHeight / visibleMetres, 1e-9))
        self.init(
            target: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom, bearing: heading,
            viewingAngle: tilt)
    }

    /// The camera a KML view's elements (`KMLReaderState.parseView`: `kind`, `longitude`,
    /// `latitude`, `range` or `altitude`, `heading`, `tilt`) describe; `nil` without a position.
    init?(kmlView elements: JSONObject) {
        let values = elements.compactMapValues(\.doubleValue)
        guard let latitude = values["latitude"], let longitude = values["longitude"] else { return nil }
        let distance = elements["kind"]?.stringValue == "Camera" ? values["altitude"] : values["range"]
        self.init(
            kmlLatitude: latitude, longitude: longitude, range: distance ?? 1000, heading: values["heading"] ?? 0,
            tilt: values["tilt"] ?? 0)
    }

    /// The KML `LookAt` range that shows what this camera shows (the inverse of `init(kmlLatitude:…)`).
    public var kmlRange: Double {
        let metresPerPointAtZoom0 = 156_543.033_92 * cos(target.latitude * .pi / 180)
        let visibleMetres = metresPerPointAtZoom0 * CameraPosition.kmlViewportHeight / exp2(zoom)
        return visibleMetres / (2 * tan(CameraPosition.kmlFieldOfView / 2 * .pi / 180))
    }
}
