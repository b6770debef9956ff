import GeoConvCore
import GeoConvIO

/// What the writer needs to lay its features out along a Hilbert curve and write the packed
/// R-tree over them (flatgeobuf's `PackedRTree`, from its specification): each feature's
/// place on the curve, the features sorted by it with bounded memory, and the tree's levels
/// built as the sorted features are written.
enum FlatGeobufHilbert {
    /// The position of (`x`, `y`), each 0…65535, along the Hilbert curve that fills that
    /// square: the textbook conversion, quadrant by quadrant from the largest, turning the
    /// square as the curve turns.
    static func index(_ x: UInt32, _ y: UInt32) -> UInt32 {
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
    static func index(centerX: Double, centerY: Double, extent: (Double, Double, Double, Double)) -> UInt32 {
        guard centerX.isFinite, centerY.isFinite else { return 0 }
        func cell(_ value: Double, _ low: Double, _ high: Double) -> UInt32 {
            let width = high - low
            guard width > 0 else { return 0 }
            return UInt32(max(0, min(65535, (65535 * (value - low) / width).rounded(.down))))
        }
        return index(cell(centerX, extent.0, extent.2), cell(centerY, extent.1, extent.3))
    }
}

extension FlatGeobufHilbert {
    /// The order the writer (with its index, the default) writes features of these
    /// geometries in: by the Hilbert position of each box's centre over all their boxes, in
    /// input order where two are equal; a feature without a box first. (`writtenOrder`.)
    static func order(of geometries: [Geometry?]) -> [Int] {
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
struct FlatGeobufSortEntry: Comparable {
    var hilbert: UInt32
    var length: UInt32
    var offset: UInt64

    static func < (a: Self, b: Self) -> Bool { (a.hilbert, a.offset) < (b.hilbert, b.offset) }

    static let size = 16

    func append(to out: inout [UInt8]) {
        withUnsafeBytes(of: (hilbert.littleEndian, length.littleEndian, offset.littleEndian)) {
            out.append(contentsOf: $0)
        }
    }

    init(hilbert: UInt32, length: UInt32, offset: UInt64) {
        self.hilbert = hilbert
        self.length = length
        self.offset = offset
    }

    init(_ bytes: [UInt8], at: Int) {
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

/// The features' sort entries in Hilbert order, with memory bounded by `runLength` entries (4 MB):
/// up to that many are sorted in memory; more are sorted in runs of that many, kept in a
/// scratch file, and merged.
struct FlatGeobufSortedEntries {
    private var inMemory: [FlatGeobufSortEntry] = []
    private var position = 0
    private var runs: [Run] = []
    private let scratch: ScratchFile?

    /// A sorted run in the scratch file, read a block at a time.
    private struct Run {
        var offset: Int
        var remaining: Int
        var block: [FlatGeobufSortEntry] = []
        var position = 0
    }

    /// Sorts the entries `produce` hands over (a batch at a time, through its callback).
    init(
        runLength: Int = 1 << 18,
        _ produce: ((FlatGeobufSortEntry) throws(GeoConvError) -> Void) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
        var batch: [FlatGeobufSortEntry] = []
        var scratch: ScratchFile?
        var runs: [Run] = []
        var bytes: [UInt8] = []
        try produce { (entry: FlatGeobufSortEntry) throws(GeoConvError) in
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
    mutating func next() throws(GeoConvError) -> FlatGeobufSortEntry? {
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
        try scratch.read(count * FlatGeobufSortEntry.size, at: run.offset, into: &bytes)
        run.block = (0..<count).map { FlatGeobufSortEntry(bytes, at: $0 * FlatGeobufSortEntry.size) }
        run.position = 0
        run.offset += count * FlatGeobufSortEntry.size
        run.remaining -= count
    }
}

/// The packed R-tree's levels, built while the features are written in their sorted order:
/// each feature's box is a leaf (with the feature's offset from the first feature), every
/// `nodeSize` nodes of a level make a node of the level above (its box around theirs, its
/// offset the index of its first child in the written tree). Each level is spooled (in
/// memory up to a threshold, then in a temporary file) and written root first.
struct FlatGeobufPackedTree {
    /// A node's box: west, south, east, north. A feature without a box has the empty one,
    /// which no search meets.
    typealias Box = (Double, Double, Double, Double)
    static let emptyBox: Box = (.infinity, .infinity, -.infinity, -.infinity)

    let nodeSize: Int
    /// Nodes on each level, the leaves first.
    let counts: [Int]
    /// Where each level starts among the written nodes (the root is node 0).
    let starts: [Int]
    private var levels: [Spool]
    private var made: [Int]
    /// The node each level above the leaves is gathering: its box, its first child (index on
    /// the level below) and how many children it has.
    private var gathering: [(box: Box, first: Int, children: Int)]
    private var node: [UInt8] = []

    init(featureCount: Int, nodeSize: Int, discards: Bool) {
        self.nodeSize = nodeSize
        let bounds = FlatGeobufIndex.levelBounds(featureCount: featureCount, nodeSize: nodeSize)
        counts = bounds.map(\.count)
        starts = bounds.map(\.lowerBound)
        self.levels = counts.map { _ in Spool(threshold: 256 << 10, discards: discards) }
        made = counts.map { _ in 0 }
        gathering = counts.map { _ in (Self.emptyBox, 0, 0) }
    }

    /// The bytes of the tree: 40 a node.
    var byteCount: Int { counts.reduce(0, +) * 40 }

    /// Adds the next feature's leaf.
    mutating func addLeaf(_ box: Box, featureOffset: Int) throws(GeoConvError) {
        try add(box, offset: featureOffset, level: 0)
    }

    private mutating func add(_ box: Box, offset: Int, level: Int) throws(GeoConvError) {
        node.removeAll(keepingCapacity: true)
        withUnsafeBytes(
            of: (
                box.0.bitPattern.littleEndian, box.1.bitPattern.littleEndian, box.2.bitPattern.littleEndian,
                box.3.bitPattern.littleEndian, UInt64(offset).littleEndian
            )
        ) { node.append(contentsOf: $0) }
        try levels[level].append(node)
        made[level] += 1
        guard level + 1 < counts.count else { return }
        var parent = gathering[level + 1]
        if parent.children == 0 { parent = (box, made[level] - 1, 0) }
        parent.box = (
            min(parent.box.0, box.0), min(parent.box.1, box.1), max(parent.box.2, box.2), max(parent.box.3, box.3)
        )
        parent.children += 1
        gathering[level + 1] = parent
        if parent.children == nodeSize { try close(level + 1) }
    }

    /// Adds the node level `level` is gathering to it.
    private mutating func close(_ level: Int) throws(GeoConvError) {
        let parent = gathering[level]
        gathering[level] = (Self.emptyBox, 0, 0)
        try add(parent.box, offset: starts[level - 1] + parent.first, level: level)
    }

    /// Closes the nodes left gathering (the last of each level), from the leaves up.
    mutating func finish() throws(GeoConvError) {
        for level in counts.indices.dropFirst() where gathering[level].children > 0 { try close(level) }
    }

    /// Writes the tree, the root first.
    func write(into output: ByteWriter) throws(GeoConvError) {
        for level in levels.reversed() { try level.drain(into: output) }
    }
}
