import GeoConvCore
import GeoConvIO
internal import GeoConvXML
internal import Synchronization

/// Styles defined after the placemarks that use them, found as Google Earth finds them: by
/// reading the whole document. A streaming reader knows only the styles before a placemark;
/// on the first `styleUrl` that names none of them, the document is read once more from its
/// start for its `Style`, `StyleMap` and `gx:CascadingStyle` definitions (a file or memory
/// input; standard input cannot be read twice, and the style is then reported unresolved).
/// Shared by the reader of a document and the readers of its runs (any thread).
final class KMLForwardStyles: Sendable {
    private let reread: (@Sendable () throws(GeoConvError) -> ByteReader)?
    private let maximumDepth: Int
    private let tables = Mutex<(styles: [String: KMLStyle], maps: [String: KMLStyleMap])?>(nil)

    init(reread: (@Sendable () throws(GeoConvError) -> ByteReader)?, maximumDepth: Int) {
        self.reread = reread
        self.maximumDepth = maximumDepth
    }

    /// Whether a second reading is possible at all.
    var canReread: Bool { reread != nil }

    /// The Style or StyleMap with `id` anywhere in the document (the first reading of it
    /// happens here, once).
    func definition(of id: String) -> (style: KMLStyle?, map: KMLStyleMap?) {
        tables.withLock { tables in
            if tables == nil { tables = scan() }
            return (tables?.styles[id], tables?.maps[id])
        }
    }

    /// Every style definition of the document. A document that stops being well-formed
    /// further on gives the definitions before that place (its reader reports the error).
    private func scan() -> (styles: [String: KMLStyle], maps: [String: KMLStyleMap]) {
        guard let reread else { return ([:], [:]) }
        let state: KMLReaderState
        do throws(GeoConvError) {
            let input = try reread()
            let parser: XMLPullParser
            do {
                parser = try XMLPullParser(maximumDepth: maximumDepth) { buffer in try input.read(into: buffer) }
            } catch {
                return ([:], [:])
            }
            state = KMLReaderState(
                parser: parser, name: input.name, options: KMLReadOptions(maximumDepth: maximumDepth),
                diagnostics: DiagnosticLog())
        } catch {
            return ([:], [:])
        }
        do throws(XMLParseError) {
            while let event = try state.parser.next() {
                guard case .start(let element, let isEmpty) = event,
                    element == "Style" || element == "StyleMap" || element == "CascadingStyle"
                else { continue }
                _ = try state.start(element, isEmpty: isEmpty)
            }
        } catch {
            // Keep what was found before the error.
        }
        return (state.tables.styles, state.tables.styleMaps)
    }
}
