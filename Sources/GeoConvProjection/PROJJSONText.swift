public import GeoConvCore

#if PROJ
internal import CPROJ
#endif

/// A CRS as PROJJSON (PROJ's JSON encoding of ISO 19111), the form GeoParquet's metadata
/// gives a CRS in.
public enum PROJJSONText {
    /// The PROJJSON of `crs` (any definition PROJ takes), on one line. Without the PROJ
    /// trait, Web Mercator's (as PROJ 9 writes it) and a usage error for any other CRS.
    public static func of(_ crs: String) throws(GeoConvError) -> String {
        #if PROJ
        let text: String? = try withCRS(crs) { context, object in
            "MULTILINE=NO".withCString { option in
                var options: [UnsafePointer<CChar>?] = [option, nil]
                return options.withUnsafeMutableBufferPointer { proj_as_projjson(context, object, $0.baseAddress) }
                    .map { String(cString: $0) }
            }
        }
        guard let text else { throw GeoConvError(.unsupported, "PROJ cannot write the CRS '\(crs)' as PROJJSON") }
        return text
        #else
        if case .webMercator = try NativeCRS.required(crs) { return webMercator }
        return wgs84
        #endif
    }

    #if PROJ
    /// `body` with a PROJ context (offline, silent) and `crs`'s object, both freed after it;
    /// the CRS written out by PROJJSONText and ESRIWKTText alike.
    static func withCRS<R>(_ crs: String, _ body: (OpaquePointer, OpaquePointer) -> R) throws(GeoConvError) -> R {
        guard let context = proj_context_create() else { throw GeoConvError(.io, "PROJ could not create a context") }
        defer { proj_context_destroy(context) }
        proj_context_set_enable_network(context, 0)
        proj_log_level(context, PJ_LOG_NONE)
        guard let object = proj_create(context, Reprojection.crsDefinition(crs)) else {
            throw GeoConvError(
                .invalidInput, "PROJ does not know the CRS '\(crs)'",
                hint: "give a CRS PROJ knows: EPSG:n, OGC:CRS84, a +proj string or WKT2")
        }
        defer { proj_destroy(object) }
        return body(context, object)
    }
    #endif

    #if !PROJ
    /// `projinfo EPSG:3857 -o PROJJSON -q --single-line` (PROJ 9.1.1).
    static let webMercator =
        #"{"$schema":"https://proj.org/schemas/v0.5/projjson.schema.json","type":"ProjectedCRS","name":"WGS 84 / Pseudo-Mercator","base_crs":{"name":"WGS 84","datum_ensemble":{"name":"World Geodetic System 1984 ensemble","members":[{"name":"World Geodetic System 1984 (Transit)","id":{"authority":"EPSG","code":1166}},{"name":"World Geodetic System 1984 (G730)","id":{"authority":"EPSG","code":1152}},{"name":"World Geodetic System 1984 (G873)","id":{"authority":"EPSG","code":1153}},{"name":"World Geodetic System 1984 (G1150)","id":{"authority":"EPSG","code":1154}},{"name":"World Geodetic System 1984 (G1674)","id":{"authority":"EPSG","code":1155}},{"name":"World Geodetic System 1984 (G1762)","id":{"authority":"EPSG","code":1156}},{"name":"World Geodetic System 1984 (G2139)","id":{"authority":"EPSG","code":1309}}],"ellipsoid":{"name":"WGS 84","semi_major_axis":6378137,"inverse_flattening":298.257223563},"accuracy":"2.0","id":{"authority":"EPSG","code":6326}},"coordinate_system":{"subtype":"ellipsoidal","axis":[{"name":"Geodetic latitude","abbreviation":"Lat","direction":"north","unit":"degree"},{"name":"Geodetic longitude","abbreviation":"Lon","direction":"east","unit":"degree"}]},"id":{"authority":"EPSG","code":4326}},"conversion":{"name":"Popular Visualisation Pseudo-Mercator","method":{"name":"Popular Visualisation Pseudo Mercator","id":{"authority":"EPSG","code":1024}},"parameters":[{"name":"Latitude of natural origin","value":0,"unit":"degree","id":{"authority":"EPSG","code":8801}},{"name":"Longitude of natural origin","value":0,"unit":"degree","id":{"authority":"EPSG","code":8802}},{"name":"False easting","value":0,"unit":"metre","id":{"authority":"EPSG","code":8806}},{"name":"False northing","value":0,"unit":"metre","id":{"authority":"EPSG","code":8807}}]},"coordinate_system":{"subtype":"Cartesian","axis":[{"name":"Easting","abbreviation":"X","direction":"east","unit":"metre"},{"name":"Northing","abbreviation":"Y","direction":"north","unit":"metre"}]},"scope":"Web mapping and visualisation.","area":"World between 85.06°S and 85.06°N.","bbox":{"south_latitude":-85.06,"west_longitude":-180,"north_latitude":85.06,"east_longitude":180},"id":{"authority":"EPSG","code":3857}}"#
    /// `projinfo OGC:CRS84 -o PROJJSON -q --single-line` (PROJ 9.1.1).
    static let wgs84 =
        #"{"$schema":"https://proj.org/schemas/v0.5/projjson.schema.json","type":"GeographicCRS","name":"WGS 84 (CRS84)","datum_ensemble":{"name":"World Geodetic System 1984 ensemble","members":[{"name":"World Geodetic System 1984 (Transit)","id":{"authority":"EPSG","code":1166}},{"name":"World Geodetic System 1984 (G730)","id":{"authority":"EPSG","code":1152}},{"name":"World Geodetic System 1984 (G873)","id":{"authority":"EPSG","code":1153}},{"name":"World Geodetic System 1984 (G1150)","id":{"authority":"EPSG","code":1154}},{"name":"World Geodetic System 1984 (G1674)","id":{"authority":"EPSG","code":1155}},{"name":"World Geodetic System 1984 (G1762)","id":{"authority":"EPSG","code":1156}},{"name":"World Geodetic System 1984 (G2139)","id":{"authority":"EPSG","code":1309}}],"ellipsoid":{"name":"WGS 84","semi_major_axis":6378137,"inverse_flattening":298.257223563},"accuracy":"2.0","id":{"authority":"EPSG","code":6326}},"coordinate_system":{"subtype":"ellipsoidal","axis":[{"name":"Geodetic longitude","abbreviation":"Lon","direction":"east","unit":"degree"},{"name":"Geodetic latitude","abbreviation":"Lat","direction":"north","unit":"degree"}]},"scope":"Not known.","area":"World.","bbox":{"south_latitude":-90,"west_longitude":-180,"north_latitude":90,"east_longitude":180},"id":{"authority":"OGC","code":"CRS84"}}"#
    #endif
}
