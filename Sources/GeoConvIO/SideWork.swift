/// Where a codec's work that can overlap its own runs — a GeoParquet row group encoded and
/// compressed while the next is built — so that the codec never learns about threads: it
/// hands the work here and asks for the result when it needs it. `inline` (the default)
/// does the work when it is handed over; the converter gives `background` when it has
/// threads to spare (`--jobs 2` or more).
public struct SideWork: Hashable, Sendable {
    private let name: String
    private let start: @Sendable (_ work: @escaping () -> Void) -> (@Sendable () -> Void)

    private init(name: String, start: @escaping @Sendable (_ work: @escaping () -> Void) -> (@Sendable () -> Void)) {
        self.name = name
        self.start = start
    }

    /// The work is done when it is handed over, on the codec's own thread.
    public static let inline = SideWork(name: "inline") { work in
        work()
        return {}
    }

    /// The work is done on another thread while the codec goes on.
    package static let background = SideWork(name: "background") { work in
        let task = BackgroundTask(work)
        return { task.value() }
    }

    /// Hands `work` over; its result is `Pending.value()`. What `work` reads must not change
    /// until then.
    package func hand<Value>(_ work: @escaping () -> Value) -> Pending<Value> {
        let slot = Pending<Value>.Slot()
        let wait = start { slot.value = work() }
        return Pending(slot: slot, wait: wait)
    }

    /// Work handed over, and its result once done.
    package struct Pending<Value> {
        final class Slot: @unchecked Sendable { var value: Value? }
        fileprivate let slot: Slot
        fileprivate let wait: @Sendable () -> Void

        /// Waits for the work (when it runs elsewhere) and returns its result.
        package func value() -> Value {
            wait()
            guard let value = slot.value else { preconditionFailure("work that is done has its result") }
            return value
        }
    }

    public static func == (a: SideWork, b: SideWork) -> Bool { a.name == b.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
