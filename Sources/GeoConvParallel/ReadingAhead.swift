import DequeModule
import Foundation
package import GeoConvCore
package import GeoConvFormatKit

/// A reader that reads ahead on a thread of its own: the reader it wraps parses there while
/// the thread that asks for features (`pump`'s) transforms and writes them, joined by a
/// bounded queue. Features come in the input's order, and memory stays bounded: the queue
/// holds at most about `maximumQueuedPositions` coordinates (a property counting for four,
/// `weight(of:)`; plus one batch), whatever the file's size. The wrapped reader's warnings go to its own log, which only its thread uses
/// until the end; a strict log's error there ends reading, and `next()` throws it in order.
///
/// The header is read on the calling thread, the features after it on the reader's; when
/// the decorator is dropped (an error while writing, for example), that thread is told to
/// stop and waited for, so no reading is left running behind an error.
package final class ReadingAhead<Reader: FeatureReader>: FeatureReader {
    private var reader: Reader?
    /// The header, once read (or when it was read before the reader was wrapped).
    private var header: DocumentHeader?
    private let queue: FeatureQueue
    private let maximumQueuedPositions: Int
    private var finished: DispatchSemaphore?
    private var batch = Deque<(Feature, SourceLocation?)>()
    private var ended = false
    package private(set) var lastLocation: SourceLocation?

    /// Wraps `reader`, which is used only by the reading thread once `readHeader()` returns;
    /// `header` is its header when that was read already.
    package init(_ reader: consuming Reader, header: DocumentHeader? = nil, maximumQueuedPositions: Int = 1 << 17) {
        self.reader = reader
        self.header = header
        self.maximumQueuedPositions = maximumQueuedPositions
        queue = FeatureQueue(maximumWeight: maximumQueuedPositions)
    }

    deinit {
        queue.cancel()
        finished?.wait()
    }

    /// What a queued feature counts for against `maximumQueuedPositions`: its positions,
    /// and four for each property (a key and a value weigh about what four positions do), so
    /// that points with many columns are bounded as tightly as lines with many vertices.
    static func weight(of feature: borrowing Feature) -> Int {
        1 + (feature.geometry?.coordinateCount ?? 0) + 4 * feature.properties.count
    }

    package func readHeader() throws(GeoConvError) -> DocumentHeader {
        guard var reader = reader.take() else { return header ?? DocumentHeader() }
        let header: DocumentHeader
        if let known = self.header { header = known } else { header = try reader.readHeader() }
        self.header = header
        start(reader)
        return header
    }

    package func next() throws(GeoConvError) -> Feature? {
        // (Asked before the header: read it first, which starts the reading thread.)
        if reader != nil { _ = try readHeader() }
        while true {
            if let (feature, location) = batch.popFirst() {
                lastLocation = location
                return feature
            }
            guard !ended else { return nil }
            switch queue.take() {
            case .end:
                ended = true
                return nil
            case .failure(let error):
                ended = true
                throw error
            case .batch(let items):
                // Popped, so each feature moves on to the writer rather than being copied.
                batch = items
            }
        }
    }

    /// Starts the reading thread, which owns `reader` from here.
    private func start(_ reader: consuming Reader) {
        let finished = DispatchSemaphore(value: 0)
        self.finished = finished
        let queue = self.queue
        let maximumQueuedPositions = self.maximumQueuedPositions
        var owned: Reader? = reader
        let job = ReaderJob {
            defer { finished.signal() }
            guard var reader = owned.take() else { return }
            var batch = Deque<(Feature, SourceLocation?)>()
            var weight = 0
            do throws(GeoConvError) {
                while let feature = try reader.next() {
                    batch.append((feature, reader.lastLocation))
                    weight += Self.weight(of: feature)
                    if batch.count >= 256 || weight >= maximumQueuedPositions / 8 {
                        guard queue.put(.batch(batch), weight: weight) else { return }
                        batch = Deque()
                        weight = 0
                    }
                }
                if !batch.isEmpty { guard queue.put(.batch(batch), weight: weight) else { return } }
                _ = queue.put(.end, weight: 0)
            } catch {
                _ = queue.put(.failure(error), weight: 0)
            }
        }
        let thread = Thread { job.run() }
        thread.stackSize = 16 << 20
        thread.name = "geoconv-reader"
        thread.start()
    }
}

/// The reader thread's work. The closure owns the reader, and the calling thread never
/// touches the reader again once the thread starts, so no state is shared through it.
private final class ReaderJob: @unchecked Sendable {
    package let run: () -> Void
    package init(_ run: @escaping () -> Void) { self.run = run }
}

/// A bounded single-producer, single-consumer queue of feature batches. All state is
/// guarded by `condition`, which is what makes the unchecked `Sendable` sound.
final class FeatureQueue: @unchecked Sendable {
    enum Item {
        case batch(Deque<(Feature, SourceLocation?)>)
        case failure(GeoConvError)
        case end
    }

    private let condition = NSCondition()
    private var items = Deque<(Item, Int)>()
    private var weight = 0
    private var cancelled = false
    private let maximumWeight: Int

    package init(maximumWeight: Int) { self.maximumWeight = maximumWeight }

    /// Waits for room, then adds an item; false when the consumer has given up.
    package func put(_ item: Item, weight itemWeight: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && !items.isEmpty && weight + itemWeight > maximumWeight { condition.wait() }
        guard !cancelled else { return false }
        items.append((item, itemWeight))
        weight += itemWeight
        condition.broadcast()
        return true
    }

    /// Waits for an item and removes it.
    package func take() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty { condition.wait() }
        let (item, itemWeight) = items.removeFirst()
        weight -= itemWeight
        condition.broadcast()
        return item
    }

    /// Tells the producer to stop.
    package func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
