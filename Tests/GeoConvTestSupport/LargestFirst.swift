import Foundation
import Synchronization

/// `body` applied to each index of `sizes` on `threads` threads, the largest item first (so
/// that no thread is left with a large one at the end); the results by index, for the caller
/// to look at in its own order. For corpus-wide checks, one file per call.
public func mapLargestFirst<Result: Sendable>(
    sizes: [Int], threads: Int = 2, _ body: @Sendable (Int) -> Result
) -> [Result?] {
    let order = sizes.indices.sorted { sizes[$0] > sizes[$1] }
    let results = Mutex([Result?](repeating: nil, count: sizes.count))
    let next = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
        while true {
            let claimed = next.withLock { claimed in
                defer { claimed += 1 }
                return claimed
            }
            guard claimed < order.count else { return }
            let index = order[claimed]
            let result = body(index)
            results.withLock { $0[index] = result }
        }
    }
    return results.withLock { $0 }
}
