import Dispatch

/// A task executor that runs jobs on a connection's serial queue.
///
/// Handler tasks prefer it (SE-0417), so a request is read, handled and answered on one queue — usually one
/// thread — instead of hopping to the cooperative pool and back: at benchmark rates those two wake-ups per
/// request cost more than the parsing. It also means the code after the handler's `await` runs on the
/// connection's queue, where the connection's state may be touched.
final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `queue` is immutable and DispatchQueue is thread-safe.
    let queue: DispatchQueue

    /// Wraps `queue`.
    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
