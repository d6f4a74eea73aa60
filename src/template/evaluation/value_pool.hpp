#pragma once
// A per-render free-list allocator for the fixed-size blocks of std::allocate_shared<Value>.
// A render creates and drops values by the thousand; recycling same-size blocks (and releasing
// them all at once when the render ends) is much cheaper than malloc/free for each. Memory
// stays bounded by the peak number of live values, as with malloc. Not thread-safe: one pool
// per render, used by the rendering thread only.
#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "template/evaluation/value_ptr.hpp"

namespace dp::tmpl {

class ValuePool {
 public:
  // Thrown by Allocate when the render's values would exceed its memory budget (issue 9:
  // every allocation a render makes is charged to it, the peak is bounded).
  struct Exhausted : std::bad_alloc {
    const char* what() const noexcept override { return "render memory budget exhausted"; }
  };

  // The size of a pooled block: a Value and its shared_ptr control block, or a small array.
  static constexpr size_t kBlockBytes = 256;

  explicit ValuePool(size_t max_bytes = 0) : max_bytes_(max_bytes) {}  // 0 = unbounded
  // Keeps a few chunks for the thread's next render (a render makes a handful).
  ~ValuePool();
  ValuePool(const ValuePool&) = delete;
  ValuePool& operator=(const ValuePool&) = delete;

  void* Allocate(size_t bytes);
  void Deallocate(void* p, size_t bytes);

  // The pool of the render running on this thread (nullptr outside a render): values made
  // through Value's factories come from it.
  static ValuePool* Current() { return current_; }
  // Makes `pool` current for the scope's lifetime (restores the previous one after).
  class Scope {
   public:
    explicit Scope(ValuePool* pool);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    ValuePool* saved_;
  };

 private:
  static constexpr size_t kBlocksPerChunk = 64;
  struct FreeBlock {
    FreeBlock* next;
  };

  void Charge(size_t bytes);
  using Chunk = std::unique_ptr<std::byte[]>;
  static Chunk NewChunk();

  // Inline: every value a render makes asks for it.
  static inline thread_local ValuePool* current_ = nullptr;

  size_t max_bytes_ = 0;
  size_t footprint_ = 0;  // chunks carved + large blocks alive
  FreeBlock* free_ = nullptr;
  std::vector<Chunk> chunks_;
  size_t carved_ = kBlocksPerChunk;  // blocks handed out from the newest chunk
};

// std::allocator-compatible handle on a ValuePool, for std::allocate_shared.
template <class T>
struct PoolAllocator {
  using value_type = T;
  ValuePool* pool;

  explicit PoolAllocator(ValuePool* p) : pool(p) {}
  template <class U>
  PoolAllocator(const PoolAllocator<U>& other) : pool(other.pool) {}
  T* allocate(size_t n) { return static_cast<T*>(pool->Allocate(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { pool->Deallocate(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const PoolAllocator<U>& other) const {
    return pool == other.pool;
  }
};

// A fixed-size array of ValuePtr allocated from the current render's pool (the heap outside a
// render), released to the pool it came from.
class ValueSlots {
 public:
  ValueSlots() = default;
  ValueSlots(const ValueSlots&) = delete;
  ValueSlots& operator=(const ValueSlots&) = delete;
  ValueSlots(ValueSlots&& other) noexcept
      : slots_(std::exchange(other.slots_, nullptr)), size_(other.size_), pool_(other.pool_) {}
  ValueSlots& operator=(ValueSlots&&) = delete;
  ~ValueSlots() { Release(); }

  // `size` empty slots (any earlier ones released).
  void Allocate(size_t size);
  explicit operator bool() const { return slots_ != nullptr; }
  ValuePtr& operator[](size_t i) const { return slots_[i]; }

 private:
  void Release();

  ValuePtr* slots_ = nullptr;
  size_t size_ = 0;
  ValuePool* pool_ = nullptr;
};

}  // namespace dp::tmpl
