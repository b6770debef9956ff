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

    /// Rows of every size (empty, a few bytes, longer than a run and than a merge's read),
    /// at few Hilbert positions so that ties are many: handed back as a stable sort of them
    /// in memory would, byte for byte — in memory (one run), from a few runs merged at once,
    /// and from more runs than are merged at once (merged in groups first).
    @Test("Sorted rows come back as one stable sort in memory gives them", arguments: [1 << 30, 40_000, 300])
    func sortedRows(runBytes: Int) throws {
        var random = SplitMix64(seed: 11)
        var rows: [(hilbert: UInt32, bytes: [UInt8])] = []
        for n in 0..<2_000 {
            let length =
                n == 700 ? 150_000 : n == 1_300 ? 70_000 : Int.random(in: 0...120, using: &random)
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ n) }
            rows.append((UInt32.random(in: 0...30, using: &random), bytes))
        }
        var sorted = HilbertSortedRows(runBytes: runBytes)
        for row in rows { try sorted.add(row.bytes[...], hilbert: row.hilbert) }
        try sorted.finishAdding()
        var back: [[UInt8]] = []
        var row: [UInt8] = []
        while try sorted.next(into: &row) { back.append(row) }
        let expected = rows.indices.sorted { (rows[$0].hilbert, $0) < (rows[$1].hilbert, $1) }.map { rows[$0].bytes }
        #expect(back.count == expected.count)
        #expect(back == expected)
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
