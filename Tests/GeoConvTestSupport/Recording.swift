public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO

/// A writer that keeps what it is given — the header, every feature in order, whether it was
/// finished — and writes nothing: for tests that look at what a reader or a pipeline hands
/// on, rather than at one format's bytes.
public struct RecordingWriter: FeatureWriter {
    /// The header `begin` was given.
    public private(set) var header: DocumentHeader?
    /// The features written, in order.
    public private(set) var features: [Feature] = []
    /// Whether `finish()` was called (only after everything succeeded).
    public private(set) var finished = false

    /// An empty recording.
    public init() {}

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) { self.header = header }

    public mutating func write(_ feature: Feature) throws(GeoConvError) { features.append(feature) }

    public mutating func finish() throws(GeoConvError) { finished = true }
}

/// What a reader made of an input: its header, features and every diagnostic, recorded.
public struct Recording {
    /// The header and features, as a `RecordingWriter` got them.
    public var writer: RecordingWriter
    /// The reader's warnings and notes.
    public var diagnostics: DiagnosticLog

    /// Reads `input` with `format`'s reader (no transforms), recording what it gives.
    public static func read(
        _ input: ByteReader, as format: FileFormat, options: ConversionOptions = ConversionOptions()
    )
        throws(GeoConvError) -> Recording
    {
        guard let makeReader = format.makeReader else {
            throw GeoConvError(.usage, "\(format.name) cannot be read")
        }
        let diagnostics = DiagnosticLog()
        diagnostics.listsEveryWarning = true
        var reader = try makeReader(input, options, diagnostics)
        var writer = RecordingWriter()
        try pump(from: &reader, to: &writer, diagnostics: diagnostics)
        return Recording(writer: writer, diagnostics: diagnostics)
    }
}

/// Inputs that arrive a byte at a time, as from a slow pipe: every reader must read them as
/// it reads the whole input at once.
public enum DripFeed {
    /// A reader of `bytes` named `name` whose every read hands out one byte.
    public static func reader(_ bytes: [UInt8], name: String) throws(GeoConvError) -> ByteReader {
        let reader = try ByteReader(.memory(bytes, name: name))
        reader.maximumReadSize = 1
        return reader
    }
}

/// A format's reader and writer run in memory, through the format's registration (its
/// `FileFormat`) and nothing of the pipeline: for a codec's own tests.
public enum FormatIO {
    /// What `format`'s reader makes of `text`: header, features and diagnostics.
    public static func read(
        _ text: String, as format: FileFormat, name: String = "test", options: ConversionOptions = ConversionOptions()
    ) throws(GeoConvError) -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog) {
        try read(bytes: Array(text.utf8), as: format, name: name, options: options)
    }

    /// What `format`'s reader makes of `bytes`, named `name`.
    public static func read(
        bytes: [UInt8], as format: FileFormat, name: String = "test", options: ConversionOptions = ConversionOptions()
    ) throws(GeoConvError) -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog) {
        try read(try ByteReader(.memory(bytes, name: name)), as: format, options: options)
    }

    /// What `format`'s reader makes of `input`.
    public static func read(
        _ input: ByteReader, as format: FileFormat, options: ConversionOptions = ConversionOptions()
    ) throws(GeoConvError) -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog) {
        guard let makeReader = format.makeReader else { throw GeoConvError(.usage, "\(format.name) cannot be read") }
        let diagnostics = DiagnosticLog()
        var reader = try makeReader(input, options, diagnostics)
        let header = try reader.readHeader()
        var features: [Feature] = []
        while let feature = try reader.next() { features.append(feature) }
        return (header, features, diagnostics)
    }

    /// `features` written by `format`'s writer to the file at `path` (a format of several
    /// files, such as a shapefile, writes them beside it), with its diagnostics.
    @discardableResult
    public static func write(
        _ features: [Feature], header: DocumentHeader = DocumentHeader(), as format: FileFormat, toFile path: String,
        options: ConversionOptions = ConversionOptions()
    ) throws(GeoConvError) -> DiagnosticLog {
        guard let makeWriter = format.makeWriter else { throw GeoConvError(.usage, "\(format.name) cannot be written") }
        let output = try ByteWriter(.file(path))
        let diagnostics = DiagnosticLog()
        var writer = try makeWriter(output, options, diagnostics)
        try writer.begin(header)
        for feature in features { try writer.write(feature) }
        try writer.finish()
        try output.commit()
        return diagnostics
    }

    /// `features` as `format`'s writer writes them into memory, with its diagnostics.
    public static func write(
        _ features: [Feature], header: DocumentHeader = DocumentHeader(), as format: FileFormat,
        options: ConversionOptions = ConversionOptions(), strict: Bool = false
    ) throws(GeoConvError) -> (bytes: [UInt8], diagnostics: DiagnosticLog) {
        guard let makeWriter = format.makeWriter else { throw GeoConvError(.usage, "\(format.name) cannot be written") }
        let output = try ByteWriter(.memory)
        let diagnostics = DiagnosticLog(strict: strict)
        var writer = try makeWriter(output, options, diagnostics)
        try writer.begin(header)
        for feature in features { try writer.write(feature) }
        try writer.finish()
        return (output.memoryContents, diagnostics)
    }
}
