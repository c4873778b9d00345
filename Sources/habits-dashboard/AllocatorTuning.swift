import CLinux

/// Keeps glibc's allocator from holding on to memory the dashboard has freed (issue 23 point 6: RSS within 64 MB
/// under any flood). By default glibc gives each thread under contention its own arena (up to 8 per core), each
/// keeping its freed chunks, and after a large block is freed it raises its mmap threshold (up to 32 MiB) and its
/// trim threshold with it, so large renderings and buffers stay in the heap for good. With two arenas and fixed
/// thresholds, blocks of 128 KiB and more are mapped and unmapped, and free memory over 256 KiB at a heap's top goes
/// back to the kernel: in `scripts/abuse.sh` (release, load 11–16) the floods' RSS peak went from 64.6 to 58.9 MiB.
/// The same as `GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072:…`, set before any thread.
func limitAllocatorRetention() {
    _ = mallopt(M_ARENA_MAX, 2)
    _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    _ = mallopt(M_TRIM_THRESHOLD, 256 * 1024)
}
