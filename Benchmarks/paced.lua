-- wrk script for Benchmarks/pages.sh's table at the same load: each connection waits 1 ms after an answer before
-- its next request, so with 64 connections a server answering in about a quarter of a millisecond gets about
-- 50 000 requests a second, and the p99s of two servers compare at one load instead of at each one's full speed.
function delay()
    return 1
end
