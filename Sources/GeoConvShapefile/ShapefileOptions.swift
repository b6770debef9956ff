import GeoConvCore
public import GeoConvFormatKit

/// The options shapefile readers and writers take (`ConversionOptions.formatOptions`).
public enum ShapefileOptions {
    /// The DBF's text encoding, overriding its `.cpg` and language driver id.
    public static let encoding = FormatOption<String>(
        name: "shp-encoding", key: "ENCODING", sides: .read,
        help: "The DBF's text encoding when its .cpg or header is wrong or missing (CP1252, ISO-8859-1, UTF-8…).",
        valueName: "encoding")
    /// The one geometry kind to write (`points`, `multipoints`, `lines`, `polygons`).
    public static let kind = FormatOption<String>(
        name: "shp-kind", key: "KIND", sides: .write,
        help: "Write only this geometry kind to the shapefile: points, multipoints, lines or polygons (others are "
            + "reported as dropped).", valueName: "kind")
}
