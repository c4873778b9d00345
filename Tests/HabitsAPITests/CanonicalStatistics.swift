import Foundation

@testable import HabitsAPI

/// Every field of `statistics`, in a stable spelling, for comparing two decodes: the models' `==` compare ids and
/// names only.
func canonical(_ statistics: CombinedStatistics) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(statistics)
}
