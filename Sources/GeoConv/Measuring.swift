import GeoConvParallel

/// What `geoconv measure` found: each feature's length and area, and their totals.
public struct MeasurementReport: Hashable, Sendable {
    /// One feature's measurements.
    public struct Row: Hashable, Sendable {
        /// The feature's index in the input, from 0.
        public var index: Int
        /// Metres: lines along their length, polygons around every ring, circles round; 0 for points.
        public var length: Double
        /// Square metres: polygons' outer rings less their holes, circles; 0 for lines and points.
        public var area: Double
        /// The feature's title, when it has one.
        public var title: String?

        /// Creates a row.
        public init(index: Int, length: Double, area: Double, title: String? = nil) {
            self.index = index
            self.length = length
            self.area = area
            self.title = title
        }
    }

    /// How edges were measured.
    public var kind: LengthKind
    /// The Earth's shape used.
    public var model: EarthModel
    /// Every feature, in input order.
    public var features: [Row]
    /// The sum of the lengths, metres.
    public var totalLength: Double
    /// The sum of the areas, square metres.
    public var totalArea: Double
    /// Warnings from reading and reprojecting, one line per kind.
    public var warnings: [String]
}

extension Converter {
    /// Measures every feature of an input (as `options.selection` selects them: a row per
    /// feature kept, numbered from 0) with `measurer`, in WGS84 longitude/latitude: the
    /// input is first reprojected from its CRS, `options.sourceCRS` (`--s-srs`) or else what
    /// the file says (an EWKT/EWKB SRID, a GeoJSON `crs` member), as a conversion does.
    ///
    /// Longitudes beyond ±180° are read as continuing across the antimeridian, as conversion
    /// reads them. Every length and area returned is a finite number.
    ///
    /// - Throws: `invalidInput` at the feature when one of its positions is not a
    ///   longitude/latitude even then (a latitude beyond ±90°, a longitude beyond ±360°):
    ///   typically projected data whose CRS was not given, and the hint says to give it with
    ///   `--s-srs`. Errors of reading and reprojecting as `convert` throws them.
    public func measure(
        _ input: InputSource, with measurer: Measurer, options: ConversionOptions = ConversionOptions()
    )
        throws(GeoConvError) -> MeasurementReport
    {
        let reader = try ByteReader(input)
        let format = try inputFormat(for: input, reader: reader, options: options)
        guard let reading = format.reading else { throw GeoConvError(.usage, "\(format.name) cannot be read") }
        let readerOptions = format.readerOptions(options, for: input)
        let log = DiagnosticLog()
        var report = MeasurementReport(
            kind: measurer.kind, model: measurer.model, features: [], totalLength: 0, totalArea: 0,
            warnings: [])
        do throws(GeoConvError) {
            var reproject = Reproject(sourceCRS: options.sourceCRS)
            var selection = try selectionTransforms(options)()
            var (features, header) = try reading.open(
                reader, options: readerOptions, inputName: input.displayName,
                diagnostics: log)
            _ = try reproject.transform(header, diagnostics: log)
            _ = try selection.apply(to: header, diagnostics: log)
            var remaining = options.selection.limit ?? .max
            while remaining > 0, let read = try features.next() {
                let location = features.lastLocation
                log.currentLocation = location
                for feature in try selection.apply(to: read, diagnostics: log) where remaining > 0 {
                    remaining -= 1
                    let index = report.features.count
                    var geographic = feature
                    do throws(GeoConvError) {
                        geographic = try reproject.transform(feature, diagnostics: log).first ?? feature
                    } catch {
                        throw error.location == nil
                            ? GeoConvError(error.code, error.message, at: location, hint: error.hint) : error
                    }
                    if let geometry = geographic.geometry {
                        try GeographicRangeCheck.requireLongitudeLatitude(
                            geometry, what: "measure", index: index, at: location)
                    }
                    let (length, area) = geographic.geometry.map(measurer.measure) ?? (0, 0)
                    guard length.isFinite, area.isFinite else {
                        throw GeoConvError(
                            .invalidInput,
                            "feature \(index) cannot be measured: its length or area is not a finite number",
                            at: location, hint: "check its coordinates and, for a circle, its radius")
                    }
                    report.features.append(
                        MeasurementReport.Row(index: index, length: length, area: area, title: geographic.title))
                    report.totalLength += length
                    report.totalArea += area
                }
            }
        } catch {
            if error.location != nil, error.location?.file == nil { throw error.inFile(input.displayName) }
            throw error
        }
        report.warnings = log.summary
        return report
    }

}
