package import GeoConvCore
import GeoConvIO

/// What a writer needs to lay features out along a Hilbert curve, for a packed R-tree over
/// them (FlatGeobuf's index, GeoPackage's R-tree): each feature's place on the curve, and the
/// features sorted by it with bounded memory.
package enum HilbertCurve {
    /// The position of (`x`, `y`), each 0…65535, along the Hilbert curve that fills that
    /// square: the textbook conversion, quadrant by quadrant from the largest, turning the
    /// square as the curve turns.
    package static func index(_ x: UInt32, _ y: UInt32) -> UInt32 {
        let n: UInt32 = 1 << 16
        var x = x
        var y = y
        var d: UInt32 = 0
        var s: UInt32 = n / 2
        while s > 0 {
            let rx: UInt32 = x & s != 0 ? 1 : 0
            let ry: UInt32 = y & s != 0 ? 1 : 0
            d &+= s &* s &* ((3 &* rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = n &- 1 &- x
                    y = n &- 1 &- y
                }
                swap(&x, &y)
            }
            s /= 2
        }
        return d
    }

    /// The Hilbert position of a box's centre on a 65536 × 65536 grid over `extent` (west,
    /// south, east, north); 0 for a feature without a box.
    package static func index(centerX: Double, centerY: Double, extent: (Double, Double, Double, Double)) -> UInt32 {
        guard centerX.isFinite, centerY.isFinite else { return 0 }
        func cell(_ value: Double, _ low: Double, _ high: Double) -> UInt32 {
            let width = high - low
            guard width > 0 else { return 0 }
            return UInt32(max(0, min(65535, (65535 * (value - low) / width).rounded(.down))))
        }
        return index(cell(centerX, extent.0, extent.2), cell(centerY, extent.1, extent.3))
    }
}

extension HilbertCurve {
    /// The order the writer (with its index, the default) writes features of these
    /// geometries in: by the Hilbert position of each box's centre over all their boxes, in
    /// input order where two are equal; a feature without a box first. (`writtenOrder`.)
    package static func order(of geometries: [Geometry?]) -> [Int] {
        var boxes: [(Double, Double, Double, Double)?] = []
        var extent: (Double, Double, Double, Double)?
        for geometry in geometries {
            var box: (Double, Double, Double, Double)?
            geometry?.forEachCoordinate { c in
                box =
                    box.map {
                        (min($0.0, c.longitude), min($0.1, c.latitude), max($0.2, c.longitude), max($0.3, c.latitude))
                    } ?? (c.longitude, c.latitude, c.longitude, c.latitude)
            }
            if let b = box {
                extent = extent.map { (min($0.0, b.0), min($0.1, b.1), max($0.2, b.2), max($0.3, b.3)) } ?? b
            }
            boxes.append(box)
        }
        let keys = boxes.map { box in
            box.map { index(centerX: ($0.0 + $0.2) / 2, centerY: ($0.1 + $0.3) / 2, extent: extent ?? $0) } ?? 0
        }
        return keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
    }
}

/// A feature's place in the sort: its Hilbert position, and where its spooled row is.
package struct HilbertSortEntry: Comparable {
    package var hilbert: UInt32
    package var length: UInt32
    package var offset: UInt64

    package static func < (a: Self, b: Self) -> Bool { (a.hilbert, a.offset) < (b.hilbert, b.offset) }

    package static let size = 16

    package func append(to out: inout [UInt8]) {
        withUnsafeBytes(of: (hilbert.littleEndian, length.littleEndian, offset.littleEndian)) {
            out.append(contentsOf: $0)
        }
    }

    package init(hilbert: UInt32, length: UInt32, offset: UInt64) {
        self.hilbert = hilbert
        self.length = length
        self.offset = offset
    }

    package init(_ bytes: [UInt8], at: Int) {
        func word(_ start: Int, _ count: Int) -> UInt64 {
            var value: UInt64 = 0
            for k in 0..<count { value |= UInt64(bytes[start + k]) << (8 * UInt64(k)) }
            return value
        }
        hilbert = UInt32(truncatingIfNeeded: word(at, 4))
        length = UInt32(truncatingIfNeeded: word(at + 4, 4))
        offset = word(at + 8, 8)
    }
}

/// The features' sort entries in Hilbert order, with memory bounded by `runLength` entries (1 MB):
/// up to that many are sorted in memory; more are sorted in runs of that many, kept in a
/// scratch file, and merged.
package struct HilbertSortedEntries {
    private var inMemory: [HilbertSortEntry] = []
    private var position = 0
    private var runs: [Run] = []
    private let scratch: ScratchFile?

    /// A sorted run in the scratch file, read a block at a time.
    private struct Run {
        var offset: Int
        var remaining: Int
        var block: [HilbertSortEntry] = []
        var position = 0
    }

    /// Sorts the entries `produce` hands over (a batch at a time, through its callback).
    package init(
        runLength: Int = 1 << 16,
        _ produce: ((HilbertSortEntry) throws(GeoConvError) -> Void) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
        var batch: [HilbertSortEntry] = []
        var scratch: ScratchFile?
        var runs: [Run] = []
        var bytes: [UInt8] = []
        try produce { (entry: HilbertSortEntry) throws(GeoConvError) in
            batch.append(entry)
            guard batch.count == runLength else { return }
            batch.sort()
            let file: ScratchFile
            if let made = scratch { file = made } else { file = try ScratchFile() }
            scratch = file
            bytes.removeAll(keepingCapacity: true)
            for item in batch { item.append(to: &bytes) }
            runs.append(Run(offset: try file.append(bytes), remaining: batch.count))
            batch.removeAll(keepingCapacity: true)
        }
        batch.sort()
        if let file = scratch, !batch.isEmpty {
            bytes.removeAll(keepingCapacity: true)
            for item in batch { item.append(to: &bytes) }
            runs.append(Run(offset: try file.append(bytes), remaining: batch.count))
            batch = []
        }
        self.inMemory = batch
        self.runs = runs
        self.scratch = scratch
    }

    /// The next entry in Hilbert order, `nil` after the last.
    package mutating func next() throws(GeoConvError) -> HilbertSortEntry? {
        guard let scratch else {
            guard position < inMemory.count else { return nil }
            defer { position += 1 }
            return inMemory[position]
        }
        var best: Int?
        for index in runs.indices {
            if runs[index].position == runs[index].block.count {
                guard runs[index].remaining > 0 else { continue }
                try refill(&runs[index], from: scratch)
            }
            if let current = best,
                runs[current].block[runs[current].position] <= runs[index].block[runs[index].position]
            {
                continue
            }
            best = index
        }
        guard let best else { return nil }
        defer { runs[best].position += 1 }
        return runs[best].block[runs[best].position]
    }

    private func refill(_ run: inout Run, from scratch: ScratchFile) throws(GeoConvError) {
        let count = min(run.remaining, 4096)
        var bytes: [UInt8] = []
        try scratch.read(count * HilbertSortEntry.size, at: run.offset, into: &bytes)
        run.block = (0..<count).map { HilbertSortEntry(bytes, at: $0 * HilbertSortEntry.size) }
        run.position = 0
        run.offset += count * HilbertSortEntry.size
        run.remaining -= count
    }
}
