#if GeoPackage
import GeoConvCore
import GeoConvIO
import GeoConvRows

/// A feature table's R-tree (SQLite's `rtree` module, two dimensions), bulk-loaded: the
/// boxes are collected as the rows go in, sorted along a Hilbert curve with bounded memory,
/// and packed into full nodes written straight into the module's shadow tables, where
/// inserting them one by one would cost SQLite's R*-tree an order of magnitude more.
///
/// The shadow tables, as SQLite's R-tree documentation gives them: `<name>_node(nodeno,
/// data)` holds each node — the root is node 1 and begins with the tree's depth (2 bytes,
/// big-endian); then the node's entry count (2 bytes) and its entries, each an 8-byte id
/// (the row's key in a leaf, a child's node number above) and the box as four 32-bit floats
/// (min x, max x, min y, max y), all big-endian, in a blob of the size the module chose;
/// `<name>_parent(nodeno, parentnode)` every node's parent but the root's; `<name>_rowid(rowid,
/// nodeno)` each row's leaf. A box's floats are rounded outward, as the module rounds them.
struct GeoPackageRTree {
    private let database: GeoPackageDatabase
    private let name: String
    private let extent: (Double, Double, Double, Double)
    /// Per box in insertion order: the row's key (8 bytes) and the box's four floats.
    private let boxes: ScratchFile
    private var count = 0
    private var record: [UInt8] = []

    /// An empty tree `name` (created with the table) over boxes within `extent`.
    init(_ database: GeoPackageDatabase, name: String, extent: (Double, Double, Double, Double)) throws(GeoConvError) {
        self.database = database
        self.name = name
        self.extent = extent
        boxes = try ScratchFile()
    }

    /// Adds the row `rowID`'s box (west, south, east, north).
    mutating func add(_ rowID: Int64, _ box: (Double, Double, Double, Double)) throws(GeoConvError) {
        record.removeAll(keepingCapacity: true)
        let floats = (Self.down(box.0), Self.up(box.2), Self.down(box.1), Self.up(box.3))
        withUnsafeBytes(of: rowID.littleEndian) { record.append(contentsOf: $0) }
        withUnsafeBytes(of: floats) { record.append(contentsOf: $0) }
        try boxes.append(record)
        count += 1
    }

    /// The nearest float at or below `value`, and at or above it.
    static func down(_ value: Double) -> Float {
        let f = Float(value)
        return Double(f) > value ? f.nextDown : f
    }

    static func up(_ value: Double) -> Float {
        let f = Float(value)
        return Double(f) < value ? f.nextUp : f
    }

    /// A node's entry: an id and a box (min x, max x, min y, max y).
    typealias Entry = (id: Int64, box: (Float, Float, Float, Float))

    /// Writes the tree: the leaves in Hilbert order, then each level above, the root as node 1.
    func build() throws(GeoConvError) {
        guard count > 0 else { return }
        let quoted = GeoPackageSchema.quoted(name + "_node")
        let size = try database.rows("SELECT length(data) FROM \(quoted) WHERE nodeno = 1").first?[0].flatMap {
            Int($0)
        }
        guard let nodeSize = size, nodeSize >= 4 + 2 * 24 else {
            throw GeoConvError(.io, "the R-tree \(name) of '\(database.name)' has no root node to fill")
        }
        let perNode = (nodeSize - 4) / 24
        // Nodes per level, the leaves first; numbered from the root (1) down, level by level.
        var sizes = [(count + perNode - 1) / perNode]
        while let last = sizes.last, last > 1 { sizes.append((last + perNode - 1) / perNode) }
        var first = [Int](repeating: 1, count: sizes.count)
        var next = 2
        for level in (0..<(sizes.count - 1)).reversed() {
            first[level] = next
            next += sizes[level]
        }
        let writer = try NodeWriter(database, name: name, nodeSize: nodeSize, depth: sizes.count - 1)
        // The leaves, from the boxes in Hilbert order.
        var sorted = try HilbertSortedEntries {
            (emit: (HilbertSortEntry) throws(GeoConvError) -> Void) throws(GeoConvError) in
            var bytes: [UInt8] = []
            var index = 0
            while index < count {
                let batch = min(count - index, 1 << 14)
                try boxes.read(batch * 24, at: index * 24, into: &bytes)
                for k in 0..<batch {
                    let box = Self.box(bytes, at: k * 24)
                    let hilbert = HilbertCurve.index(
                        centerX: (Double(box.0) + Double(box.1)) / 2, centerY: (Double(box.2) + Double(box.3)) / 2,
                        extent: extent)
                    try emit(HilbertSortEntry(hilbert: hilbert, length: 0, offset: UInt64(index + k)))
                }
                index += batch
            }
        }
        var leaf: [Entry] = []
        var above: [Entry] = []
        var bytes: [UInt8] = []
        while let entry = try sorted.next() {
            try boxes.read(24, at: Int(entry.offset) * 24, into: &bytes)
            var id: UInt64 = 0
            for k in 0..<8 { id |= UInt64(bytes[k]) << (8 * UInt64(k)) }
            leaf.append((Int64(bitPattern: id), Self.box(bytes, at: 0)))
            if leaf.count == perNode { try writeLeaf() }
        }
        if !leaf.isEmpty { try writeLeaf() }
        // Each level above, from the boxes of the level below.
        for level in 1..<sizes.count {
            var nodes: [Entry] = []
            for start in stride(from: 0, to: above.count, by: perNode) {
                let children = Array(above[start..<min(start + perNode, above.count)])
                nodes.append(
                    try writer.write(children, node: first[level] + nodes.count, parent: parent(nodes.count, level)))
            }
            above = nodes
        }

        /// Writes the leaf gathered so far and maps its rows to it.
        func writeLeaf() throws(GeoConvError) {
            let number = first[0] + above.count
            above.append(try writer.write(leaf, node: number, parent: parent(above.count, 0)))
            try writer.mapRows(leaf, to: number)
            leaf.removeAll(keepingCapacity: true)
        }

        /// The parent of the `index`th node of `level`; `nil` for the root.
        func parent(_ index: Int, _ level: Int) -> Int? {
            level + 1 < sizes.count ? first[level + 1] + index / perNode : nil
        }
    }

    /// The four floats of a record at `offset` (past its 8-byte key).
    private static func box(_ bytes: [UInt8], at offset: Int) -> (Float, Float, Float, Float) {
        func float(_ at: Int) -> Float {
            var bits: UInt32 = 0
            for k in 0..<4 { bits |= UInt32(bytes[at + k]) << (8 * UInt32(k)) }
            return Float(bitPattern: bits)
        }
        return (float(offset + 8), float(offset + 12), float(offset + 16), float(offset + 20))
    }

    /// Writes nodes into the shadow tables.
    private struct NodeWriter {
        let node: GeoPackageDatabase.Statement
        let rowID: GeoPackageDatabase.Statement
        let parent: GeoPackageDatabase.Statement
        let nodeSize: Int
        let depth: Int

        init(_ database: GeoPackageDatabase, name: String, nodeSize: Int, depth: Int) throws(GeoConvError) {
            node = try database.statement(
                "INSERT OR REPLACE INTO \(GeoPackageSchema.quoted(name + "_node")) (nodeno, data) VALUES (?, ?)")
            rowID = try database.statement(
                "INSERT INTO \(GeoPackageSchema.quoted(name + "_rowid")) (rowid, nodeno) VALUES (?, ?)")
            parent = try database.statement(
                "INSERT INTO \(GeoPackageSchema.quoted(name + "_parent")) (nodeno, parentnode) VALUES (?, ?)")
            self.nodeSize = nodeSize
            self.depth = depth
        }

        /// Writes node `number` holding `entries` (a leaf when it is at depth 0 of the tree:
        /// its entries' rows are mapped to it); returns its entry for the level above.
        func write(_ entries: [Entry], node number: Int, parent above: Int?) throws(GeoConvError) -> Entry {
            var data = [UInt8](repeating: 0, count: nodeSize)
            func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
                withUnsafeBytes(of: value.bigEndian) { raw in
                    for (k, byte) in raw.enumerated() { data[offset + k] = byte }
                }
            }
            if number == 1 { put(UInt16(depth), at: 0) }
            put(UInt16(entries.count), at: 2)
            var box = entries[0].box
            for (index, entry) in entries.enumerated() {
                let at = 4 + 24 * index
                put(entry.id, at: at)
                put(entry.box.0.bitPattern, at: at + 8)
                put(entry.box.1.bitPattern, at: at + 12)
                put(entry.box.2.bitPattern, at: at + 16)
                put(entry.box.3.bitPattern, at: at + 20)
                box = (
                    min(box.0, entry.box.0), max(box.1, entry.box.1), min(box.2, entry.box.2), max(box.3, entry.box.3)
                )
            }
            node.bind(1, Int64(number))
            data.withUnsafeBytes { node.bind(2, blob: $0) }
            _ = try node.run()
            if let above {
                parent.bind(1, Int64(number))
                parent.bind(2, Int64(above))
                _ = try parent.run()
            }
            return (Int64(number), box)
        }

        /// Maps each row of a leaf to it.
        func mapRows(_ entries: [Entry], to number: Int) throws(GeoConvError) {
            for entry in entries {
                rowID.bind(1, entry.id)
                rowID.bind(2, Int64(number))
                _ = try rowID.run()
            }
        }
    }
}
#endif
