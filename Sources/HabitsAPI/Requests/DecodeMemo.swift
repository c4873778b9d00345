import Synchronization

/// What a client keeps between answers to decode the next one cheaply: today the last `/combinedStats` answer's
/// entries (`StatisticsDecodeMemo`). One per `HabitsClient`; requests that have no use for it ignore it.
public final class DecodeMemo: Sendable {
    private let statistics = Mutex(StatisticsDecodeMemo())

    /// An empty memo.
    public init() {}

    /// Runs `decode` on a copy of the statistics memo and keeps the copy when it returns. The lock is not held while
    /// decoding: two decodes at once each start from the memo as it was, and either result is a correct memo.
    func withStatistics<T>(
        _ decode: (inout StatisticsDecodeMemo) throws(HabitsAPIError) -> T
    ) throws(HabitsAPIError) -> T {
        var memo = statistics.withLock { $0 }
        let result = try decode(&memo)
        statistics.withLock { [memo] in $0 = memo }
        return result
    }
}
