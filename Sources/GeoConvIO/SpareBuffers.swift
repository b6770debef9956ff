internal import Synchronization

/// Byte buffers written and let go of, kept for the next run to write into (`--jobs`).
///
/// A run's records are written on a worker into a buffer of their own, added to the output
/// on the writer's thread, and let go of. A new buffer for the next run grows into fresh
/// pages, a page fault every 4 KiB (KML with style rules on 1 M points: 24,000–34,000
/// faults, ~6,200 with the buffers kept); a kept one has its pages. A few are kept, none
/// larger than a run of small features needs.
package final class SpareBuffers: Sendable {
    private let spares = Mutex<[[UInt8]]>([])

    /// At most this many buffers wait, none larger than `largest` bytes (a run of large
    /// features is let go of).
    package static let count = 4
    package static let largest = 8 << 20

    package init() {}

    /// Keeps `buffer`, written, for a later run. (A buffer someone else still holds is kept
    /// too: emptying it then makes a new one — slower, never wrong.)
    package func keep(_ buffer: [UInt8]) {
        guard buffer.capacity > 0, buffer.capacity <= Self.largest else { return }
        spares.withLock { spares in
            if spares.count < Self.count { spares.append(buffer) }
        }
    }

    /// The buffer kept first (whose run's reader has most likely let go of it by now),
    /// emptied, or a new one when none is kept.
    package func take() -> [UInt8] {
        var buffer = spares.withLock { $0.isEmpty ? [] : $0.removeFirst() }
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }
}
