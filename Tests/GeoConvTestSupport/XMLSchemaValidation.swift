import Foundation

#if canImport(CLibXML2)
import CLibXML2
#elseif canImport(libxml2)
import libxml2
#endif

/// Validates XML against an XSD with libxml2 (`xmlSchemaParse`, `xmlSchemaValidateDoc`), as
/// `xmllint --schema` does, collecting every error with its line.
public enum XMLSchemaValidation {
    /// The OGC KML 2.2 schema with Google's gx extension, in the shared conformance corpus.
    public static let kmlSchema = Fixtures.conformance.appendingPathComponent("kml/schema/kml-and-gx.xsd").path
    /// Whether the KML schema is there to validate against.
    public static var hasKMLSchema: Bool { FileManager.default.fileExists(atPath: kmlSchema) }

    /// Errors collected by libxml2's callback (tests run one validation at a time per call).
    private final class Collector {
        var messages: [String] = []
    }

    /// The schema's validity errors for `document` (empty when it is valid); a failure to
    /// load the schema or parse the document is an error too.
    public static func errors(in document: [UInt8], schema path: String) -> [String] {
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        let handler: xmlStructuredErrorFunc = { context, error in
            guard let context, let error else { return }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            let message = error.pointee.message.map { String(cString: $0) } ?? "error"
            collector.messages.append(
                "line \(error.pointee.line): " + message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard let parser = xmlSchemaNewParserCtxt(path) else { return ["cannot read the schema \(path)"] }
        defer { xmlSchemaFreeParserCtxt(parser) }
        xmlSchemaSetParserStructuredErrors(parser, handler, context)
        guard let schema = xmlSchemaParse(parser) else {
            return ["the schema \(path) does not load"] + collector.messages
        }
        defer { xmlSchemaFree(schema) }
        guard let validator = xmlSchemaNewValidCtxt(schema) else { return ["no validation context"] }
        defer { xmlSchemaFreeValidCtxt(validator) }
        xmlSchemaSetValidStructuredErrors(validator, handler, context)
        let parsed: xmlDocPtr? = document.withUnsafeBufferPointer { bytes in
            bytes.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    xmlReadMemory($0, Int32(bytes.count), "output.xml", nil, Int32(XML_PARSE_NONET.rawValue))
                }
            }
        }
        guard let doc = parsed else { return ["the document is not well-formed XML"] }
        defer { xmlFreeDoc(doc) }
        let result = xmlSchemaValidateDoc(validator, doc)
        if result != 0, collector.messages.isEmpty { return ["invalid (libxml2 code \(result))"] }
        return collector.messages
    }
}
