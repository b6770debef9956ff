internal import DequeModule
import GeoConvCore

/// The document's tables, as a Placemark reads through them: shared styles and StyleMaps,
/// schemas and KML 2.0 placemark types. The main reader fills them as it meets their
/// definitions; a run read on a worker starts from a copy (`KMLReaderSnapshot`).
struct KMLDocumentTables {
    var styles: [String: KMLStyle] = [:]
    var styleMaps: [String: KMLStyleMap] = [:]
    /// Shared styles that hold nothing geoconv keeps (reported where defined): a styleUrl
    /// naming one is reported too, since nothing of it is written.
    var droppedStyles: Set<String> = []
    var schemas: [String: [String: (type: String, displayName: String?)]] = [:] {
        didSet {
            lastSchemaData = nil
            lastSchemaFields = []
        }
    }
    /// The last `<SchemaData>`'s `schemaUrl` as written and the schema it names, and the field
    /// of each of its SimpleData in order (most placemarks repeat the one before): no lookup
    /// by name while they do (`parseExtendedData`).
    var lastSchemaData: (url: String, schema: [String: (type: String, displayName: String?)])?
    var lastSchemaFields: [(key: String, field: (type: String, displayName: String?)?)] = []
    /// KML 2.0-style placemark types: `<Schema parent="Placemark" name="X">` makes `<X>` a Placemark.
    var placemarkAliases: [String: [String: (type: String, displayName: String?)]] = [:]
    /// Styles defined after their first use, read on demand (`KMLForwardStyles`).
    var forwardStyles: KMLForwardStyles?

    /// These tables without what the last placemark cached (a run's reader looks its
    /// SchemaData up afresh).
    var withoutCaches: KMLDocumentTables {
        var tables = self
        tables.lastSchemaData = nil
        tables.lastSchemaFields = []
        return tables
    }
}

/// What the document's end reports, learnt while reading: the styles and schema fields used
/// and where each was defined (unused ones are reported), StyleMaps' places (loops are
/// reported at each), and the NetworkLinks met (a document of nothing but links to other
/// places is reported).
struct KMLDocumentReports {
    /// The ids of the Styles and StyleMaps a feature's `styleUrl` resolved to (runs' too), and
    /// the last one added (most placemarks repeat the one before).
    var usedStyles: Set<String> = []
    var lastUsedStyle: String?
    /// The names of the SimpleData and gx:SimpleArrayData read (the schema fields in use),
    /// and where each field of a schema (other than the old `parent` kind) is defined.
    var usedFields: Set<String> = []
    var schemaFieldDefinitions: [(name: String, location: SourceLocation, schema: SourceLocation)] = []
    /// Where each StyleMap is defined (the document's reader only).
    var styleMapPlaces: [String: SourceLocation] = [:]
    /// The shared styles defined in the document, in order, with where each starts.
    var styleDefinitions: [(id: String, location: SourceLocation)] = []
    /// Features met (runs' counted by their placemarks), and the NetworkLinks to other
    /// places among them.
    var featuresMet = 0
    var remoteLinks: [(href: String, location: SourceLocation)] = []
}

/// `--jobs` on the main reader: runs of Placemarks cut out and handed to the pipeline's
/// workers (`nextCut`), or read on this thread when nobody takes them (`KMLRunReading`).
struct KMLRunScheduling {
    /// The runs found in the document (main reader), and the name of the element that stands
    /// for a run (main reader) or wraps one (a run's reader).
    var runs: KMLRunReading?
    var runElement: String?
    /// Handing the runs out (`nextCut`): the pieces of the cut being made, the features read
    /// here since the last piece, and the bytes the cut holds; `nil` before the first cut.
    var cut: [KMLCutPiece]?
    var cutFeatures = Deque<(feature: Feature, location: SourceLocation?)>()
    var cutBytes = 0
    /// While cutting: the styles the runs' placemarks use, read on workers, and whether the
    /// document's end was met, so that the unused ones are reported once every run has been
    /// read (the first `next()` after the runs).
    let cutStyleUses = KMLStyleUses()
    var unusedStylesDue = false
}
