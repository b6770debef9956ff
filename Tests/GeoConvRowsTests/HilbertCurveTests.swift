import GeoConvCore
import GeoConvRows
import GeoConvTestSupport
import Testing

/// The Hilbert curve and the bounded-memory sort along it that FlatGeobuf's packed index and
/// GeoPackage's R-tree are built from.
@Suite("Hilbert curve and sort")
struct HilbertCurveTests {
    @Test("The sort's runs merged from the scratch file give the order one sort in memory gives")
    func externalSort() throws {
        var random = SplitMix64(seed: 7)
        let entries = (0..<1000).map { n in
            HilbertSortEntry(
                hilbert: UInt32.random(in: 0...40, using: &random), length: UInt32(n), offset: UInt64(n * 3))
        }
        for runLength in [3, 64, 1000, 5000] {
            var sorted = try HilbertSortedEntries(runLength: runLength) {
                (emit: (HilbertSortEntry) throws(GeoConvError) -> Void) throws(GeoConvError) in
                for entry in entries { try emit(entry) }
            }
            var merged: [HilbertSortEntry] = []
            while let entry = try sorted.next() { merged.append(entry) }
            #expect(merged == entries.sorted(), "runs of \(runLength)")
        }
    }

    @Test("The Hilbert curve: a 16 × 16 corner filled by its first 256 cells, each beside the one before")
    func hilbertCurve() {
        var cells: [UInt32: (UInt32, UInt32)] = [:]
        for x in UInt32(0)..<16 {
            for y in UInt32(0)..<16 { cells[HilbertCurve.index(x, y)] = (x, y) }
        }
        #expect(Set(cells.keys) == Set(0..<256))
        for d in UInt32(1)..<256 {
            guard let a = cells[d - 1], let b = cells[d] else { continue }
            let step = abs(Int(a.0) - Int(b.0)) + abs(Int(a.1) - Int(b.1))
            #expect(step == 1, "cells \(d - 1) and \(d)")
        }
    }
}
