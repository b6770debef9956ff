package import GeoConvCore
import GeoConvIO
import HeapModule

/// Spooled rows handed back in the order of their Hilbert positions (ties in the order
/// given), with bounded memory and without a read per row: rows are gathered as they come
/// until `runBytes` are held, sorted there and written, sorted, to a scratch file as one
/// run; the runs are merged, each read a block at a time (more than `mergeWidth` runs are
/// first merged in groups into longer ones, so memory holds at most `mergeWidth` blocks).
/// Rows that fit in one run are sorted in memory and never written again. (Sorting only
/// where the rows lay, and reading each back there, cost a `pread` per row: a fifth of
/// writing a million points to FlatGeobuf.)
package struct HilbertSortedRows {
    /// A row in the run being gathered: its place in the sort and where its bytes are.
    private struct Held {
        var key: HilbertSortEntry
        var start: Int
    }

    private let runBytes: Int
    private var held: [Held] = []
    private var bytes: [UInt8] = []
    /// A run as it is written (its storage kept from one run to the next).
    private var run: [UInt8] = []
    private var sequence: UInt64 = 0
    private var scratch: ScratchFile?
    private var runs: [SortedRun] = []
    /// The next of `held` to hand back when every row fitted in one run.
    private var position = 0
    private var merge: RunMerge?

    /// The most runs merged at once, and the size of each one's reads.
    static let mergeWidth = 64
    static let blockBytes = 64 << 10

    /// Rows sorted in runs of about `runBytes` (a run ends with the row that reaches it).
    package init(runBytes: Int = 2 << 20) {
        self.runBytes = runBytes
    }

    /// Adds a row at `hilbert` (in the order given: rows at the same position stay so).
    package mutating func add(_ row: ArraySlice<UInt8>, hilbert: UInt32) throws(GeoConvError) {
        let key = HilbertSortEntry(hilbert: hilbert, length: UInt32(row.count), offset: sequence)
        held.append(Held(key: key, start: bytes.count))
        sequence += 1
        bytes.append(contentsOf: row)
        if bytes.count >= runBytes { try writeRun() }
    }

    /// Sorts what is held and appends it to the scratch file as a run: each row as its
    /// `HilbertSortEntry` (the sequence number as the offset), then its bytes.
    private mutating func writeRun() throws(GeoConvError) {
        guard !held.isEmpty else { return }
        held.sort { $0.key < $1.key }
        let file: ScratchFile
        if let made = scratch { file = made } else { file = try ScratchFile() }
        scratch = file
        let start = file.count
        run.removeAll(keepingCapacity: true)
        for row in held {
            row.key.append(to: &run)
            run.append(contentsOf: bytes[row.start..<(row.start + Int(row.key.length))])
        }
        try file.append(run)
        runs.append(SortedRun(offset: start, remaining: file.count - start))
        held.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Ends the adding: after this, `next` hands the rows back in order.
    package mutating func finishAdding() throws(GeoConvError) {
        guard var file = scratch else {
            held.sort { $0.key < $1.key }
            return
        }
        try writeRun()
        held = []
        bytes = []
        run = []
        // Merged in groups until few enough remain to merge at once.
        while runs.count > Self.mergeWidth {
            let longer = try ScratchFile()
            var merged: [SortedRun] = []
            var header: [UInt8] = []
            var row: [UInt8] = []
            for group in stride(from: 0, to: runs.count, by: Self.mergeWidth) {
                var groupMerge = try RunMerge(
                    Array(runs[group..<min(runs.count, group + Self.mergeWidth)]), in: file)
                let start = longer.count
                while let key = try groupMerge.next(into: &row) {
                    header.removeAll(keepingCapacity: true)
                    key.append(to: &header)
                    try longer.append(header)
                    try longer.append(row)
                }
                merged.append(SortedRun(offset: start, remaining: longer.count - start))
            }
            runs = merged
            file = longer
        }
        scratch = file
        merge = try RunMerge(runs, in: file)
    }

    /// Replaces `row`'s bytes with the next row's; `false` after the last.
    package mutating func next(into row: inout [UInt8]) throws(GeoConvError) -> Bool {
        if merge != nil { return try merge?.next(into: &row) != nil }
        row.removeAll(keepingCapacity: true)
        guard position < held.count else { return false }
        let start = held[position].start
        row.append(contentsOf: bytes[start..<(start + Int(held[position].key.length))])
        position += 1
        return true
    }
}

/// A run of sorted rows in a scratch file, read back a block at a time.
private struct SortedRun {
    var offset: Int
    var remaining: Int
    var block: [UInt8] = []
    var position = 0

    init(offset: Int, remaining: Int) {
        self.offset = offset
        self.remaining = remaining
    }

    /// Reads the next row's key and makes its bytes readable at the returned start in
    /// `block`; `nil` at the run's end.
    mutating func readHead(from file: ScratchFile) throws(GeoConvError) -> (HilbertSortEntry, Int)? {
        guard try available(HilbertSortEntry.size, from: file) else { return nil }
        let key = HilbertSortEntry(block, at: position)
        position += HilbertSortEntry.size
        guard try available(Int(key.length), from: file) else {
            throw GeoConvError(.io, "the temporary file of sorted rows ends inside a row")
        }
        return (key, position)
    }

    /// Whether `count` bytes from `position` are in the block, read from the file when not
    /// (the rest of the block kept); `false` at the run's end.
    private mutating func available(_ count: Int, from file: ScratchFile) throws(GeoConvError) -> Bool {
        let have = block.count - position
        if have >= count { return true }
        guard remaining > 0 else { return false }
        let wanted = min(remaining, max(HilbertSortedRows.blockBytes, count - have))
        var more: [UInt8] = []
        try file.read(wanted, at: offset, into: &more)
        block.removeFirst(position)
        block.append(contentsOf: more)
        position = 0
        offset += wanted
        remaining -= wanted
        return block.count >= count
    }
}

/// Sorted runs merged: the least head first.
private struct RunMerge {
    private struct Head: Comparable {
        var key: HilbertSortEntry
        var run: Int
        var start: Int

        static func < (a: Head, b: Head) -> Bool { a.key < b.key }
        static func == (a: Head, b: Head) -> Bool { a.key == b.key && a.run == b.run }
    }

    private var runs: [SortedRun]
    private let file: ScratchFile
    private var heads = Heap<Head>()

    init(_ runs: [SortedRun], in file: ScratchFile) throws(GeoConvError) {
        self.runs = runs
        self.file = file
        for index in runs.indices {
            if let (key, start) = try self.runs[index].readHead(from: file) {
                heads.insert(Head(key: key, run: index, start: start))
            }
        }
    }

    /// Replaces `row`'s bytes with the next row's and returns its key; `nil` after the last.
    mutating func next(into row: inout [UInt8]) throws(GeoConvError) -> HilbertSortEntry? {
        row.removeAll(keepingCapacity: true)
        guard let head = heads.popMin() else { return nil }
        let end = head.start + Int(head.key.length)
        row.append(contentsOf: runs[head.run].block[head.start..<end])
        runs[head.run].position = end
        if let (key, start) = try runs[head.run].readHead(from: file) {
            heads.insert(Head(key: key, run: head.run, start: start))
        }
        return head.key
    }
}
