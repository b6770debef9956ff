import Foundation
import DequeModule

/// Runs a conversion on two threads: the reader parses on a background thread while the
/// calling thread transforms and writes, joined by a bounded queue. Output order is the
/// input order, and memory stays bounded: the queue holds at most about `maximumQueuedPositions`
/// coordinates (plus one batch), whatever the file's size.
///
/// The reader's warnings go to `readDiagnostics` (used only by the reader thread), the
/// transforms' and writer's to `writeDiagnostics`; a strict log's error stops both sides.
/// The writer's `finish()` is called only when everything succeeded.
@discardableResult
public func pumpConcurrently<Reader: FeatureReader, Writer: FeatureWriter>(
    from reader: consuming Reader, to writer: inout Writer, transforms: [any FeatureTransform] = [],
    readDiagnostics: DiagnosticLog, writeDiagnostics: DiagnosticLog, maximumQueuedPositions: Int = 1 << 17
) throws(GeoConvError) -> PumpStatistics {
    var transforms = transforms
    var statistics = PumpStatistics()
    try writer.begin(transforms.apply(to: reader.readHeader(), diagnostics: writeDiagnostics))

    let queue = FeatureQueue(maximumWeight: maximumQueuedPositions)
    let finished = DispatchSemaphore(value: 0)
    var owned: Reader? = reader
    let job = ReaderJob {
        defer { finished.signal() }
        guard var reader = owned.take() else { return }
        var batch = Deque<(Feature, SourceLocation?)>()
        var weight = 0
        do throws(GeoConvError) {
            while let feature = try reader.next() {
                batch.append((feature, reader.lastLocation))
                weight += 1 + (feature.geometry?.coordinateCount ?? 0)
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

    do throws(GeoConvError) {
        loop: while true {
            switch queue.take() {
            case .end: break loop
            case .failure(let error): throw error
            case .batch(var items):
                // Popped, so each feature moves on to the writer rather than being copied.
                while let (feature, location) = items.popFirst() {
                    statistics.featuresRead += 1
                    writeDiagnostics.currentLocation = location
                    try transforms.apply(to: feature, diagnostics: writeDiagnostics) { (item: inout Feature) throws(GeoConvError) in
                        try writer.write(item)
                        statistics.featuresWritten += 1
                    }
                }
            }
        }
    } catch {
        queue.cancel()
        finished.wait()
        throw error
    }
    finished.wait()
    writeDiagnostics.currentLocation = nil
    try writer.finish()
    return statistics
}

/// The reader thread's work. The closure owns the reader, and the calling thread never
/// touches the reader again once the thread starts, so no state is shared through it.
private final class ReaderJob: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// A bounded single-producer, single-consumer queue of feature batches. All state is
/// guarded by `condition`, which is what makes the unchecked `Sendable` sound.
private final class FeatureQueue: @unchecked Sendable {
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

    init(maximumWeight: Int) { self.maximumWeight = maximumWeight }

    /// Waits for room, then adds an item; false when the consumer has given up.
    func put(_ item: Item, weight itemWeight: Int) -> Bool {
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
    func take() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty { condition.wait() }
        let (item, itemWeight) = items.removeFirst()
        weight -= itemWeight
        condition.broadcast()
        return item
    }

    /// Tells the producer to stop.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
