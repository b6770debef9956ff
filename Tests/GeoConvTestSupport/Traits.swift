/// The package traits this test build has, for tests that need one: they say so with
/// `.enabled(if: BuiltTraits.rendering)` rather than pass without running.
public enum BuiltTraits {
    /// Built with the GeoPackage trait (SQLite): GeoPackage read.
    public static let geoPackage: Bool = {
        #if GeoPackage
        true
        #else
        false
        #endif
    }()

    /// Built with the Rendering trait (Cairo, SQLite): `render`, `tiles render`, MBTiles.
    public static let rendering: Bool = {
        #if Rendering
        true
        #else
        false
        #endif
    }()

    /// Built with the PROJ trait: CRSs other than WGS84 and Web Mercator.
    public static let proj: Bool = {
        #if PROJ
        true
        #else
        false
        #endif
    }()

    /// Built with the Shapefile trait (shapelib): the `shapefile` format.
    public static let shapefile: Bool = {
        #if Shapefile
        true
        #else
        false
        #endif
    }()

    /// Built with the Zstd trait (libzstd): GeoParquet pages compressed with zstd.
    public static let zstd: Bool = {
        #if Zstd
        true
        #else
        false
        #endif
    }()
}
