import Dispatch
import Foundation
import GeoConv
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress bar on standard error for long conversions, by input bytes read: shown only
/// when standard error is a terminal, the input is a regular file, and the conversion has
/// taken more than half a second; erased when the conversion ends.
final class ProgressBar: Sendable {
    let counter = ProgressCounter()
    private let total: Int
    private let name: String
    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    private init(total: Int, name: String) {
        self.total = total
        self.name = name
    }

    /// Starts a bar for `path`, or returns nil when no bar should be drawn.
    static func start(for path: String) -> ProgressBar? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        let bar = ProgressBar(total: Int(info.st_size), name: path)
        // Its own thread: a sleeping loop must not take a slot of Dispatch's pool, which
        // the parallel conversion uses.
        Thread.detachNewThread { bar.loop() }
        return bar
    }

    /// Stops drawing and erases the bar.
    func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        finished.wait()
    }

    private func loop() {
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        let start = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9
        var drawn = false
        while running.load(ordering: .relaxed) {
            usleep(100_000)
            clock_gettime(CLOCK_MONOTONIC, &clock)
            let elapsed = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9 - start
            guard elapsed > 0.5, running.load(ordering: .relaxed) else { continue }
            draw(read: counter.value, elapsed: elapsed)
            drawn = true
        }
        if drawn { write(STDERR_FILENO, "\r\u{1B}[K", 4) }
        finished.signal()
    }

    private func draw(read: Int, elapsed: Double) {
        let fraction = min(1, Double(read) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let rate = Double(read) / elapsed / 1e6
        let remaining = rate > 0 ? Double(total - min(read, total)) / 1e6 / rate : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line =
            "\r\(bar) \(Int(fraction * 100))%  \(read / 1_000_000)/\(total / 1_000_000) MB  \(Int(rate)) MB/s  \(Int(remaining))s left \u{1B}[K"
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
