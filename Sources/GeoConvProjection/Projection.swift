public import GeoConvCore

/// Facts about the PROJ library geoconv transforms coordinates with.
public enum PROJLibrary {
    /// The runtime library's version, e.g. `9.1.1`; `nil` when geoconv was built without the
    /// PROJ trait (WGS84 and Web Mercator only, handled natively).
    public static var version: String? {
        #if PROJ
        linkedPROJVersion()
        #else
        nil
        #endif
    }

    /// Whether geoconv was built with the PROJ trait.
    public static var isLinked: Bool { version != nil }
}

/// A coordinate transformation between two CRSs, with axis order normalised to
/// longitude/latitude (easting/northing) on both sides. With the PROJ trait (the default)
/// any CRS PROJ knows goes through PROJ, the network disabled; without it, WGS84
/// longitude/latitude and Web Mercator are handled natively (`NativeCRS`) and any other CRS
/// is refused with an error naming it and the trait. One instance belongs to one thread.
public final class Reprojection {
    private enum Backend {
        #if PROJ
        case proj(PROJOperation)
        #endif
        case native(NativeCRS, NativeCRS)
    }

    private let backend: Backend
    /// The source CRS as given.
    public let source: String
    /// The target CRS as given.
    public let target: String
    /// The source CRS's name, as PROJ knows it.
    public let sourceName: String
    /// Whether the source CRS is geographic (degrees).
    public let sourceIsGeographic: Bool
    /// The source CRS's area of use in longitude/latitude degrees, when known.
    public let areaOfUse: CoordinateBounds?
    /// Grids the chosen operation needs but PROJ does not have (accuracy is then lower).
    public let missingGrids: [String]
    /// The chosen operation's accuracy in metres (`nil` when unknown).
    public let accuracy: Double?

    /// Prepares a transformation, e.g. from `EPSG:3857`, `+proj=utm +zone=33`, a WKT2 string or
    /// `urn:ogc:def:crs:EPSG::2154` to `OGC:CRS84`.
    ///
    /// - Throws: `invalid-input` for a CRS PROJ does not know, or (without the PROJ trait) one
    ///   that is neither WGS84 longitude/latitude nor Web Mercator.
    public init(from source: String, to target: String = "OGC:CRS84") throws(GeoConvError) {
        self.source = source
        self.target = target
        #if PROJ
        let operation = try PROJOperation(from: source, to: target)
        backend = .proj(operation)
        (sourceName, sourceIsGeographic, areaOfUse) = (
            operation.sourceName, operation.sourceIsGeographic, operation.areaOfUse
        )
        (missingGrids, accuracy) = (operation.missingGrids, operation.accuracy)
        #else
        let from = try NativeCRS.required(source)
        let to = try NativeCRS.required(target)
        backend = .native(from, to)
        (sourceName, sourceIsGeographic, areaOfUse) = (from.name, from.isGeographic, from.areaOfUse)
        (missingGrids, accuracy) = ([], from == to ? 0 : nil)
        #endif
    }

    /// A CRS definition PROJ takes as a CRS: a PROJ string (`+proj=utm +zone=33 +datum=WGS84`)
    /// names a coordinate operation unless it says `+type=crs`, so that is added, as GDAL does.
    public static func crsDefinition(_ text: String) -> String {
        let trimmed = text.drop { $0 == " " }
        guard trimmed.hasPrefix("+proj=") || trimmed.hasPrefix("proj="), !text.contains("+type=crs"),
            !text.contains(" type=crs")
        else {
            return text
        }
        return text + " +type=crs"
    }

    /// Transforms coordinates in place (x = longitude/easting, y = latitude/northing, z = altitude).
    ///
    /// - Throws: when a coordinate cannot be transformed (outside the projection's domain).
    public func transform(_ coordinates: inout [Coordinate]) throws(GeoConvError) {
        switch backend {
        #if PROJ
        case .proj(let operation):
            try operation.transform(&coordinates)
        #endif
        case .native(let from, let to):
            for i in coordinates.indices {
                guard let moved = NativeCRS.transform(coordinates[i], from: from, to: to) else {
                    let original = coordinates[i]
                    throw GeoConvError(
                        .invalidInput,
                        "cannot transform (\(original.longitude), \(original.latitude)) from \(source) to \(target)",
                        hint: "the coordinate is outside what this CRS can represent; check --s-srs")
                }
                coordinates[i] = moved
            }
        }
    }
}
