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
        let text = try? PROJJSONText.withCRS(crs) { context, object in
            "MULTILINE=NO".withCString { option in
                var options: [UnsafePointer<CChar>?] = [option, nil]
                return options.withUnsafeMutableBufferPointer { buffer in
                    proj_as_wkt(context, object, PJ_WKT1_ESRI, buffer.baseAddress)
                }.map { String(cString: $0) }
            }
        }
        return text ?? nil
        #else
        return nil
        #endif
    }

    /// `crs` as OGC WKT 1 (GDAL's dialect, one line) and its name: the definition a
    /// GeoPackage's `gpkg_spatial_ref_sys` holds. `nil` without the PROJ trait, or when PROJ
    /// cannot read it or write it so.
    public static func ogcWKT1(_ crs: String) -> (wkt: String, name: String)? {
        #if PROJ
        let text = try? PROJJSONText.withCRS(crs) { context, object -> (wkt: String, name: String)? in
            let wkt = "MULTILINE=NO".withCString { option in
                var options: [UnsafePointer<CChar>?] = [option, nil]
                return options.withUnsafeMutableBufferPointer { buffer in
                    proj_as_wkt(context, object, PJ_WKT1_GDAL, buffer.baseAddress)
                }.map { String(cString: $0) }
            }
            guard let wkt else { return nil }
            return (wkt, proj_get_name(object).map { String(cString: $0) } ?? crs)
        }
        return text ?? nil
        #else
        return nil
        #endif
    }
}
