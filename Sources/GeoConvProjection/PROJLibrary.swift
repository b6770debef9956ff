internal import CPROJ

/// Facts about the PROJ library geoconv transforms coordinates with.
public enum PROJLibrary {
    /// The runtime library's version, e.g. `9.1.1` (from `proj_info()`).
    public static var version: String {
        let info = proj_info()
        return "\(info.major).\(info.minor).\(info.patch)"
    }
}
