import GeoConvCore
import GeoConvFormatKit
import GeoConvIO

/// A CSV in a legacy encoding (`--csv-encoding CP1252`: what Excel on Windows and old exports
/// write), decoded to UTF-8 before it is read. Without the option a CSV is UTF-8, as GDAL
/// reads it; bytes that are not UTF-8 are then read as U+FFFD, with `csv.invalid-utf8`.
enum CSVEncoding {
    /// `input`, decoded from the encoding the options name (as it is when they name none or
    /// UTF-8); reports bytes that are no text in that encoding.
    static func open(
        _ input: ByteReader, options: ConversionOptions, diagnostics: DiagnosticLog
    ) throws(GeoConvError)
        -> ByteReader
    {
        guard let given = options.formatOptions[CSVOptions.encoding] else { return input }
        guard let name = TextDecoder.iconvName(given) else {
            throw GeoConvError(
                .usage, "--\(CSVOptions.encoding.name) names no encoding",
                hint: "name one, e.g. CP1252, ISO-8859-1, ISO-8859-15 or UTF-8")
        }
        if name == "UTF-8" { return input }
        let decoder = try TextDecoder(from: name, optionName: "--" + CSVOptions.encoding.name)
        let decoded = try input.decoded(by: decoder)
        diagnostics.note(
            CSVCode.decoded,
            "read as \(name) text (--\(CSVOptions.encoding.name));"
                + " places count the bytes of its UTF-8")
        if decoder.invalidBytes > 0 {
            try diagnostics.warn(
                CSVCode.invalidEncoding,
                "\(decoder.invalidBytes) byte(s) are no character of \(name): each is read as U+FFFD",
                hint: "check the encoding: --\(CSVOptions.encoding.name) names the file's own")
        }
        return decoded
    }
}
