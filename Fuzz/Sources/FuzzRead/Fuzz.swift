import GeoConv

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The format this run reads: `GEOCONV_FUZZ_FORMAT`, a name from `FormatRegistry.standard`
/// (scripts/fuzz runs the target once per readable format).
let format: FileFormat? = getenv("GEOCONV_FUZZ_FORMAT").flatMap {
    FormatRegistry.standard.format(named: String(cString: $0))
}

/// Before the first input: `GEOCONV_FUZZ_LIST=1` prints the names of the readable formats,
/// one per line, and exits (so that the list of targets comes from the registry); without a
/// readable `GEOCONV_FUZZ_FORMAT` the run stops with the names to choose from.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    let readable = FormatRegistry.standard.formats.filter { $0.makeReader != nil }.map(\.name)
    if getenv("GEOCONV_FUZZ_LIST") != nil {
        print(readable.joined(separator: "\n"))
        exit(0)
    }
    guard let format, format.makeReader != nil else {
        print("FuzzRead: set GEOCONV_FUZZ_FORMAT to one of: \(readable.joined(separator: ", "))")
        exit(2)
    }
    return 0
}

/// libFuzzer entry point: reads the input in the chosen format through the whole pipeline
/// into memory (GeoJSON out), and validates it. Any GeoConvError is a correct outcome; a
/// crash, hang or runaway allocation is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let format else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? Converter().convert(
        .memory(bytes, name: "fuzz"), to: .memory,
        options: ConversionOptions(inputFormat: format, outputFormat: .geoJSON, skipInvalid: size % 2 == 0))
    _ = try? Converter().validate(.memory(bytes, name: "fuzz"), options: ConversionOptions(inputFormat: format))
    return 0
}
