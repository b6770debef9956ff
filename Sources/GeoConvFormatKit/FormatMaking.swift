public import GeoConvCore
public import GeoConvIO

/// How a format makes its reader, typed by what the reader can do: features one at a time
/// (`features`), runs of them for `--jobs` (`runs`), a marker index for `geoconv cluster`
/// (`markers`). A format registers its reader with the one its type conforms to; whoever
/// needs a refinement asks for it here and gets the reader as one, without a cast.
public struct ReaderMaking: Sendable {
    /// Makes a reader from the input, the conversion's options and the reading log.
    public typealias Make<Reader> =
        @Sendable (ByteReader, ConversionOptions, DiagnosticLog) throws(GeoConvError)
        -> Reader

    /// Makes the reader, as a reader of features.
    public let features: Make<any FeatureReader>
    /// Makes the reader as a cutter of runs, when it is one.
    public let runs: Make<any FeatureRunReader>?
    /// Makes the reader as a marker index, when it is one.
    public let markers: Make<any MarkerIndexReader>?

    private init(
        features: @escaping Make<any FeatureReader>, runs: Make<any FeatureRunReader>?,
        markers: Make<any MarkerIndexReader>?
    ) {
        self.features = features
        self.runs = runs
        self.markers = markers
    }

    /// A reader of features one at a time.
    public static func features(_ make: @escaping Make<any FeatureReader>) -> ReaderMaking {
        ReaderMaking(features: make, runs: nil, markers: nil)
    }

    /// A reader that also cuts its features into runs.
    public static func runs(_ make: @escaping Make<any FeatureRunReader>) -> ReaderMaking {
        ReaderMaking(
            features: { (input, options, log) throws(GeoConvError) in try make(input, options, log) },
            runs: make, markers: nil)
    }

    /// A reader that also cuts runs and indexes markers.
    public static func markers(_ make: @escaping Make<any MarkerIndexReader>) -> ReaderMaking {
        ReaderMaking(
            features: { (input, options, log) throws(GeoConvError) in try make(input, options, log) },
            runs: { (input, options, log) throws(GeoConvError) in try make(input, options, log) },
            markers: make)
    }
}

/// How a format makes its writer, typed by what the writer can do: features one at a time
/// (`features`), or records written on other threads too (`records`), and whether it keys
/// its losses when writing into nowhere (`keyedFeatures`, `keyedRecords`). The parallel route
/// asks for `records` and gets every writer as a `RecordAppendingWriter`, one that declines
/// records apart when the format's writer is a plain `FeatureWriter`; `geoconv info` asks for
/// `keyed` and gets every writer as a `LossKeyedWriter`, one that keys nothing when the
/// format's writer does not.
public struct WriterMaking: Sendable {
    /// Makes a writer into the output, with the conversion's options and log.
    public typealias Make<Writer> =
        @Sendable (ByteWriter, ConversionOptions, DiagnosticLog) throws(GeoConvError)
        -> Writer
    /// Makes the writer, as a writer of features.
    public let features: Make<any FeatureWriter>
    /// Makes the writer as one that takes records written elsewhere.
    public let records: Make<any RecordAppendingWriter>
    /// Makes the writer as one that keys its losses.
    public let keyed: Make<any LossKeyedWriter>
    /// Whether its records are written on other threads (`records(_:)`), not through a
    /// `RecordlessWriter`.
    public let writesRecords: Bool

    private init(
        features: @escaping Make<any FeatureWriter>, records: @escaping Make<any RecordAppendingWriter>,
        keyed: @escaping Make<any LossKeyedWriter>, writesRecords: Bool
    ) {
        self.features = features
        self.records = records
        self.keyed = keyed
        self.writesRecords = writesRecords
    }

    /// A writer of features one at a time.
    public static func features(_ make: @escaping Make<any FeatureWriter>) -> WriterMaking {
        WriterMaking(
            features: make,
            records: { (output, options, log) throws(GeoConvError) in
                RecordlessWriter(try make(output, options, log))
            },
            keyed: { (output, options, log) throws(GeoConvError) in UnkeyedWriter(try make(output, options, log)) },
            writesRecords: false)
    }

    /// A writer of features one at a time that keys its losses.
    public static func keyedFeatures(_ make: @escaping Make<any LossKeyedWriter>) -> WriterMaking {
        WriterMaking(
            features: { (output, options, log) throws(GeoConvError) in try make(output, options, log) },
            records: { (output, options, log) throws(GeoConvError) in
                RecordlessWriter(try make(output, options, log))
            },
            keyed: make, writesRecords: false)
    }

    /// A writer whose records can also be written on other threads.
    public static func records(_ make: @escaping Make<any RecordAppendingWriter>) -> WriterMaking {
        WriterMaking(
            features: { (output, options, log) throws(GeoConvError) in try make(output, options, log) },
            records: make,
            keyed: { (output, options, log) throws(GeoConvError) in UnkeyedWriter(try make(output, options, log)) },
            writesRecords: true)
    }

    /// A writer whose records can also be written on other threads, and that keys its losses.
    public static func keyedRecords(
        _ make: @escaping Make<any RecordAppendingWriter & LossKeyedWriter>
    ) -> WriterMaking {
        WriterMaking(
            features: { (output, options, log) throws(GeoConvError) in try make(output, options, log) },
            records: { (output, options, log) throws(GeoConvError) in try make(output, options, log) },
            keyed: { (output, options, log) throws(GeoConvError) in try make(output, options, log) },
            writesRecords: true)
    }
}
