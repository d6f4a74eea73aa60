#pragma once

namespace dp {

// Two fixed glibc thresholds, set once at the start of every command, before any thread starts:
// - mmap at 1 MiB: glibc's dynamic threshold rises to the size of every big block freed and then
//   keeps such blocks (a probe's multi-megabyte cells, a render's budget) in the per-thread
//   arenas; RSS grew ~20 MB per blob probe until it was measured at 700 MB
//   (tests/e2e/hardening_load.test.mjs). Blocks of 1 MiB and more are mapped and unmapped.
// - trim at 8 MiB: otherwise each I/O thread's arena hands the top of its heap back to the
//   kernel after every response and the next one faults the pages in again (a ~60 KB
//   tools/list answer cost a dozen page faults per request).
// An operator's own MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ in the environment wins.
void TuneAllocator();

}  // namespace dp
