import GeoConvCore

/// The diagnostic codes of what any writer loses as a whole: header parts, embedded files,
/// every feature: each spelled once, here, and listed with its meaning in `docs/errors.md`
/// (checked against these in both directions).
package enum WritingCode: String, DiagnosticCodes {
    case documentPartsDropped = "document.parts-dropped"
    case embeddedFilesDropped = "embedded-files-dropped"
    case outputEmpty = "output.empty"
}
