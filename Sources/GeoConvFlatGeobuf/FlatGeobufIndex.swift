import GeoConvCore
import GeoConvIO

/// A search of the packed Hilbert R-tree after the header (flatgeobuf's `PackedRTree`, from
/// its specification): the nodes a box reaches are read where they are (`pread`), level by
/// level from the root, so memory holds one node's children at a time and the offsets of the
/// features found.
struct FlatGeobufIndex {
    let input: ByteReader
    /// Where the index starts in the input.
    let start: Int
    let featureCount: Int
    let nodeSize: Int

    /// A box, edges in the file's coordinates.
    struct Box {
        var minX, minY, maxX, maxY: Double

        func intersects(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> Bool {
            self.maxX >= minX && self.minX <= maxX && self.maxY >= minY && self.minY <= maxY
        }
    }

    /// Each level's nodes (first and past-the-end node index), the leaves first, the root last.
    var levelBounds: [Range<Int>] { Self.levelBounds(featureCount: featureCount, nodeSize: nodeSize) }

    /// The levels of the packed tree over `featureCount` features (at least one), as the
    /// specification lays them out: each level's node indices, the leaves first (at the end
    /// of the written nodes), the root last (node 0). The reader and the writer both use it.
    static func levelBounds(featureCount: Int, nodeSize: Int) -> [Range<Int>] {
        var counts = [featureCount]
        var count = featureCount
        repeat {
            count = (count + nodeSize - 1) / nodeSize
            counts.append(count)
        } while count != 1
        var end = counts.reduce(0, +)
        var bounds: [Range<Int>] = []
        for levelCount in counts {
            end -= levelCount
            bounds.append(end..<(end + levelCount))
        }
        return bounds
    }

    /// The features whose boxes meet one of `boxes`: their offsets from the first feature, in
    /// file order.
    func search(_ boxes: [Box]) throws(GeoConvError) -> [Int] {
        let levels = levelBounds
        guard let leaves = levels.first else { return [] }
        let firstLeaf = leaves.lowerBound
        var found: [Int] = []
        var queue: [(node: Int, level: Int)] = [(0, levels.count - 1)]
        var next = 0
        while next < queue.count {
            let (node, level) = queue[next]
            next += 1
            let end = min(node + nodeSize, levels[level].upperBound)
            guard node < end else { continue }
            let range = (start + 40 * node)..<(start + 40 * end)
            guard let bytes = try input.bytes(in: range), bytes.count == range.count else {
                throw GeoConvError(
                    .invalidInput, "the spatial index ends early: the file is truncated",
                    at: SourceLocation(file: input.name, byteOffset: range.lowerBound))
            }
            for item in 0..<(end - node) {
                let at = 40 * item
                let minX = Self.double(bytes, at), minY = Self.double(bytes, at + 8)
                let maxX = Self.double(bytes, at + 16), maxY = Self.double(bytes, at + 24)
                guard boxes.contains(where: { $0.intersects(minX, minY, maxX, maxY) }) else { continue }
                let offset = Self.integer(bytes, at + 32)
                if node + item >= firstLeaf {
                    found.append(offset)
                } else if level > 0, levels[level - 1].contains(offset) {
                    // (A child on the level below, nowhere else: a damaged index cannot loop.)
                    queue.append((offset, level - 1))
                }
            }
        }
        return found.sorted()
    }

    private static func double(_ bytes: [UInt8], _ at: Int) -> Double {
        Double(bitPattern: UInt64(truncatingIfNeeded: integer(bytes, at)))
    }

    private static func integer(_ bytes: [UInt8], _ at: Int) -> Int {
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[at + shift]) << (8 * shift) }
        return Int(truncatingIfNeeded: value)
    }
}
