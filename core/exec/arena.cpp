#include "core/exec/arena.h"

#include <cstdlib>
#include <map>
#include <mutex>

#include "core/support/strings.h"

namespace passlab::exec {

namespace {
constexpr size_t kAlign = 64;
size_t roundUp(size_t n) {
  return (n + kAlign - 1) / kAlign * kAlign;
}
}  // namespace

struct Arena::State {
  std::mutex mu;
  std::multimap<size_t, std::byte*> freeBlocks;  // size -> block
  uint64_t live = 0, peak = 0, reserved = 0, limit = 0;

  void release(std::byte* p, size_t size) {
    std::lock_guard<std::mutex> lock(mu);
    live -= size;
    freeBlocks.emplace(size, p);
  }
  void trimLocked() {
    for (auto& [size, p] : freeBlocks) {
      std::free(p);
      reserved -= size;
    }
    freeBlocks.clear();
  }
};

namespace {

class Block final : public Storage {
 public:
  Block(std::weak_ptr<Arena::State> owner, std::byte* p, size_t size)
      : owner_(std::move(owner)), data_(p), size_(size) {}
  ~Block() override {
    if (auto s = owner_.lock()) {
      s->release(data_, size_);
    } else {
      std::free(data_);
    }
  }
  std::byte* data() override { return data_; }
  size_t size() const override { return size_; }

 private:
  std::weak_ptr<Arena::State> owner_;
  std::byte* data_;
  size_t size_;
};

}  // namespace

Arena::Arena() : state_(std::make_shared<State>()) {}

Arena::~Arena() {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->trimLocked();
}

Expected<std::shared_ptr<Storage>> Arena::allocate(size_t bytes) {
  size_t size = roundUp(bytes == 0 ? 1 : bytes);
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mu);
  if (s.limit != 0 && s.live + size > s.limit)
    return limitError("allocating " + str::humanBytes(size) + " would pass the memory limit of " +
                      str::humanBytes(s.limit) + " (" + str::humanBytes(s.live) +
                      " already in use)");
  std::byte* p = nullptr;
  // Best fit among free blocks no more than twice the request.
  auto it = s.freeBlocks.lower_bound(size);
  if (it != s.freeBlocks.end() && it->first <= 2 * size) {
    size = it->first;
    p = it->second;
    s.freeBlocks.erase(it);
  } else {
    if (s.limit != 0 && s.reserved + size > s.limit) s.trimLocked();
    p = static_cast<std::byte*>(std::aligned_alloc(kAlign, size));
    if (p == nullptr) return limitError("out of memory allocating " + str::humanBytes(size));
    s.reserved += size;
  }
  s.live += size;
  if (s.live > s.peak) s.peak = s.live;
  lock.unlock();
  return std::shared_ptr<Storage>(std::make_shared<Block>(state_, p, size));
}

void Arena::setLimit(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->limit = bytes;
}
uint64_t Arena::limit() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->limit;
}
uint64_t Arena::liveBytes() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->live;
}
uint64_t Arena::peakBytes() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->peak;
}
void Arena::resetPeak() {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->peak = state_->live;
}
uint64_t Arena::reservedBytes() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->reserved;
}
void Arena::trim() {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->trimLocked();
}

}  // namespace passlab::exec
