public import OrderedCollections

/// The map's point of view (the Maps SDK's `GMSCameraPosition`), clamped as the SDK clamps it:
/// latitude to [-85, 85], longitude wrapped into [-180, 180), zoom into the allowed range,
/// bearing into [0, 360), and the viewing angle to at most 30° at zoom ≤ 10 and 65° at
/// zoom ≥ 16, interpolated linearly between.
public struct CameraPosition: Hashable, Sendable {
    /// The zoom range a camera is clamped to unless another is given.
    public static let defaultZoomRange: ClosedRange<Double> = 0...22

    /// The point at the centre of the view.
    public private(set) var target: Coordinate
    /// The zoom level: the world is 256 · 2^zoom points wide.
    public private(set) var zoom: Double
    /// Degrees clockwise from north of the view's up direction.
    public private(set) var bearing: Double
    /// Degrees of tilt from looking straight down.
    public private(set) var viewingAngle: Double

    /// Creates a camera, clamping every value as the Maps SDK does.
    public init(
        target: Coordinate, zoom: Double, bearing: Double = 0, viewingAngle: Double = 0,
        zoomRange: ClosedRange<Double> = CameraPosition.defaultZoomRange
    ) {
        let latitude = target.latitude.isNaN ? 0 : min(85, max(-85, target.latitude))
        self.target = Coordinate(
            latitude: latitude, longitude: CameraPosition.wrapLongitude(target.longitude),
            altitude: target.altitude)
        let zoom = zoom.isNaN ? zoomRange.lowerBound : min(zoomRange.upperBound, max(zoomRange.lowerBound, zoom))
        self.zoom = zoom
        let b = bearing.isFinite ? bearing.truncatingRemainder(dividingBy: 360) : 0
        self.bearing = b < 0 ? b + 360 : b
        let angle = viewingAngle.isNaN ? 0 : viewingAngle
        self.viewingAngle = min(CameraPosition.maximumViewingAngle(atZoom: zoom), max(0, angle))
    }

    /// The largest viewing angle the SDK allows at a zoom: 30° up to zoom 10, 65° from zoom 16.
    public static func maximumViewingAngle(atZoom zoom: Double) -> Double {
        if zoom <= 10 { return 30 }
        if zoom >= 16 { return 65 }
        return 30 + (zoom - 10) / 6 * 35
    }

    /// The longitude wrapped into [-180, 180): 480 → 120, 180 → -180.
    public static func wrapLongitude(_ longitude: Double) -> Double {
        guard longitude.isFinite else { return 0 }
        if longitude >= -180 && longitude < 180 { return longitude }
        let r = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (r < 0 ? r + 360 : r) - 180
    }

    /// The same camera clamped into another zoom range (the seed example: zoom 4 in 10…15 becomes 10).
    public func clamped(toZoomRange range: ClosedRange<Double>) -> CameraPosition {
        CameraPosition(target: target, zoom: zoom, bearing: bearing, viewingAngle: viewingAngle, zoomRange: range)
    }
}

/// A layer of map tiles fetched from a URL template (the Maps SDK's `GMSURLTileLayer`).
public struct TileLayer: Hashable, Sendable {
    /// Tile edge length in points.
    public enum TileSize: Int, Hashable, Sendable, CaseIterable {
        case standard = 256
        case retina = 512
    }

    /// A URL with `{x}`, `{y}` and `{z}` placeholders (and optionally `{quadkey}`).
    public var urlTemplate: String
    /// A display name (KML and GeoJSON carry one).
    public var name: String?
    /// Drawing order among tile layers. Default 0.
    public var zIndex: Int
    /// Tile edge in points. Default 256.
    public var tileSize: TileSize
    /// 0…1. Default 1.
    public var opacity: Double
    /// Whether tiles fade in. Default true.
    public var fadeIn: Bool

    /// Creates a tile layer with the Maps SDK defaults.
    public init(
        urlTemplate: String, name: String? = nil, zIndex: Int = 0, tileSize: TileSize = .standard,
        opacity: Double = 1, fadeIn: Bool = true
    ) {
        self.urlTemplate = urlTemplate
        self.name = name
        self.zIndex = zIndex
        self.tileSize = tileSize
        self.opacity = min(1, max(0, opacity.isNaN ? 1 : opacity))
        self.fadeIn = fadeIn
    }
}

extension TileLayer {
    /// Tile layers as JSON, the form GeoJSON (`geoconv:tileLayers`) and KML (document
    /// ExtendedData) keep them in: `[{"urlTemplate":…,"name":…,"zIndex":…,"tileSize":256,"opacity":…,"fadeIn":…}, …]`.
    public static func json(_ layers: [TileLayer]) -> JSONValue {
        .array(
            layers.map { layer in
                var object: JSONObject = ["urlTemplate": .string(layer.urlTemplate)]
                if let name = layer.name { object["name"] = .string(name) }
                object["zIndex"] = .number(JSONNumber(layer.zIndex))
                object["tileSize"] = .number(JSONNumber(layer.tileSize.rawValue))
                object["opacity"] = JSONNumber(layer.opacity).map(JSONValue.number) ?? .number(JSONNumber(1))
                object["fadeIn"] = .bool(layer.fadeIn)
                return .object(object)
            })
    }

    /// Reads tile layers written by `json(_:)`; `nil` when they do not fit.
    public static func layers(fromJSON value: JSONValue) -> [TileLayer]? {
        guard let list = value.arrayValue else { return nil }
        var layers: [TileLayer] = []
        for item in list {
            guard let object = item.objectValue, let template = object["urlTemplate"]?.stringValue else { return nil }
            let size = object["tileSize"]?.doubleValue.flatMap { TileLayer.TileSize(rawValue: Int($0)) } ?? .standard
            layers.append(
                TileLayer(
                    urlTemplate: template, name: object["name"]?.stringValue,
                    zIndex: object["zIndex"]?.doubleValue.map { Int($0) } ?? 0, tileSize: size,
                    opacity: object["opacity"]?.doubleValue ?? 1, fadeIn: object["fadeIn"]?.boolValue ?? true))
        }
        return layers
    }
}

/// What a document says about itself before its features: the header every reader produces
/// first and every writer consumes first.
public struct DocumentHeader: Hashable, Sendable {
    /// The document's name.
    public var name: String?
    /// The document's description.
    public var description: String?
    /// The coordinate reference system the coordinates are in, as PROJ would take it
    /// (`EPSG:4326`, `OGC:CRS84`, …); `nil` means WGS84 longitude/latitude.
    public var crs: String?
    /// The initial view, when the document has one (KML `LookAt`/`Camera`).
    public var camera: CameraPosition?
    /// Tile layers (KML ground/network overlays of tiles, GeoJSON foreign member).
    public var tileLayers: [TileLayer]
    /// Document-level members no model field holds, kept verbatim.
    public var foreignMembers: JSONObject
    /// Whether the source draws an edge between two positions the shorter way round the
    /// globe (KML, as Google Earth draws it), so that an edge whose longitudes differ by
    /// more than 180° crosses the antimeridian. GeoJSON and WKT edges are planar: a line
    /// from -100° to 100° goes through 0°. Geodesic features are always drawn the short way.
    public var edgesTakeShorterWay: Bool = false
    /// Files the document carries inside itself (a KMZ's images), when it has any.
    public var embeddedFiles: EmbeddedFiles?

    /// Creates a header; every field defaults to absent.
    public init(
        name: String? = nil, description: String? = nil, crs: String? = nil, camera: CameraPosition? = nil,
        tileLayers: [TileLayer] = [], foreignMembers: JSONObject = [:], edgesTakeShorterWay: Bool = false
    ) {
        self.edgesTakeShorterWay = edgesTakeShorterWay
        self.name = name
        self.description = description
        self.crs = crs
        self.camera = camera
        self.tileLayers = tileLayers
        self.foreignMembers = foreignMembers
    }
}

/// Files a document carries inside itself and refers to by relative path: the images and
/// other entries of a KMZ. A KMZ writer puts them in its archive; every other writer reports
/// them as dropped. Read lazily, one at a time, so memory stays bounded.
public struct EmbeddedFiles: Hashable, Sendable {
    /// The files' paths inside the document, in archive order.
    public let paths: [String]
    private let source: Source

    /// Holds the loader (a class, so copies of a header share one reference).
    private final class Source: Sendable {
        let load: @Sendable (String) throws -> [UInt8]
        init(_ load: @escaping @Sendable (String) throws -> [UInt8]) { self.load = load }
    }

    /// Creates a set of files read through `load` (which throws `GeoConvError`s).
    public init(paths: [String], load: @escaping @Sendable (String) throws -> [UInt8]) {
        self.paths = paths
        source = Source(load)
    }

    /// The bytes of the file at `path`.
    public func contents(of path: String) throws(GeoConvError) -> [UInt8] {
        do {
            return try source.load(path)
        } catch let error as GeoConvError {
            throw error
        } catch {
            throw GeoConvError(.io, "cannot read the embedded file \(path): \(error)")
        }
    }

    public static func == (a: EmbeddedFiles, b: EmbeddedFiles) -> Bool { a.paths == b.paths }
    public func hash(into hasher: inout Hasher) { hasher.combine(paths) }
}
