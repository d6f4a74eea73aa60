#include "datapipelines/app/allocator_tuning.hpp"

#include <malloc.h>

#include <cstdlib>

namespace dp {

void TuneAllocator() {
  constexpr int kTrimThresholdBytes = 8 << 20;
  constexpr int kMmapThresholdBytes = 1 << 20;
  if (std::getenv("MALLOC_TRIM_THRESHOLD_") == nullptr) {
    mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes);
  }
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) {
    mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
  }
}

}  // namespace dp
