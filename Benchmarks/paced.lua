-- wrk script for Benchmarks/pages.sh's table at the same load: each connection waits 1 ms after an answer before
-- its next request, so with 64 connections both servers get the same, moderate request rate (about 30 000 a second
-- on a 2-core machine: wrk's millisecond timers fire late), and their p99s compare at one load instead of at each
-- one's full speed.
function delay()
    return 1
end
