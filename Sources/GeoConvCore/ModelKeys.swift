public import OrderedCollections

/// A key of the model's extension properties (`geoconv:…`): facts the overlay model has no
/// field for, carried in `Feature.properties` (or, for the document, in
/// `DocumentHeader.foreignMembers` and the formats' document members) so that they survive a
/// conversion and the codec that knows them can write them back.
///
/// The catalogue below is the one list of them: each key has its written name (byte for byte
/// what the files hold; documented in `docs/formats/`) and the kind of value it carries. Read
/// one with `properties[.radius]` (the JSON value as stored) or `feature[model: .radius]`
/// (the value as `Value`, `nil` when absent or of another kind).
///
/// The style keys among them (`geodesic`, `spans`, `groundAnchor`, `infoWindowAnchor`,
/// `opacity`, `zIndex`) are also `Style` fields: `StyleProperties` maps them to and from the
/// properties for every format, as it does simplestyle's names.
public struct ModelKey<Value: ModelValue>: Sendable, Hashable {
    /// The name as written (`"geoconv:radius"`).
    public let name: String

    @usableFromInline
    init(_ name: String) { self.name = name }
}

extension ModelKey where Value == JSONValue {
    // (Declared where `Value` is `JSONValue` only so that `ModelKey.prefix` needs no type argument.)

    /// What every model key's name starts with.
    @inlinable public static var prefix: String { "geoconv:" }

    /// Whether `name` is a model key's (starts with `prefix`), known to this build or not.
    @inlinable
    public static func isModelKey(_ name: String) -> Bool { name.hasPrefix(prefix) }

    /// A feature id KML cannot write as the element's `id` (a number, a string that is no XML
    /// name, or one already used: KML ids are unique), in its ExtendedData as JSON text
    /// (`"1725"`, so that a number stays a number). Written by the KML writer; the KML reader
    /// takes it back as the feature's id.
    @inlinable public static var id: Self { Self("geoconv:id") }
}

// MARK: Circles

extension ModelKey where Value == Double {
    /// A circle's radius in metres (a number), where the geometry cannot be a circle: on the
    /// centre Point (GeoJSON, and KML with `--circles point`) or on the polygon drawn for it
    /// (with `circleCenter`). Written by the GeoJSON and KML writers and by `CircleTransform`;
    /// the GeoJSON and KML readers give back the exact circle.
    @inlinable public static var radius: Self { Self("geoconv:radius") }

    /// Marker opacity, 0…1 (a number); `Style.opacity`. Every format through
    /// `StyleProperties` (KML: ExtendedData).
    @inlinable public static var opacity: Self { Self("geoconv:opacity") }
}

extension ModelKey where Value == [JSONValue] {
    /// The centre of a circle drawn as a polygon, `[longitude, latitude]`: with `radius`, the
    /// polygon is that circle. Written by `CircleTransform` (`--circles polygon` keeping circles
    /// as data) into KML ExtendedData; the KML reader gives back the circle.
    @inlinable public static var circleCenter: Self { Self("geoconv:circle-center") }
}

// MARK: Style

extension ModelKey where Value == [JSONValue] {
    /// Style spans of a polyline, `Style.spans`: `[{"segments": 1.5, "color": "#ff0000",
    /// "opacity": 0.5, "to-color": "#0000ff", "to-opacity": 1, "stamp": {"kind": "sprite",
    /// "image": "arrow.png"}}]` (`StyleProperties.spanJSON`). Every format through
    /// `StyleProperties` (KML: ExtendedData, as JSON text).
    @inlinable public static var spans: Self { Self("geoconv:spans") }

    /// The ground anchor of a marker's icon, `Style.groundAnchor`: `[x, y]`, fractions of the
    /// icon from its top-left. Every format through `StyleProperties` (KML: the icon's `hotSpot`).
    @inlinable public static var groundAnchor: Self { Self("geoconv:ground-anchor") }

    /// Where a marker's info window is anchored, `Style.infoWindowAnchor`: `[x, y]` as
    /// `groundAnchor`. Every format through `StyleProperties` (KML: ExtendedData).
    @inlinable public static var infoWindowAnchor: Self { Self("geoconv:info-window-anchor") }
}

extension ModelKey where Value == Int {
    /// The drawing order, `Style.zIndex` (an integer). Every format through `StyleProperties`
    /// (KML: ExtendedData).
    @inlinable public static var zIndex: Self { Self("geoconv:z-index") }

    /// On each piece `ExplodeSpans` cuts a polyline with style spans into: the index of the
    /// span it draws (an integer). Written by that transform only; no reader takes it back.
    @inlinable public static var span: Self { Self("geoconv:span") }
}

extension ModelKey where Value == Bool {
    /// Whether lines follow great circles, `Style.geodesic` (a boolean). Every format through
    /// `StyleProperties` (KML: `tessellate`).
    @inlinable public static var geodesic: Self { Self("geoconv:geodesic") }

    /// KML `extrude` of the geometry (`true`; absent when off). Read and written by the KML
    /// codec.
    @inlinable public static var extrude: Self { Self("geoconv:extrude") }
}

// MARK: KML facts

extension ModelKey where Value == String {
    /// KML `altitudeMode` / `gx:altitudeMode` of the geometry (`"relativeToGround"`, …), a
    /// string. Read and written by the KML codec; Render notes that 3-D modes are drawn on
    /// the ground.
    @inlinable public static var altitudeMode: Self { Self("geoconv:altitudeMode") }

    /// KML `BalloonStyle/text` (a string, may hold HTML and `$[…]` entities). Read and
    /// written by the KML codec.
    @inlinable public static var balloonText: Self { Self("geoconv:balloonText") }
}

extension ModelKey where Value == [JSONValue] {
    /// The folder path of a placemark, outermost first: `["Trails", "North"]`. Read and
    /// written by the KML codec (also for the files a KMZ's NetworkLinks name), which
    /// rebuilds the Folders from it.
    @inlinable public static var folder: Self { Self("geoconv:folder") }

    /// A GroundOverlay's `gx:LatLonQuad`: its four corners `[[lon, lat], …]` (counter-clockwise
    /// from the lower left), the overlay's geometry being their polygon. Read and written by
    /// the KML codec.
    @inlinable public static var latLonQuad: Self { Self("geoconv:latLonQuad") }
}

extension ModelKey where Value == JSONObject {
    /// A StyleMap's highlight style as simplestyle properties (`{"stroke": "#ff0000", …}`).
    /// Read by the KML reader; the KML writer writes a StyleMap with a normal and a highlight
    /// pair (and KMZ packs its icon).
    @inlinable public static var highlightStyle: Self { Self("geoconv:highlight-style") }

    /// A feature's own view (`LookAt` or `Camera`), its elements as read: `{"kind": "LookAt",
    /// "longitude": …, "latitude": …, "range": …}` (`timespan`/`timestamp` for a
    /// `gx:TimeSpan`/`gx:TimeStamp`). On the document (`DocumentHeader.foreignMembers`): the
    /// elements of the view the header camera was read from, written back exactly while the
    /// camera is unchanged. Read and written by the KML codec.
    @inlinable public static var view: Self { Self("geoconv:view") }

    /// A feature's `Region`: `{"north": …, "south": …, "east": …, "west": …, "minLodPixels": …}`.
    /// Read and written by the KML codec.
    @inlinable public static var region: Self { Self("geoconv:region") }

    /// ExtendedData display names by property: `{"pop": "Population"}` (KML `Data/displayName`,
    /// `SimpleField/displayName`). Read and written by the KML codec.
    @inlinable public static var displayNames: Self { Self("geoconv:display-names") }

    /// A GroundOverlay's `LatLonBox`: `{"north": …, "south": …, "east": …, "west": …,
    /// "rotation": …}`. Read and written by the KML codec.
    @inlinable public static var latLonBox: Self { Self("geoconv:latLonBox") }
}

// MARK: Document members

extension ModelKey where Value == JSONObject {
    /// The document's camera (`DocumentHeader.camera`), a FeatureCollection member in GeoJSON:
    /// `{"target": {"latitude": …, "longitude": …}, "zoom": …, "bearing": …, "viewingAngle": …}`.
    /// Read and written by the GeoJSON codec.
    @inlinable public static var camera: Self { Self("geoconv:camera") }
}

extension ModelKey where Value == [JSONValue] {
    /// The document's tile layers (`DocumentHeader.tileLayers`) as `TileLayer.json`:
    /// `[{"urlTemplate": …, "name": …, "zIndex": …, "tileSize": 256, …}]`. A FeatureCollection
    /// member in GeoJSON, a `Data` of the document's ExtendedData in KML (as JSON text); read and
    /// written by both, written by `geoconv tiles render` beside a tile folder.
    @inlinable public static var tileLayers: Self { Self("geoconv:tileLayers") }
}

// MARK: Values

/// The kind of value a `ModelKey` carries, as it is held in JSON.
public protocol ModelValue {
    /// The value `json` holds; `nil` when it holds another kind.
    init?(modelValue json: JSONValue)
    /// The value as JSON.
    var modelValue: JSONValue { get }
}

extension JSONValue: ModelValue {
    @inlinable public init?(modelValue json: JSONValue) { self = json }
    @inlinable public var modelValue: JSONValue { self }
}

extension String: ModelValue {
    @inlinable public init?(modelValue json: JSONValue) {
        guard case .string(let s) = json else { return nil }
        self = s
    }
    @inlinable public var modelValue: JSONValue { .string(self) }
}

extension Bool: ModelValue {
    @inlinable public init?(modelValue json: JSONValue) {
        guard case .bool(let b) = json else { return nil }
        self = b
    }
    @inlinable public var modelValue: JSONValue { .bool(self) }
}

extension Double: ModelValue {
    /// Any number, as the nearest `Double`.
    @inlinable public init?(modelValue json: JSONValue) {
        guard case .number(let n) = json else { return nil }
        self = n.doubleValue
    }
    /// The shortest exact form; `null` for NaN or infinity (JSON has no number for them).
    @inlinable public var modelValue: JSONValue { JSONNumber(self).map(JSONValue.number) ?? .null }
}

extension Int: ModelValue {
    /// An integer literal that fits (`3`, not `3.0`).
    @inlinable public init?(modelValue json: JSONValue) {
        guard case .number(let n) = json, let i = n.intValue else { return nil }
        self = i
    }
    @inlinable public var modelValue: JSONValue { .number(JSONNumber(self)) }
}

extension Array: ModelValue where Element == JSONValue {
    @inlinable public init?(modelValue json: JSONValue) {
        guard case .array(let a) = json else { return nil }
        self = a
    }
    @inlinable public var modelValue: JSONValue { .array(self) }
}

extension OrderedDictionary: ModelValue where Key == String, Value == JSONValue {
    @inlinable public init?(modelValue json: JSONValue) {
        guard case .object(let o) = json else { return nil }
        self = o
    }
    @inlinable public var modelValue: JSONValue { .object(self) }
}

// MARK: Access

extension OrderedDictionary where Key == String, Value == JSONValue {
    /// The JSON value stored under a model key (`properties[.radius]`), as `self[key.name]`.
    @inlinable
    public subscript<V>(key: ModelKey<V>) -> JSONValue? {
        get { self[key.name] }
        set { self[key.name] = newValue }
    }

    /// The value of a model key as its kind (`properties[model: .altitudeMode]` is a
    /// `String?`): `nil` when absent or of another kind. Setting `nil` removes the key.
    @inlinable
    public subscript<V>(model key: ModelKey<V>) -> V? {
        get { self[key.name].flatMap(V.init(modelValue:)) }
        set { self[key.name] = newValue?.modelValue }
    }

    /// Removes a model key, returning its value as stored.
    @inlinable @discardableResult
    public mutating func removeValue<V>(forKey key: ModelKey<V>) -> JSONValue? { removeValue(forKey: key.name) }
}

extension Feature {
    /// The value of a model key among the properties, as its kind (`feature[model: .folder]`):
    /// `properties[model: key]`.
    @inlinable
    public subscript<V>(model key: ModelKey<V>) -> V? {
        get { properties[model: key] }
        set { properties[model: key] = newValue }
    }
}
