import GeoConvCore
import GeoConvIO

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
