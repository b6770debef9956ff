import Dispatch

extension Array {
    /// `transform` applied to every element on all cores at once, the results in order.
    /// `transform` and the elements are only read by the workers; each call must make its
    /// own mutable state (readers, writers, logs).
    package func concurrentMap<Result>(_ transform: (Element) -> Result) -> [Result] {
        let slots = Slots<Result>(count: count)
        withoutActuallyEscaping(transform) { transform in
            let work = UncheckedBox((items: self, transform: transform))
            DispatchQueue.concurrentPerform(iterations: count) { index in
                slots.set(index, work.value.transform(work.value.items[index]))
            }
        }
        return slots.values()
    }
}

/// Work started on another thread now, its result waited for later (so that this thread
/// can do something else meanwhile: cut the next round of input, write the last one's).
package final class BackgroundTask<Value>: @unchecked Sendable {
    private let done = DispatchGroup()
    private var result: Value?
    /// The work, until it has run: released on its thread *before* the task is done, so that
    /// what it captured (writers holding temporary folders) is gone when `value()` returns —
    /// not released later by the queue, racing the process's exit.
    private var work: (() -> Value)?

    /// Starts `work` on a global queue. What it reads must not change until `value()`.
    package init(_ work: @escaping () -> Value) {
        self.work = work
        done.enter()
        DispatchQueue.global().async { [self] in
            run()
            done.leave()
        }
    }

    /// Runs the work and lets go of it (the block calling this holds only the task).
    private func run() {
        result = work?()
        work = nil
    }

    /// Waits for the work and returns its result.
    package func value() -> Value {
        done.wait()
        guard let result else { preconditionFailure("a finished task has its result") }
        return result
    }
}

/// Per-index result slots filled by concurrent workers, guarded by a lock.
private final class Slots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = DispatchSemaphore(value: 1)
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: Value) {
        lock.wait()
        slots[index] = value
        lock.signal()
    }
    func values() -> [Value] { slots.compactMap { $0 } }
}

/// Hands a value to other threads, which only read it (the conversion's closures and
/// options are immutable; each worker makes its own readers, writers and logs).
package struct UncheckedBox<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
