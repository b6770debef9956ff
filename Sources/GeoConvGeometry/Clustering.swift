import Dispatch
public import GeoConvCore
import GeoConvIO
import Synchronization

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Marker clustering: the Maps utility libraries' non-hierarchical distance-based algorithm,
/// exactly — items visited in insertion order; each unvisited item starts a cluster placed at
/// that item (not the centroid); its neighbours come from a box query around it; an item
/// already in a cluster moves only to a strictly closer one — over a spatial index (items
/// sorted once by Morton code, boxes found by binary search), so millions of markers cluster
/// in well under a second per zoom.
public struct MarkerClusterer: Sendable {
    /// Which utility library's parameters to follow.
    public enum Variant: String, Hashable, Sendable, CaseIterable {
        /// Maps SDK for iOS utility library: ±distance points at the fractional zoom (default).
        case ios
        /// android-maps-utils: ±distance/2 points at the floored zoom.
        case android
    }

    /// One cluster: where it is, and which items (indices into the input) it holds.
    public struct Cluster: Hashable, Sendable {
        /// The position of the item that started the cluster.
        public var position: Coordinate
        /// Indices of the member items, ascending.
        public var members: [Int]
    }

    /// The clusters of one zoom in compact form: for each cluster the item that started it,
    /// and for each item its cluster.
    public struct Clustering: Sendable {
        /// The zoom.
        public var zoom: Double
        /// For each cluster, in creation order, the index of the item that started it.
        public var starts: [Int32]
        /// For each item, the index of its cluster.
        public var owners: [Int32]

        /// The number of clusters.
        public var count: Int { starts.count }

        /// Each cluster's size.
        public var sizes: [Int] {
            var sizes = [Int](repeating: 0, count: starts.count)
            for owner in owners { sizes[Int(owner)] += 1 }
            return sizes
        }
    }

    /// The cluster distance in screen points (100 in both libraries).
    public var distance: Double
    /// iOS or Android semantics.
    public var variant: Variant

    private let positions: [Coordinate]
    /// World-point coordinates in Morton order (`order`), so that a cell's items are read
    /// one after another.
    private let x: [Double], y: [Double]
    /// Item indices sorted by Morton code, and the sorted codes.
    private let order: [Int32]
    private let codes: [UInt64]
    /// Each item's index in `order` (where a search for its neighbours' cells starts).
    private let rank: [Int32]

    static let bits = 31
    static let resolution = Double(1 << bits)

    /// Indexes the items once; `clusters(atZoom:)` then clusters them at any zoom.
    public init(positions: [Coordinate], distance: Double = 100, variant: Variant = .ios) {
        self.positions = positions
        self.distance = distance
        self.variant = variant
        // World points and Morton codes, in slices on every core.
        let n = positions.count
        let slices = stride(from: 0, to: n, by: 1 << 16).map { $0..<min(n, $0 + (1 << 16)) }
        let projected = slices.concurrentMap { slice -> (x: [Double], y: [Double], codes: [UInt64]) in
            var x = [Double]()
            var y = [Double]()
            var codes = [UInt64]()
            x.reserveCapacity(slice.count)
            y.reserveCapacity(slice.count)
            codes.reserveCapacity(slice.count)
            for i in slice {
                let w = WorldPoints.point(positions[i])
                x.append(w.x)
                y.append(w.y)
                codes.append(MarkerClusterer.morton(w.x, w.y))
            }
            return (x, y, codes)
        }
        let x = projected.flatMap(\.x)
        let y = projected.flatMap(\.y)
        // In Morton order; equal codes stay in item order (a stable radix sort).
        let (codes, order) = MarkerClusterer.sortedByCode(projected.flatMap(\.codes))
        self.order = order
        self.codes = codes
        self.x = order.map { x[Int($0)] }
        self.y = order.map { y[Int($0)] }
        var rank = [Int32](repeating: 0, count: positions.count)
        for (index, item) in order.enumerated() { rank[Int(item)] = Int32(index) }
        self.rank = rank
    }

    /// `codes` sorted, and the index each came from: a least-significant-digit radix sort,
    /// 16 bits a pass (a Morton code holds 62), which keeps equal codes in index order.
    static func sortedByCode(_ codes: [UInt64]) -> (codes: [UInt64], order: [Int32]) {
        let n = codes.count
        var keys = codes
        var items = (0..<Int32(n)).map { $0 }
        var otherKeys = [UInt64](repeating: 0, count: n)
        var otherItems = [Int32](repeating: 0, count: n)
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 1 << 16)
        defer { counts.deallocate() }
        for shift in stride(from: UInt64(0), to: 64, by: 16) {
            let moved = keys.withUnsafeBufferPointer { keys in
                items.withUnsafeBufferPointer { items in
                    otherKeys.withUnsafeMutableBufferPointer { otherKeys in
                        otherItems.withUnsafeMutableBufferPointer { otherItems in
                            counts.initialize(repeating: 0)
                            for key in keys { counts[Int((key >> shift) & 0xFFFF)] += 1 }
                            // One digit for all: nothing moves in this pass.
                            if let first = keys.first, counts[Int((first >> shift) & 0xFFFF)] == n { return false }
                            var total = 0
                            for index in counts.indices {
                                let count = counts[index]
                                counts[index] = total
                                total += count
                            }
                            for index in 0..<n {
                                let digit = Int((keys[index] >> shift) & 0xFFFF)
                                let place = counts[digit]
                                counts[digit] = place + 1
                                otherKeys[place] = keys[index]
                                otherItems[place] = items[index]
                            }
                            return true
                        }
                    }
                }
            }
            if moved {
                swap(&keys, &otherKeys)
                swap(&items, &otherItems)
            }
        }
        return (keys, items)
    }

    static func cell(_ v: Double) -> UInt64 {
        UInt64(max(0, min(resolution - 1, (v / WorldPoints.tileSize * resolution).rounded(.down))))
    }

    static func spread(_ v: UInt64) -> UInt64 {
        var x = v & 0x7FFF_FFFF
        x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
        x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
        x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | (x << 2)) & 0x3333_3333_3333_3333
        x = (x | (x << 1)) & 0x5555_5555_5555_5555
        return x
    }

    static func morton(_ x: Double, _ y: Double) -> UInt64 { spread(cell(x)) | (spread(cell(y)) << 1) }

    /// The first index in `codes` not below `value`, searched outwards from `hint` in
    /// doubling steps and then by halves: a neighbour's cell is a few places away in the
    /// Morton order far more often than it is far (fewer, cache-friendly probes than a
    /// search of the whole order).
    private func lowerBound(_ value: UInt64, near hint: Int) -> Int {
        let n = codes.count
        var low = 0
        var high = n
        if hint < n && codes[hint] < value {
            var known = hint
            var step = 1  // codes[known] < value
            while true {
                let probe = hint + step
                if probe >= n {
                    (low, high) = (known + 1, n)
                    break
                }
                if codes[probe] < value {
                    known = probe
                    step <<= 1
                } else {
                    (low, high) = (known + 1, probe)
                    break
                }
            }
        } else {
            var known = min(hint, n)
            var step = 1  // codes[known] >= value, or known == n
            while true {
                let probe = hint - step
                if probe < 0 {
                    (low, high) = (0, known)
                    break
                }
                if codes[probe] >= value {
                    known = probe
                    step <<= 1
                } else {
                    (low, high) = (probe + 1, known)
                    break
                }
            }
        }
        while low < high {
            let mid = (low + high) / 2
            if codes[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The half-width of the neighbourhood box, in zoom-0 world points.
    public func halfSpan(atZoom zoom: Double) -> Double {
        switch variant {
        case .ios: distance / pow(2, zoom)
        case .android: distance / 2 / pow(2, zoom.rounded(.down))
        }
    }

    /// The clusters at a zoom, in the order the algorithm creates them.
    public func clusters(atZoom zoom: Double) -> [Cluster] {
        let result = clustering(atZoom: zoom)
        var members = [[Int]](repeating: [], count: result.starts.count)
        for (item, owner) in result.owners.enumerated() { members[Int(owner)].append(item) }
        return zip(result.starts, members).map { Cluster(position: positions[Int($0.0)], members: $0.1) }
    }

    /// The clusters of every zoom in `zooms`, computed in parallel on all cores (zooms are
    /// independent), in zoom order.
    public func clusterings(zooms: [Double]) -> [Clustering] {
        let results = Mutex<[Int: Clustering]>([:])
        DispatchQueue.concurrentPerform(iterations: zooms.count) { index in
            let result = clustering(atZoom: zooms[index])
            results.withLock { $0[index] = result }
        }
        return results.withLock { all in zooms.indices.compactMap { all[$0] } }
    }

    /// The clusters at a zoom in compact form.
    public func clustering(atZoom zoom: Double) -> Clustering {
        let n = positions.count
        guard n > 0 else { return Clustering(zoom: zoom, starts: [], owners: []) }
        let h = halfSpan(atZoom: zoom)
        // Index cells: the coarsest power-of-two grid whose cells are at least 2h wide, so a
        // box touches at most 2 × 2 cells; a cell is a contiguous run of the Morton order.
        var level = 0
        while level < MarkerClusterer.bits && WorldPoints.tileSize / Double(1 << (level + 1)) >= 2 * h { level += 1 }
        let shift = UInt64(2 * (MarkerClusterer.bits - level))
        let cellsPerAxis = Double(1 << level)

        // Bookkeeping by place in the Morton order (the index's order), turned into item order at the end.
        var visited = [Bool](repeating: false, count: n)
        var best = [Double](repeating: .infinity, count: n)
        var owner = [Int32](repeating: -1, count: n)
        var starts: [Int32] = []
        var candidates: [Int32] = []
        for candidate in 0..<n {
            let place = Int(rank[candidate])
            if visited[place] { continue }
            let cx = x[place]
            let cy = y[place]
            let minX = cx - h
            let maxX = cx + h
            let minY = cy - h
            let maxY = cy + h
            let clusterID = Int32(starts.count)
            starts.append(Int32(candidate))
            candidates.removeAll(keepingCapacity: true)
            let cellX0 = max(0, Int((minX / WorldPoints.tileSize * cellsPerAxis).rounded(.down)))
            let cellX1 = min(Int(cellsPerAxis) - 1, Int((maxX / WorldPoints.tileSize * cellsPerAxis).rounded(.down)))
            let cellY0 = max(0, Int((minY / WorldPoints.tileSize * cellsPerAxis).rounded(.down)))
            let cellY1 = min(Int(cellsPerAxis) - 1, Int((maxY / WorldPoints.tileSize * cellsPerAxis).rounded(.down)))
            if cellX0 <= cellX1 && cellY0 <= cellY1 {
                for cellY in cellY0...cellY1 {
                    for cellX in cellX0...cellX1 {
                        let prefix =
                            (MarkerClusterer.spread(UInt64(cellX)) | (MarkerClusterer.spread(UInt64(cellY)) << 1))
                            << shift
                        var i = lowerBound(prefix, near: place)
                        let end = shift >= 64 ? codes.count : lowerBound(prefix + (1 << shift), near: i)
                        while i < end {
                            let ix = x[i]
                            let iy = y[i]
                            if ix >= minX && ix <= maxX && iy >= minY && iy <= maxY { candidates.append(Int32(i)) }
                            i += 1
                        }
                    }
                }
            }
            for item32 in candidates {
                let item = Int(item32)
                let dx = x[item] - cx
                let dy = y[item] - cy
                let d = dx * dx + dy * dy
                if owner[item] >= 0 && best[item] <= d { continue }  // moves only to a strictly closer cluster
                best[item] = d
                owner[item] = clusterID
                visited[item] = true
            }
            if owner[place] != clusterID {  // cannot happen (distance 0), but keep the candidate its own
                owner[place] = clusterID
                best[place] = 0
                visited[place] = true
            }
        }
        let owners = rank.map { owner[Int($0)] }
        return Clustering(zoom: zoom, starts: starts, owners: owners)
    }
}
