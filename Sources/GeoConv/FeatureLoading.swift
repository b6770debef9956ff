import GeoConvParallel

/// An input opened to be read feature by feature, as `OverlayDocument.load` and
/// `FeatureSequence` read it: the format chosen as `convert` chooses it, positions checked
/// for the geographic range, and features reprojected to WGS84 on request; the selection
/// (`ConversionOptions.selection`) applied first, as a conversion applies it.
struct FeatureLoading {
    /// The format the input is read as.
    let format: FileFormat
    /// The header, through the transforms.
    private(set) var header = DocumentHeader()
    private var features: any FeatureReader
    private var transforms: [any FeatureTransform]
    private let diagnostics: DiagnosticLog
    private let inputName: String
    /// Features still to hand out (`--limit`).
    private var remaining: Int
    /// The style rules among the transforms, reported on at the end of the input.
    private var styling: StyleRules?
    /// The classes of `--classify` among the transforms.
    let classes: FeatureClasses?

    init(
        _ input: InputSource, options: ConversionOptions, converter: Converter, reprojectingToWGS84: Bool,
        diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        let reader = try ByteReader(input)
        format = try converter.inputFormat(for: input, reader: reader, options: options)
        guard let reading = format.reading else { throw GeoConvError(.usage, "\(format.name) cannot be read") }
        inputName = input.displayName
        self.diagnostics = diagnostics
        remaining = options.selection.limit ?? .max
        classes = try converter.featureClasses(for: input, options: options, diagnostics: diagnostics)
        styling = try converter.styleRules(options, diagnostics: diagnostics)
        transforms =
            try converter.selectionTransforms(options, classes: classes, styling: styling)()
            + [GeographicRangeCheck(sourceCRS: options.sourceCRS)]
        if reprojectingToWGS84 { transforms.append(Reproject(sourceCRS: options.sourceCRS)) }
        do throws(GeoConvError) {
            let readerOptions = format.readerOptions(options, for: input)
            let read: DocumentHeader
            (features, read) = try reading.open(
                reader, options: readerOptions, inputName: inputName,
                diagnostics: diagnostics)
            header = try transforms.apply(to: read, diagnostics: diagnostics)
        } catch {
            throw Self.located(error, in: input.displayName)
        }
    }

    /// Reads one feature of the input and calls `emit` with what the transforms make of it
    /// (none, one or several); `false` at the end of the input.
    mutating func next(_ emit: (inout Feature) throws(GeoConvError) -> Void) throws(GeoConvError) -> Bool {
        do throws(GeoConvError) {
            guard remaining > 0, let feature = try features.next() else {
                diagnostics.currentLocation = nil
                try styling.take()?.reportUnused(into: diagnostics)
                return false
            }
            diagnostics.currentLocation = features.lastLocation
            try transforms.apply(to: feature, diagnostics: diagnostics) { (item: inout Feature) throws(GeoConvError) in
                guard remaining > 0 else { return }
                remaining -= 1
                try emit(&item)
            }
            return true
        } catch {
            throw Self.located(error, in: inputName)
        }
    }

    /// The error with the input's name in its location, where the reader gave none (a place
    /// without a file, or no place: a strict warning about the header).
    static func located(_ error: GeoConvError, in name: String) -> GeoConvError {
        error.location?.file == nil ? error.inFile(name) : error
    }
}
