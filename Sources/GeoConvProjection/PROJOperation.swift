#if PROJ
// Built with the PROJ trait only.
internal import GeoConvCore
internal import GeoConvFormatKit
internal import CPROJ

/// The runtime PROJ library's version, e.g. `9.1.1` (from `proj_info()`).
func linkedPROJVersion() -> String {
    let info = proj_info()
    return "\(info.major).\(info.minor).\(info.patch)"
}

/// A coordinate transformation between two CRSs through PROJ, with axis order normalised to
/// longitude/latitude (easting/northing) on both sides, the network disabled, and PROJ's
/// errors turned into `GeoConvError`s. Coordinates go through in batches
/// (`proj_trans_generic`). One instance belongs to one thread.
final class PROJOperation {
    private let context: OpaquePointer
    private let operation: OpaquePointer
    /// The source CRS as given.
    let source: String
    /// The target CRS as given.
    let target: String
    /// The source CRS's name, as PROJ knows it.
    let sourceName: String
    /// Whether the source CRS is geographic (degrees).
    let sourceIsGeographic: Bool
    /// The source CRS's area of use in longitude/latitude degrees, when PROJ knows it.
    let areaOfUse: CoordinateBounds?
    /// Grids the chosen operation needs but PROJ does not have (accuracy is then lower).
    let missingGrids: [String]
    /// The chosen operation's accuracy in metres (`nil` when unknown).
    let accuracy: Double?

    /// Prepares a transformation, e.g. from `EPSG:3857`, `+proj=utm +zone=33`, a WKT2 string or
    /// `urn:ogc:def:crs:EPSG::2154` to `OGC:CRS84`.
    /// What to give instead of a CRS PROJ does not know. An Esri code written as an EPSG one
    /// (`urn:ogc:def:crs:EPSG::102645`, as some exporters write Esri's State Plane feet CRSs)
    /// is named as what it is: `ESRI:102645`.
    static func hint(unknown crs: String) -> String {
        if let (authority, code) = CRSNames.authorityAndCode(crs), authority == "epsg", let number = Int(code),
            (53_000..<55_000).contains(number) || number >= 100_000
        {
            return "EPSG has no code \(code): it is one of Esri's; give ESRI:\(code) (with --s-srs)"
        }
        return "give a CRS PROJ knows: EPSG:n, OGC:CRS84, urn:ogc:def:crs:…, a +proj string or WKT2"
    }

    init(from source: String, to target: String = "OGC:CRS84") throws(GeoConvError) {
        guard let context = proj_context_create() else { throw GeoConvError(.io, "PROJ could not create a context") }
        self.context = context
        proj_context_set_enable_network(context, 0)
        proj_log_level(context, PJ_LOG_NONE)
        self.source = source
        self.target = target
        func failure(_ what: String, crs: String) -> GeoConvError {
            let code = proj_context_errno(context)
            let reason = proj_context_errno_string(context, code).map { String(cString: $0) } ?? "unknown error"
            return GeoConvError(.invalidInput, "\(what): \(reason)", hint: Self.hint(unknown: crs))
        }
        guard let sourceCRS = proj_create(context, Reprojection.crsDefinition(source)) else {
            let error = failure("PROJ does not know the CRS '\(source)'", crs: source)
            proj_context_destroy(context)
            throw error
        }
        guard let targetCRS = proj_create(context, Reprojection.crsDefinition(target)) else {
            let error = failure("PROJ does not know the CRS '\(target)'", crs: target)
            proj_destroy(sourceCRS)
            proj_context_destroy(context)
            throw error
        }
        sourceName = proj_get_name(sourceCRS).map { String(cString: $0) } ?? source
        let type = proj_get_type(sourceCRS)
        sourceIsGeographic = type == PJ_TYPE_GEOGRAPHIC_2D_CRS || type == PJ_TYPE_GEOGRAPHIC_3D_CRS
        var west = 0.0
        var south = 0.0
        var east = 0.0
        var north = 0.0
        if proj_get_area_of_use(context, sourceCRS, &west, &south, &east, &north, nil) == 1, west > -1000 {
            areaOfUse = CoordinateBounds(south: south, west: west, north: north, east: east)
        } else {
            areaOfUse = nil
        }
        guard let raw = proj_create_crs_to_crs_from_pj(context, sourceCRS, targetCRS, nil, nil) else {
            let error = failure("PROJ found no way from '\(source)' to '\(target)'", crs: source)
            proj_destroy(sourceCRS)
            proj_destroy(targetCRS)
            proj_context_destroy(context)
            throw error
        }
        guard let normalized = proj_normalize_for_visualization(context, raw) else {
            let error = failure(
                "PROJ could not put '\(source)' → '\(target)' in longitude/latitude order",
                crs: source)
            proj_destroy(raw)
            proj_destroy(sourceCRS)
            proj_destroy(targetCRS)
            proj_context_destroy(context)
            throw error
        }
        proj_destroy(raw)
        operation = normalized
        defer {
            proj_destroy(sourceCRS)
            proj_destroy(targetCRS)
        }
        // Grids the operation needs that are not installed (a datum change then falls back to
        // a less accurate operation).
        var missing: [String] = []
        let gridCount = proj_coordoperation_get_grid_used_count(context, normalized)
        for index in 0..<gridCount {
            var shortName: UnsafePointer<CChar>?
            var available: Int32 = 0
            if proj_coordoperation_get_grid_used(
                context, normalized, index, &shortName, nil, nil, nil, nil, nil, &available) == 1,
                available == 0
            {
                missing.append(shortName.map { String(cString: $0) } ?? "a grid")
            }
        }
        missingGrids = missing
        let value = proj_coordoperation_get_accuracy(context, normalized)
        accuracy = value >= 0 ? value : nil
    }

    deinit {
        proj_destroy(operation)
        proj_context_destroy(context)
    }

    /// Transforms coordinates in place (x = longitude/easting, y = latitude/northing, z = altitude).
    ///
    /// - Throws: when PROJ cannot transform a coordinate (outside the projection's domain).
    func transform(_ coordinates: inout [Coordinate]) throws(GeoConvError) {
        guard !coordinates.isEmpty else { return }
        var x = coordinates.map(\.longitude)
        var y = coordinates.map(\.latitude)
        let hasZ = coordinates.contains { $0.altitude != nil }
        var z = coordinates.map { $0.altitude ?? 0 }
        let stride = MemoryLayout<Double>.stride
        let count = coordinates.count
        x.withUnsafeMutableBufferPointer { xs in
            y.withUnsafeMutableBufferPointer { ys in
                z.withUnsafeMutableBufferPointer { zs in
                    _ = proj_trans_generic(
                        operation, PJ_FWD, xs.baseAddress, stride, count, ys.baseAddress, stride, count,
                        hasZ ? zs.baseAddress : nil, hasZ ? stride : 0, hasZ ? count : 0, nil, 0, 0)
                }
            }
        }
        for i in 0..<count {
            guard x[i].isFinite, y[i].isFinite, x[i] != .infinity else {
                let original = coordinates[i]
                throw GeoConvError(
                    .invalidInput,
                    "PROJ cannot transform (\(original.longitude), \(original.latitude)) from \(source) to \(target)",
                    hint: "the coordinate is outside what this CRS can represent; check --s-srs")
            }
            coordinates[i] = Coordinate(
                latitude: y[i], longitude: x[i], altitude: hasZ && coordinates[i].altitude != nil ? z[i] : nil)
        }
    }
}
#endif
