import Glibc
import Testing

@testable import HTTPServer

/// The connection cap is kept under the open-file limit (issue 46: 50 000 viewers against a limit of 20 000 crashed the
/// dashboard instead of meeting its cap).
@Suite struct FileDescriptorLimitTests {
    var hardLimit: Int {
        var limit = rlimit()
        _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return Int(clamping: limit.rlim_max)
    }

    @Test func aCapWithinTheLimitIsKept() {
        #expect(FileDescriptorLimit.connections(for: 100) == 100)
    }

    @Test func aCapBeyondTheHardLimitIsLoweredToItLessTheReserve() throws {
        let hard = hardLimit
        try #require(hard < 100_000_000, "an unlimited hard limit has nothing to lower to")
        #expect(FileDescriptorLimit.connections(for: 100_000_000) == hard - FileDescriptorLimit.reserve)
    }
}
