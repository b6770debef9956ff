internal import GeoConvBytes
package import GeoConvCore
package import GeoConvIO

/// Cutting a top-level array into runs of whole elements for other threads (`--jobs` on a
/// FeatureCollection).
extension JSONScanner {
    /// Cuts the next run of whole elements of the array being read (the scanner is after its
    /// `[`, or after the previous run's comma): elements up to at least `size` bytes, or up to
    /// the array's end. Each element is stepped over as bytes (`skipValueBytes`); its errors
    /// are found by whoever parses the run. Stops where the array ends — or where it does
    /// not go on as an array of elements (a `}` where `]` belongs, a missing element, the
    /// input ending inside an element) — leaving the scanner after the last whole element,
    /// for the caller's own parser to read on and report what it finds there. Returns `nil`
    /// when no whole element is left before that point.
    package func nextElementRun(size: Int, elementsBefore: inout Int) throws(GeoConvError) -> FeatureRun? {
        startValue()
        let entry = mark
        if elementsBefore > 0 {
            // The previous run stopped at the comma before this one's first element.
            guard try peekToken() == UInt8(ascii: ",") else { return nil }
            position += 1
        }
        let start = position
        let startLine = line
        let startColumn = base + position - lineStart + 1
        let startOffset = base + position
        var elements = 0
        var lastComma: Mark?
        /// The elements up to here as a run; the scanner stays here (as after an element).
        func run(elements count: Int) -> FeatureRun {
            elementsBefore += count
            return FeatureRun(
                bytes: Array(UnsafeBufferPointer(start: storage + start, count: position - start)),
                line: startLine,
                column: startColumn, byteOffset: startOffset, recordsBefore: elementsBefore - count)
        }
        /// Stops before the last comma (the caller's parser reads what follows it and says
        /// what is wrong there, as it would anyway), or gives nothing.
        func stop() -> FeatureRun? {
            guard let lastComma else {
                rewind(to: entry)
                return nil
            }
            rewind(to: lastComma)
            return run(elements: elements)
        }
        while true {
            // The array ends, or an element is missing.
            guard let byte = try peekToken(), byte != UInt8(ascii: "]"), byte != UInt8(ascii: "}"),
                byte != UInt8(ascii: ",")
            else {
                return stop()
            }
            do throws(GeoConvError) {
                try skipValueBytes()
            } catch {
                // The input ends inside this element.
                guard error.code == .invalidInput else { throw error }
                return stop()
            }
            elements += 1
            let afterElement = mark
            guard try peekToken() == UInt8(ascii: ",") else {
                rewind(to: afterElement)
                return run(elements: elements)
            }
            if position - start >= size { return run(elements: elements) }  // at the comma
            lastComma = mark
            position += 1
        }
    }
}
