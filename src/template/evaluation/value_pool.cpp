#include "template/evaluation/value_pool.hpp"

#include <memory>
#include <new>

#include "template/evaluation/value.hpp"

namespace dp::tmpl {
namespace {

// Chunks of finished renders, reused by the thread's next ones instead of going back to
// malloc each time; at most kSpareChunks are kept per thread.
constexpr size_t kSpareChunks = 8;
thread_local std::vector<std::unique_ptr<std::byte[]>> spare_chunks;

}  // namespace

void ValuePool::Charge(size_t bytes) {
  if (max_bytes_ != 0 && footprint_ + bytes > max_bytes_) throw Exhausted();
  footprint_ += bytes;
}

void* ValuePool::Allocate(size_t bytes) {
  if (bytes > kBlockBytes) {
    Charge(bytes);
    return ::operator new(bytes);
  }
  if (free_) {
    FreeBlock* block = free_;
    free_ = block->next;
    return block;
  }
  if (carved_ == kBlocksPerChunk) {
    Charge(kBlockBytes * kBlocksPerChunk);
    // operator new[] aligns to __STDCPP_DEFAULT_NEW_ALIGNMENT__, and blocks are a multiple of it.
    chunks_.push_back(NewChunk());
    carved_ = 0;
  }
  return chunks_.back().get() + kBlockBytes * carved_++;
}

ValuePool::Chunk ValuePool::NewChunk() {
  if (!spare_chunks.empty()) {
    Chunk chunk = std::move(spare_chunks.back());
    spare_chunks.pop_back();
    return chunk;
  }
  return std::make_unique_for_overwrite<std::byte[]>(kBlockBytes * kBlocksPerChunk);
}

ValuePool::~ValuePool() {
  for (Chunk& chunk : chunks_) {
    if (spare_chunks.size() >= kSpareChunks) break;
    spare_chunks.push_back(std::move(chunk));
  }
}

void ValuePool::Deallocate(void* p, size_t bytes) {
  if (bytes > kBlockBytes) {
    footprint_ -= bytes;
    ::operator delete(p);
    return;
  }
  free_ = new (p) FreeBlock{free_};
}

void ValueSlots::Allocate(size_t size) {
  Release();
  pool_ = ValuePool::Current();
  const size_t bytes = size * sizeof(ValuePtr);
  void* memory = pool_ ? pool_->Allocate(bytes) : ::operator new(bytes);
  slots_ = static_cast<ValuePtr*>(memory);
  std::uninitialized_value_construct_n(slots_, size);
  size_ = size;
}

void ValueSlots::Release() {
  if (!slots_) return;
  std::destroy_n(slots_, size_);
  if (pool_) {
    pool_->Deallocate(slots_, size_ * sizeof(ValuePtr));
  } else {
    ::operator delete(slots_);
  }
  slots_ = nullptr;
}

ValuePool::Scope::Scope(ValuePool* pool) : saved_(current_) { current_ = pool; }

ValuePool::Scope::~Scope() { current_ = saved_; }

}  // namespace dp::tmpl
