/// An image drawn along a stroke (the Maps SDK's `GMSStampStyle`).
public struct StampStyle: Hashable, Sendable {
    /// How the image repeats along the line.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The image is repeated along the line, each copy upright to the line (`GMSSpriteStyle`).
        case sprite
        /// The image is stretched into a repeating texture along the line (`GMSTextureStyle`).
        case texture
    }

    /// Sprite or texture.
    public var kind: Kind
    /// The image: a URL, or a path relative to the document (KMZ entries resolve inside the archive).
    public var image: String

    /// Creates a stamp of the given kind from an image reference.
    public init(_ kind: Kind, image: String) {
        self.kind = kind
        self.image = image
    }
}

/// How one stretch of a polyline is drawn (the Maps SDK's `GMSStrokeStyle`): a solid colour,
/// or a gradient from one colour to another along the stretch, optionally with a stamp.
public struct StrokeStyle: Hashable, Sendable {
    /// The colour at the start of the stretch.
    public var fromColor: Color
    /// The colour at the end of the stretch; equal to `fromColor` for a solid stroke.
    public var toColor: Color
    /// An image drawn along the stroke, if any.
    public var stamp: StampStyle?

    /// Creates a stroke from its end colours and optional stamp.
    public init(fromColor: Color, toColor: Color, stamp: StampStyle? = nil) {
        self.fromColor = fromColor
        self.toColor = toColor
        self.stamp = stamp
    }

    /// A solid stroke of one colour.
    public static func solid(_ color: Color, stamp: StampStyle? = nil) -> StrokeStyle {
        StrokeStyle(fromColor: color, toColor: color, stamp: stamp)
    }

    /// A gradient stroke from one colour to another.
    public static func gradient(from: Color, to: Color, stamp: StampStyle? = nil) -> StrokeStyle {
        StrokeStyle(fromColor: from, toColor: to, stamp: stamp)
    }

    /// Whether the two end colours differ.
    public var isGradient: Bool { fromColor != toColor }

    /// The colour a fraction `t` (0…1) along the stretch, interpolated linearly in sRGB.
    public func color(at t: Double) -> Color {
        guard isGradient else { return fromColor }
        let t = min(1, max(0, t.isNaN ? 0 : t))
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * t).rounded()) }
        return Color(
            red: mix(fromColor.red, toColor.red), green: mix(fromColor.green, toColor.green),
            blue: mix(fromColor.blue, toColor.blue),
            opacity: fromColor.opacity + (toColor.opacity - fromColor.opacity) * t)
    }
}

/// A stroke style over a number of a polyline's segments (the Maps SDK's `GMSStyleSpan`).
///
/// `segments` is fractional and always greater than zero; the last span of a list covers
/// the rest of the line.
public struct StyleSpan: Hashable, Sendable {
    /// How this stretch is drawn.
    public var style: StrokeStyle
    /// How many segments the stretch covers (> 0, may be fractional).
    public private(set) var segments: Double

    /// A span covering `segments` segments; `nil` unless `segments` is finite and greater than zero.
    public init?(style: StrokeStyle, segments: Double) {
        guard segments.isFinite, segments > 0 else { return nil }
        self.style = style
        self.segments = segments
    }

    /// A span covering one segment, the Maps SDK's default.
    public init(style: StrokeStyle) {
        self.style = style
        segments = 1
    }
}

/// A point within an image, as fractions of its width and height from the top-left corner
/// (the Maps SDK's `groundAnchor` and `infoWindowAnchor`).
public struct Anchor: Hashable, Sendable {
    /// Fraction of the width, 0 = left edge.
    public var x: Double
    /// Fraction of the height, 0 = top edge.
    public var y: Double

    /// Creates an anchor from fractions of the image's width and height.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Bottom centre: the Maps SDK's default ground anchor (the tip of the default pin).
    public static let bottomCenter = Anchor(x: 0.5, y: 1)
    /// Top centre: the Maps SDK's default info-window anchor.
    public static let topCenter = Anchor(x: 0.5, y: 0)
}

/// How a feature is drawn. Every field is optional: `nil` means "not specified", so that a
/// conversion writes only what the source said. The facades (`Marker`, `Polyline`, …)
/// supply the Maps SDK's defaults.
///
/// The fields live in a shared, copy-on-write box, absent while nothing is specified: most
/// features of a large file have no style, and a `Feature` is copied and moved on every
/// step of the per-feature path, so its style costs one pointer there, not fifteen fields.
public struct Style: Hashable, Sendable {
    /// The fields, as one value.
    struct Fields: Hashable, Sendable {
        var strokeColor: Color?
        var strokeWidth: Double?
        var fillColor: Color?
        var geodesic: Bool?
        var spans: [StyleSpan] = []
        var icon: String?
        var iconScale: Double?
        var markerColor: Color?
        var markerSymbol: String?
        var markerSize: String?
        var groundAnchor: Anchor?
        var infoWindowAnchor: Anchor?
        var rotation: Double?
        var opacity: Double?
        var zIndex: Int?
    }

    /// The box the fields live in; shared between copies until one of them changes a field.
    @usableFromInline final class Box: @unchecked Sendable {  // never changed while shared (copy on write)
        var fields: Fields

        /// Whether every field is unset: read in place, field by field (`fields == Fields()`
        /// copies the fields first, a retain and release of each reference they hold). Every
        /// field of `Fields` is named here: one added there is added here (`ModelTests`, "isEmpty").
        var holdsNothing: Bool {
            let nothing =
                fields.strokeColor == nil && fields.strokeWidth == nil && fields.fillColor == nil
                && fields.geodesic == nil && fields.spans.isEmpty && fields.icon == nil && fields.iconScale == nil
                && fields.markerColor == nil && fields.markerSymbol == nil && fields.markerSize == nil
                && fields.groundAnchor == nil && fields.infoWindowAnchor == nil && fields.rotation == nil
                && fields.opacity == nil && fields.zIndex == nil
            assert(nothing == (fields == Fields()), "a field of Style.Fields is missing from holdsNothing")
            return nothing
        }

        /// Whether a number field is `-0` (read in place; no array made: a writer asks it of
        /// every feature it styles).
        var holdsNegativeZero: Bool {
            func negativeZero(_ value: Double?) -> Bool { value.map { $0 == 0 && $0.sign == .minus } ?? false }
            return negativeZero(fields.strokeWidth) || negativeZero(fields.iconScale)
                || negativeZero(fields.rotation) || negativeZero(fields.opacity)
                || negativeZero(fields.groundAnchor?.x) || negativeZero(fields.groundAnchor?.y)
                || negativeZero(fields.infoWindowAnchor?.x) || negativeZero(fields.infoWindowAnchor?.y)
        }
        init(_ fields: Fields) { self.fields = fields }
    }

    /// `nil` while nothing was ever specified. (Not private: `boxIdentity` is inlined.)
    @usableFromInline private(set) var box: Box?

    /// The fields, read.
    var fields: Fields { box?.fields ?? Fields() }

    /// Changes the fields in place, copying the box first when another style shares it.
    private mutating func update(_ change: (inout Fields) -> Void) {
        if !isKnownUniquelyReferenced(&box) { box = Box(fields) }
        if let box { change(&box.fields) }
    }

    /// Outline or line colour.
    public var strokeColor: Color? {
        get { box?.fields.strokeColor ?? nil }
        set { update { $0.strokeColor = newValue } }
    }
    /// Outline or line width, in screen points.
    public var strokeWidth: Double? {
        get { box?.fields.strokeWidth ?? nil }
        set { update { $0.strokeWidth = newValue } }
    }
    /// Interior colour of polygons and circles.
    public var fillColor: Color? {
        get { box?.fields.fillColor ?? nil }
        set { update { $0.fillColor = newValue } }
    }
    /// Whether lines follow great circles rather than straight map lines.
    public var geodesic: Bool? {
        get { box?.fields.geodesic ?? nil }
        set { update { $0.geodesic = newValue } }
    }
    /// Per-segment stroke styles along a line; empty means the stroke colour throughout.
    public var spans: [StyleSpan] {
        get { box?.fields.spans ?? [] }
        set { update { $0.spans = newValue } }
    }
    /// The marker icon: a URL, a path relative to the document, or a KMZ entry.
    public var icon: String? {
        get { box?.fields.icon ?? nil }
        set { update { $0.icon = newValue } }
    }
    /// The icon's scale factor (KML `IconStyle/scale`).
    public var iconScale: Double? {
        get { box?.fields.iconScale ?? nil }
        set { update { $0.iconScale = newValue } }
    }
    /// The marker's tint (simplestyle `marker-color`, KML `IconStyle/color`).
    public var markerColor: Color? {
        get { box?.fields.markerColor ?? nil }
        set { update { $0.markerColor = newValue } }
    }
    /// A symbol name drawn on the marker (simplestyle `marker-symbol`, e.g. a Maki icon name).
    public var markerSymbol: String? {
        get { box?.fields.markerSymbol ?? nil }
        set { update { $0.markerSymbol = newValue } }
    }
    /// `small`, `medium` or `large` (simplestyle `marker-size`).
    public var markerSize: String? {
        get { box?.fields.markerSize ?? nil }
        set { update { $0.markerSize = newValue } }
    }
    /// The point of the icon placed on the marker's position.
    public var groundAnchor: Anchor? {
        get { box?.fields.groundAnchor ?? nil }
        set { update { $0.groundAnchor = newValue } }
    }
    /// The point of the icon where the info window attaches.
    public var infoWindowAnchor: Anchor? {
        get { box?.fields.infoWindowAnchor ?? nil }
        set { update { $0.infoWindowAnchor = newValue } }
    }
    /// The marker's rotation, degrees clockwise (KML `IconStyle/heading`).
    public var rotation: Double? {
        get { box?.fields.rotation ?? nil }
        set { update { $0.rotation = newValue } }
    }
    /// The marker's opacity, 0…1.
    public var opacity: Double? {
        get { box?.fields.opacity ?? nil }
        set { update { $0.opacity = newValue } }
    }
    /// Drawing order among overlays; higher draws on top.
    public var zIndex: Int? {
        get { box?.fields.zIndex ?? nil }
        set { update { $0.zIndex = newValue } }
    }

    /// Creates a style that specifies nothing.
    public init() { box = nil }

    /// Creates a style; every field defaults to "not specified".
    public init(
        strokeColor: Color? = nil, strokeWidth: Double? = nil, fillColor: Color? = nil, geodesic: Bool? = nil,
        spans: [StyleSpan] = [], icon: String? = nil, iconScale: Double? = nil, markerColor: Color? = nil,
        markerSymbol: String? = nil, markerSize: String? = nil, groundAnchor: Anchor? = nil,
        infoWindowAnchor: Anchor? = nil, rotation: Double? = nil, opacity: Double? = nil, zIndex: Int? = nil
    ) {
        let fields = Fields(
            strokeColor: strokeColor, strokeWidth: strokeWidth, fillColor: fillColor, geodesic: geodesic,
            spans: spans, icon: icon, iconScale: iconScale, markerColor: markerColor,
            markerSymbol: markerSymbol, markerSize: markerSize, groundAnchor: groundAnchor,
            infoWindowAnchor: infoWindowAnchor, rotation: rotation, opacity: opacity, zIndex: zIndex)
        box = fields == Fields() ? nil : Box(fields)
    }

    public static func == (lhs: Style, rhs: Style) -> Bool {
        lhs.box === rhs.box || lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(fields) }

    /// The identity of the box the fields live in (`nil` while nothing is specified): a copy
    /// of a style, unchanged since, has its identity. Valid while a style holding the box
    /// lives; no reference is counted to tell.
    @inlinable package var boxIdentity: ObjectIdentifier? {
        guard let box else { return nil }
        return ObjectIdentifier(box)
    }

    /// Whether a writer may write `other` as it wrote this style: the same box, or equal
    /// fields none of which is a negative zero (equal to zero, and written `-0`).
    package func writesAs(_ other: Style) -> Bool {
        guard box !== other.box else { return true }
        return self == other && !(box?.holdsNegativeZero ?? false) && !(other.box?.holdsNegativeZero ?? false)
    }

    /// Whether nothing is specified.
    public var isEmpty: Bool {
        guard let box else { return true }
        return box.holdsNothing
    }
}
