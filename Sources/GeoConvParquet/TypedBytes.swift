package import GeoConvCore

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws `GeoConvError` (the standard library's
    /// rethrows an untyped error).
    package func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws(GeoConvError) -> T) throws(GeoConvError) -> T {
        try withUnsafeBytes { raw -> Result<T, GeoConvError> in
            do throws(GeoConvError) { return .success(try body(raw)) } catch { return .failure(error) }
        }.get()
    }
}

extension ArraySlice where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws `GeoConvError`.
    package func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws(GeoConvError) -> T) throws(GeoConvError) -> T {
        try withUnsafeBytes { raw -> Result<T, GeoConvError> in
            do throws(GeoConvError) { return .success(try body(raw)) } catch { return .failure(error) }
        }.get()
    }
}
