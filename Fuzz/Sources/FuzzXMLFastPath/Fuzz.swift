import GeoConvXML

/// libFuzzer entry point: the input read as XML by libxml2 and by the fast path
/// (`XMLPullParser(document:)`) must give the same events, names, attributes, text and
/// start-tag places, up to where the fast path gives up — and the fast path must never read
/// to its end a document libxml2 refuses. Traps on the first difference.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let document = Array(UnsafeBufferPointer(start: data, count: size))
    if let difference = XMLFastPathCheck.firstDifference(in: document) {
        fatalError("fast XML path: \(difference)")
    }
    return 0
}
