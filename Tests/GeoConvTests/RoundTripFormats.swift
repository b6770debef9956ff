import GeoConv

/// The formats the round-trip checks write whole corpora and generated features through and
/// read back: every format of this build's registry that reads and writes, but one whose
/// output holds one geometry (`holdsOneGeometry`), each with the tolerance of its numbers
/// (`defaultDecimals`: a polyline keeps 5). A new format takes part by its registry line.
enum RoundTripFormats {
    /// The formats, in the registry's order, with their tolerances.
    public static let all: [(format: FileFormat, tolerance: Double)] = FormatRegistry.standard.formats.compactMap {
        format in
        guard format.makeReader != nil, format.makeWriter != nil, !format.capabilities.holdsOneGeometry else {
            return nil
        }
        let tolerance = format.capabilities.defaultDecimals.flatMap { Double("1e-\($0)") } ?? 0
        return (format, tolerance)
    }
}
