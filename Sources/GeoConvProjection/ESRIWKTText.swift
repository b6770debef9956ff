internal import GeoConvCore
#if PROJ
internal import CPROJ
#endif

/// A CRS as Esri's WKT (WKT1_ESRI), the form a shapefile's `.prj` holds and ArcGIS, QGIS and
/// GDAL read.
public enum ESRIWKTText {
    /// `crs` (any definition PROJ takes: `EPSG:32633`, PROJJSON, WKT2…) as Esri's WKT on one
    /// line; `nil` without the PROJ trait, or when PROJ cannot read it or write it so.
    public static func of(_ crs: String) -> String? {
        #if PROJ
        guard let context = proj_context_create() else { return nil }
        defer { proj_context_destroy(context) }
        proj_context_set_enable_network(context, 0)
        proj_log_level(context, PJ_LOG_NONE)
        guard let object = proj_create(context, Reprojection.crsDefinition(crs)) else { return nil }
        defer { proj_destroy(object) }
        return "MULTILINE=NO".withCString { option in
            var options: [UnsafePointer<CChar>?] = [option, nil]
            return options.withUnsafeMutableBufferPointer { proj_as_wkt(context, object, PJ_WKT1_ESRI, $0.baseAddress) }
                .map { String(cString: $0) }
        }
        #else
        return nil
        #endif
    }
}
