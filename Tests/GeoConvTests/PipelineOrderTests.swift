import GeoConvCore
import GeoConvParallel
import GeoConvTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `inPipeline`'s `inOrder` stage: each item's outcome taken one at a time, in the items'
/// order, on the thread that processed it (so that what it holds is let go of there), before
/// `consume` sees it; and never stuck, whatever the jobs, the window and the time each item takes.
@Suite("The pipeline's in-order stage")
struct PipelineOrderTests {
    struct Outcome {
        var item: Int
        var thread: UInt
        var staged = false
    }

    #if canImport(Glibc)
    static func thread() -> UInt { UInt(pthread_self()) }
    #else
    static func thread() -> UInt { UInt(bitPattern: pthread_self()) }
    #endif

    @Test(
        "In order, on the processing thread, before consume",
        arguments: [(1, 1), (1, 4), (2, 1), (2, 4), (3, 6), (4, 8), (4, 2)])
    func inOrderOnProcessingThread(jobs: Int, window: Int) throws {
        let delays = {
            var random = SplitMix64(seed: UInt64(jobs * 31 + window))
            return (0..<120).map { _ in UInt32.random(in: 0..<400, using: &random) }
        }()
        let staged = Mutex<[Int]>([])
        var next = 0
        var consumed: [Int] = []
        try inPipeline(
            jobs: jobs, window: window,
            cut: { () throws(GeoConvError) -> Int? in
                guard next < delays.count else { return nil }
                next += 1
                return next - 1
            },
            process: { item in
                usleep(delays[item])
                return Outcome(item: item, thread: Self.thread())
            },
            inOrder: { item, outcome in
                #expect(outcome.thread == Self.thread(), "item \(item) staged on another thread")
                usleep(delays[delays.count - 1 - item] / 4)
                staged.withLock { $0.append(item) }
                outcome.staged = true
            }
        ) { (item, outcome) throws(GeoConvError) in
            #expect(outcome.item == item && outcome.staged)
            consumed.append(item)
        }
        #expect(staged.withLock { $0 } == Array(0..<delays.count))
        #expect(consumed == Array(0..<delays.count))
    }

    @Test("A failure to cut comes after the items before it, each staged")
    func cutFailure() {
        let staged = Mutex<[Int]>([])
        var next = 0
        var consumed: [Int] = []
        #expect(throws: GeoConvError.self) {
            try inPipeline(
                jobs: 2, window: 4,
                cut: { () throws(GeoConvError) -> Int? in
                    guard next < 9 else { throw GeoConvError(.invalidInput, "cut") }
                    next += 1
                    return next - 1
                },
                process: { Outcome(item: $0, thread: Self.thread()) },
                inOrder: { item, outcome in
                    staged.withLock { $0.append(item) }
                    outcome.staged = true
                }
            ) { (item, _) throws(GeoConvError) in consumed.append(item) }
        }
        #expect(consumed == Array(0..<9))
        #expect(staged.withLock { $0 } == Array(0..<9))
    }
}
