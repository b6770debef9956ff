/// An sRGB colour with opacity.
///
/// Two spellings matter: CSS / simplestyle `#rrggbb` with a separate opacity (GeoJSON), and
/// KML's `aabbggrr` (alpha, blue, green, red). `Color(kml: "7fff0000")` is blue at 50 %
/// opacity; its `cssHex` is `#0000ff` and `opacity` 0.498.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) … 1 (opaque). Kept as a fraction so that CSS opacities such
    /// as 0.5 survive; KML output rounds it to 8 bits.
    public var opacity: Double

    /// Creates a colour from 8-bit channels and an opacity in 0…1 (clamped).
    public init(red: UInt8, green: UInt8, blue: UInt8, opacity: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.opacity = opacity.isNaN ? 1 : min(1, max(0, opacity))
    }

    /// Parses a CSS colour: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` (with or without `#`), a
    /// CSS named colour (`steelblue`, `transparent`, any of CSS Color 4's 148), or
    /// `rgb()`/`rgba()`/`hsl()`/`hsla()`. Returns `nil` for anything else.
    public init?(css text: String) {
        let trimmed = text.trimmingASCIIWhitespace().lowercased()
        if let parsed = CSSColor.parse(trimmed) {
            self = parsed
            return
        }
        var hex = Substring(trimmed)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard let value = UInt32(hex, radix: 16), hex.allSatisfy(\.isHexDigit) else { return nil }
        switch hex.count {
        case 3:
            let r = UInt8((value >> 8) & 0xF)
            let g = UInt8((value >> 4) & 0xF)
            let b = UInt8(value & 0xF)
            self.init(red: r * 17, green: g * 17, blue: b * 17)
        case 4:
            let r = UInt8((value >> 12) & 0xF)
            let g = UInt8((value >> 8) & 0xF)
            let b = UInt8((value >> 4) & 0xF)
            self.init(red: r * 17, green: g * 17, blue: b * 17, opacity: Double(value & 0xF) / 15)
        case 6:
            self.init(red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
        case 8:
            self.init(
                red: UInt8((value >> 24) & 0xFF), green: UInt8((value >> 16) & 0xFF),
                blue: UInt8((value >> 8) & 0xFF), opacity: Double(value & 0xFF) / 255)
        default:
            return nil
        }
    }

    /// Parses a KML colour `aabbggrr` (eight hex digits, an optional leading `#`, surrounding
    /// whitespace ignored, as Google Earth and GDAL accept). Returns `nil` otherwise.
    public init?(kml text: String) {
        var hex = Substring(text.trimmingASCIIWhitespace())
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.count == 8, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else { return nil }
        self.init(
            red: UInt8(value & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8((value >> 16) & 0xFF),
            opacity: Double(value >> 24) / 255)
    }

    /// `#rrggbb`, lower case, without the opacity.
    public var cssHex: String { "#" + Color.hexByte(red) + Color.hexByte(green) + Color.hexByte(blue) }

    /// The opacity as a byte, rounded to nearest (0.5 → 128).
    public var alphaByte: UInt8 { UInt8((opacity * 255).rounded()) }

    /// KML's `aabbggrr`, lower case.
    public var kmlHex: String {
        Color.hexByte(alphaByte) + Color.hexByte(blue) + Color.hexByte(green) + Color.hexByte(red)
    }

    /// The same colour with another opacity.
    public func withOpacity(_ opacity: Double) -> Color { Color(red: red, green: green, blue: blue, opacity: opacity) }

    /// `#rrggbb` with the opacity appended when not opaque, e.g. `#0000ff@0.498`.
    public var description: String { opacity >= 1 ? cssHex : cssHex + "@" + DecimalFormatter.fixed(opacity, digits: 3) }

    /// Opaque black, the Maps SDK default stroke of polygons and circles.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 255, green: 255, blue: 255)
    /// Opaque blue (`UIColor.blueColor`), the Maps SDK default polyline stroke.
    public static let blue = Color(red: 0, green: 0, blue: 255)
    /// Opaque red.
    public static let red = Color(red: 255, green: 0, blue: 0)
    /// Fully transparent, the Maps SDK default fill of circles.
    public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)

    static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }

}

extension StringProtocol {
    /// The text without leading and trailing ASCII spaces, tabs and line breaks.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
