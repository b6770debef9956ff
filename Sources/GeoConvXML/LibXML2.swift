internal import CLibXML2

/// Facts about the libxml2 library geoconv parses XML with.
public enum LibXML2 {
    /// The runtime library's version, e.g. `2.9.14` (from `xmlParserVersion`, "20914").
    public static var version: String {
        guard let raw = geoconv_xmlParserVersion() else { return "unknown" }
        let digits = String(cString: raw)
        guard let number = Int(digits) else { return digits }
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }
}
