import GeoConv

/// libFuzzer entry point: reads the input as wkt through the whole pipeline into memory.
/// Any GeoConvError is a correct outcome; a crash, hang or runaway allocation is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? Converter().convert(.memory(bytes, name: "fuzz"), to: .memory,
                                 options: ConversionOptions(inputFormat: .wkt, outputFormat: .geoJSON, skipInvalid: size % 2 == 0))
    _ = try? Converter().validate(.memory(bytes, name: "fuzz"), options: ConversionOptions(inputFormat: .wkt))
    return 0
}
