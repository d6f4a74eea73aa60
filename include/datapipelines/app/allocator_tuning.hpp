#pragma once

namespace dp {

// Keeps glibc's allocator from handing the pages of every large response back to the kernel
// after it is sent: a ~60 KB tools/list answer otherwise costs a dozen page faults per
// request, because each I/O thread's arena trims its top on free and the next response faults
// the pages in again. Fixes the trim threshold at 8 MiB and the mmap threshold at 1 MiB (which
// also stops glibc's dynamic threshold from moving). An operator's own MALLOC_TRIM_THRESHOLD_ /
// MALLOC_MMAP_THRESHOLD_ in the environment wins. Call once, before the server's threads start.
void TuneAllocatorForServing();

}  // namespace dp
