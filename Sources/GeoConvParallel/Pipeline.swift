import DequeModule
import Dispatch
package import GeoConvCore
package import GeoConvFormatKit
import GeoConvIO

extension FeatureRun {
    /// Where feature `index` of this run (counted from 0) is in the whole input: the run read
    /// again up to it by its reader. For placing a message about a feature parsed elsewhere,
    /// asked only for the first message of a kind; `nil` when it cannot be read.
    package func location(ofFeature index: Int, inputName: String) -> SourceLocation? {
        placeInRun(ofFeature: index, inputName: inputName).map(relocate)
    }

    /// Where feature `index` is in this run (the run's own place, before `relocate`).
    private func placeInRun(ofFeature index: Int, inputName: String) -> SourceLocation? {
        guard index >= 0 else { return nil }
        do throws(GeoConvError) {
            var reader = try reader(named: inputName, diagnostics: DiagnosticLog())
            _ = try reader.readHeader()
            for _ in 0...index where try reader.next() == nil { return nil }
            return reader.lastLocation
        } catch {
            return nil
        }
    }

    /// Makes `log` place its messages at the run's feature `ordinal` of the returned cursor
    /// (set it as each feature is read), the run read again up to it only when a message needs
    /// a place — the first of each kind — so that no place is made per feature. The places are
    /// the run's own, as the log's absorption with `relocate` expects.
    package func locatesCurrentFeature(in log: DiagnosticLog, inputName: String) -> FeatureCursor {
        let cursor = FeatureCursor()
        log.locateCurrent { [self] in placeInRun(ofFeature: cursor.ordinal, inputName: inputName) }
        return cursor
    }
}

/// Work in a pipeline, the shape of every `--jobs` path: `cut` makes the next item on this
/// thread (`nil` at the end); `process` works on it in the background, at most `jobs` items
/// at once, while more are cut; `consume` takes each item with its outcome, in order, on
/// this thread. Items flow without rounds: a worker that finishes takes the next item at
/// once, and at most `window` items are cut and not yet consumed (bounded memory). A failure
/// to cut is thrown after the items before it are consumed, so that the errors inside them
/// come first, as on one thread; no item is left running behind an error.
///
/// `inOrder`, when given, takes each item's outcome next, on the thread that processed it,
/// one item at a time and in order, before `consume`: a stage of stateful work done where the
/// outcome was made, so that what the outcome holds is let go of on the thread that made it
/// (memory freed on another thread contends for the allocator's lock of the thread that made
/// it, while that one makes more). No worker waits for its turn while it holds a place among
/// the `jobs`: items start in order, so the first not yet through is always moving.
package func inPipeline<Item, Outcome>(
    jobs: Int, window: Int, cut: () throws(GeoConvError) -> Item?, process: @escaping (Item) -> Outcome,
    inOrder: ((Item, inout Outcome) -> Void)? = nil,
    consume: (Item, Outcome) throws(GeoConvError) -> Void
) throws(GeoConvError) {
    let workers = DispatchSemaphore(value: max(1, jobs))
    var pending = Deque<(item: Item, task: BackgroundTask<Outcome>)>()
    defer { for entry in pending { _ = entry.task.value() } }
    var cutFailure: GeoConvError?
    var ended = false
    // (Each item's turn at `inOrder`: signalled by the item before it. Made at 0 and
    // signalled, not made at 1: libdispatch stops a process that lets go of a semaphore
    // below the value it was made with.)
    var turn = DispatchSemaphore(value: 0)
    turn.signal()
    let ordered = inOrder.map { UncheckedBox($0) }
    while true {
        while !ended, pending.count < max(1, window) {
            do throws(GeoConvError) {
                guard let item = try cut() else {
                    ended = true
                    break
                }
                let box = UncheckedBox(item)
                let (mine, next) = (turn, DispatchSemaphore(value: 0))
                if ordered != nil { turn = next }
                pending.append(
                    (
                        item,
                        BackgroundTask {
                            workers.wait()
                            var outcome = process(box.value)
                            workers.signal()
                            if let ordered {
                                mine.wait()
                                ordered.value(box.value, &outcome)
                                next.signal()
                            }
                            return outcome
                        }
                    ))
            } catch {
                cutFailure = error
                ended = true
            }
        }
        guard let oldest = pending.popFirst() else { break }
        try consume(oldest.item, oldest.task.value())
    }
    if let cutFailure { throw cutFailure }
}
