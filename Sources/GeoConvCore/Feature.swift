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
///
/// The fields live in one shared, copy-on-write box: a feature is copied wherever it is
/// read from memory the compiler cannot prove unchanged (an array handed to several
/// writers, a batch replayed in order), and a copy is then one reference counted, not the
/// eleven its fields hold. A change copies the box first when another feature shares it.
public struct Feature: Hashable, Sendable {
    /// The fields. Never changed while shared (copy on write), so sendable.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline @exclusivity(unchecked) var id: FeatureID?
        @usableFromInline @exclusivity(unchecked) var sourceForm: SourceForm
        @usableFromInline @exclusivity(unchecked) var geometry: Geometry?
        @usableFromInline @exclusivity(unchecked) var title: String?
        @usableFromInline @exclusivity(unchecked) var snippet: String?
        @usableFromInline @exclusivity(unchecked) var style: Style
        @usableFromInline @exclusivity(unchecked) var properties: JSONObject
        @usableFromInline @exclusivity(unchecked) var foreignMembers: JSONObject

        @usableFromInline
        init(
            id: FeatureID?, sourceForm: SourceForm, geometry: Geometry?, title: String?, snippet: String?,
            style: Style, properties: JSONObject, foreignMembers: JSONObject
        ) {
            self.id = id
            self.sourceForm = sourceForm
            self.geometry = geometry
            self.title = title
            self.snippet = snippet
            self.style = style
            self.properties = properties
            self.foreignMembers = foreignMembers
        }

        /// A box of its own holding the same fields.
        @usableFromInline
        func copy() -> Storage {
            Storage(
                id: id, sourceForm: sourceForm, geometry: geometry, title: title, snippet: snippet, style: style,
                properties: properties, foreignMembers: foreignMembers)
        }
    }

    @usableFromInline var storage: Storage

    /// A feature of the fields in `storage`, shared.
    @inlinable
    init(storage: Storage) { self.storage = storage }

    /// Makes the box this feature's own before a change.
    @inlinable
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// The identifier, when the source had one.
    @inlinable
    public var id: FeatureID? {
        _read { yield storage.id }
        _modify {
            makeUnique()
            yield &storage.id
        }
    }
    /// How the source wrote what the model holds either way, for a writer of its format to
    /// write it back the same: `[]` for most features.
    @inlinable
    public var sourceForm: SourceForm {
        _read { yield storage.sourceForm }
        _modify {
            makeUnique()
            yield &storage.sourceForm
        }
    }
    /// The geometry; `nil` for a feature without one (GeoJSON `"geometry": null`).
    @inlinable
    public var geometry: Geometry? {
        _read { yield storage.geometry }
        _modify {
            makeUnique()
            yield &storage.geometry
        }
    }
    /// The info window's title (GeoJSON `name`/`title`, KML `name`).
    @inlinable
    public var title: String? {
        _read { yield storage.title }
        _modify {
            makeUnique()
            yield &storage.title
        }
    }
    /// The info window's text (GeoJSON `description`, KML `description`; may be HTML).
    @inlinable
    public var snippet: String? {
        _read { yield storage.snippet }
        _modify {
            makeUnique()
            yield &storage.snippet
        }
    }
    /// How the feature is drawn.
    @inlinable
    public var style: Style {
        _read { yield storage.style }
        _modify {
            makeUnique()
            yield &storage.style
        }
    }
    /// Properties in their original order with their JSON types (KML ExtendedData lands here).
    @inlinable
    public var properties: JSONObject {
        _read { yield storage.properties }
        _modify {
            makeUnique()
            yield &storage.properties
        }
    }
    /// Members of the source object that no model field holds, kept verbatim (GeoJSON
    /// foreign members, for example).
    @inlinable
    public var foreignMembers: JSONObject {
        _read { yield storage.foreignMembers }
        _modify {
            makeUnique()
            yield &storage.foreignMembers
        }
    }

    /// The geometry's kind (`nil` without one), asked in place: the geometry is not copied
    /// out of the box to be asked, as `geometry?.kind` from another module copies it.
    package var geometryKind: GeometryKind? { storage.geometry?.kind }

    /// Creates a feature.
    @inlinable
    public init(
        id: FeatureID? = nil, geometry: Geometry?, title: String? = nil, snippet: String? = nil,
        style: Style = Style(), properties: JSONObject = [:], foreignMembers: JSONObject = [:],
        sourceForm: SourceForm = []
    ) {
        storage = Storage(
            id: id, sourceForm: sourceForm, geometry: geometry, title: title, snippet: snippet, style: style,
            properties: properties, foreignMembers: foreignMembers)
    }

    /// Whether two features hold the same fields.
    public static func == (lhs: Feature, rhs: Feature) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let a = lhs.storage
        let b = rhs.storage
        return a.id == b.id && a.sourceForm == b.sourceForm && a.geometry == b.geometry && a.title == b.title
            && a.snippet == b.snippet && a.style == b.style && a.properties == b.properties
            && a.foreignMembers == b.foreignMembers
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        let fields = storage
        hasher.combine(fields.id)
        hasher.combine(fields.sourceForm)
        hasher.combine(fields.geometry)
        hasher.combine(fields.title)
        hasher.combine(fields.snippet)
        hasher.combine(fields.style)
        hasher.combine(fields.properties)
        hasher.combine(fields.foreignMembers)
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

extension Feature: CustomReflectable {
    /// The fields, as a struct's (what `print`, `dump` and test failures show), not the box.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "id": id as Any, "sourceForm": sourceForm, "geometry": geometry as Any, "title": title as Any,
                "snippet": snippet as Any, "style": style, "properties": properties, "foreignMembers": foreignMembers,
            ], displayStyle: .struct)
    }
}

extension UnsafeBufferPointer where Element == Feature {
    /// Calls `body` with the feature at `index`, borrowed from this memory without the copy
    /// (a reference counted) Swift makes of a value read from memory it cannot prove
    /// unchanged: for a caller handing the same features to many consumers (`geoconv info`,
    /// a dozen writers), on several threads at once, where that count is a cache line moved
    /// between cores each time. The memory must hold the feature until `body` returns; a
    /// consumer that keeps the feature copies it, counted, as any borrowed value.
    @inlinable @inline(__always)
    package func withBorrowedFeature<Result, Failure: Error>(
        at index: Int, _ body: (Feature) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        precondition(indices.contains(index), "a feature index out of range")
        // (A feature is its one reference to the box of its fields.)
        precondition(MemoryLayout<Feature>.size == MemoryLayout<Unmanaged<Feature.Storage>>.size)
        let storage = UnsafeRawPointer(baseAddress.unsafelyUnwrapped + index)
            .load(as: Unmanaged<Feature.Storage>.self)
        let result = storage._withUnsafeGuaranteedRef { storage -> Swift.Result<Result, Failure> in
            do throws(Failure) {
                return .success(try body(Feature(storage: storage)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
