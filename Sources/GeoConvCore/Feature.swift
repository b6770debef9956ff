public import OrderedCollections

/// A feature's identifier: GeoJSON allows a string or a number, KML an XML id.
public enum FeatureID: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case number(JSONNumber)

    public var description: String {
        switch self {
        case .string(let s): s
        case .number(let n): n.literal
        }
    }
}

/// One overlay: a geometry with its identity, info-window text, style and properties.
/// Readers produce features one at a time; writers consume them one at a time.
public struct Feature: Hashable, Sendable {
    /// The identifier, when the source had one.
    public var id: FeatureID?
    /// How the source wrote what the model holds either way, for a writer of its format to
    /// write it back the same: `[]` for most features. (Declared here, it takes the padding
    /// after `id`, so a feature is no larger for it.)
    public var sourceForm: SourceForm
    /// The geometry; `nil` for a feature without one (GeoJSON `"geometry": null`).
    public var geometry: Geometry?
    /// The info window's title (GeoJSON `name`/`title`, KML `name`).
    public var title: String?
    /// The info window's text (GeoJSON `description`, KML `description`; may be HTML).
    public var snippet: String?
    /// How the feature is drawn.
    public var style: Style
    /// Properties in their original order with their JSON types (KML ExtendedData lands here).
    public var properties: JSONObject
    /// Members of the source object that no model field holds, kept verbatim (GeoJSON
    /// foreign members, for example).
    public var foreignMembers: JSONObject

    /// Creates a feature.
    public init(
        id: FeatureID? = nil, geometry: Geometry?, title: String? = nil, snippet: String? = nil,
        style: Style = Style(), properties: JSONObject = [:], foreignMembers: JSONObject = [:],
        sourceForm: SourceForm = []
    ) {
        self.id = id
        self.geometry = geometry
        self.title = title
        self.snippet = snippet
        self.style = style
        self.properties = properties
        self.foreignMembers = foreignMembers
        self.sourceForm = sourceForm
    }

    /// Marks of how a feature's source wrote what the model holds either way. Each belongs to
    /// the codec that sets and reads it; other formats ignore it.
    public struct SourceForm: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// GeoJSON: the feature had `"properties": null`, not an object. The GeoJSON writer
        /// writes `null` again while the feature has no properties (`{}` otherwise).
        public static let nullProperties = SourceForm(rawValue: 1 << 0)
    }
}
