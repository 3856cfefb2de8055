#include "core/exec/memory/offsets.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <utility>

namespace passlab::exec::memory {

namespace {

template <typename A, typename B>
bool overlapInTime(const A& a, const B& b) {
  return a.first <= b.last && b.first <= a.last;
}

// Calls f on each segment of `b`: its own, or the whole buffer over its whole life.
template <typename F>
void forEachSegment(const Buffer& b, F f) {
  if (b.segments.empty()) {
    f(Segment{0, b.size, b.first, b.last});
    return;
  }
  for (const Segment& s : b.segments) f(s);
}

// Places buffers one at a time: each goes into the smallest gap, among the
// placed buffers live at the same time, that holds it, else above them all.
// A staircase goes where each of its segments misses every placed segment
// live at its steps: the smallest such range of base offsets, else the
// lowest base above them all.
class Placer {
 public:
  // Fixed buffers are placed at once, at their offsets.
  explicit Placer(const std::vector<Buffer>& buffers)
      : buffers_(buffers), offsets_(buffers.size(), 0), placed_(buffers.size(), false) {
    for (size_t i = 0; i < buffers.size(); ++i)
      if (buffers[i].fixed) put(i, buffers[i].fixedOffset);
  }

  bool placed(size_t i) const { return placed_[i]; }

  void place(size_t i) {
    if (placed_[i]) return;
    const Buffer& b = buffers_[i];
    put(i, b.segments.empty() ? bestGap(b) : bestBase(b));
  }

  std::vector<uint64_t> take() { return std::move(offsets_); }

 private:
  void put(size_t i, uint64_t offset) {
    const Buffer& b = buffers_[i];
    offsets_[i] = offset;
    placed_[i] = true;
    forEachSegment(b, [&](Segment s) {
      s.offset += offsets_[i];
      auto at = std::upper_bound(byOffset_.begin(), byOffset_.end(), s.offset,
                                 [](uint64_t off, const Segment& q) { return off < q.offset; });
      byOffset_.insert(at, s);
    });
  }

  // The smallest gap that holds all of `b` among the placed segments live in
  // its steps, else the top of them.
  uint64_t bestGap(const Buffer& b) const {
    uint64_t end = 0;  // top of the placed segments seen so far (by offset)
    uint64_t best = kNone;
    uint64_t bestGap = kNone;
    for (const Segment& a : byOffset_) {
      if (!overlapInTime(a, b) || a.size == 0) continue;
      if (a.offset > end) {
        uint64_t gap = a.offset - end;
        if (gap >= b.size && gap < bestGap) {
          best = end;
          bestGap = gap;
        }
      }
      end = std::max(end, a.offset + a.size);
    }
    return best != kNone ? best : end;
  }

  // Base offsets x where segment p of a staircase would overlap placed
  // segment q: x + p.offset < q.offset + q.size and q.offset < x + p.offset
  // + p.size, as [lo, hi). The same rule as bestGap when there is one
  // segment: a free range of n bases is a gap of b.size + n - 1 bytes.
  uint64_t bestBase(const Buffer& b) const {
    std::vector<std::pair<uint64_t, uint64_t>> taken;
    for (const Segment& q : byOffset_) {
      if (q.size == 0 || !overlapInTime(q, b)) continue;
      for (const Segment& p : b.segments) {
        if (p.size == 0 || !overlapInTime(p, q) || q.offset + q.size <= p.offset) continue;
        uint64_t hi = q.offset + q.size - p.offset;
        uint64_t lo = q.offset + 1 > p.offset + p.size ? q.offset + 1 - p.offset - p.size : 0;
        taken.emplace_back(lo, hi);
      }
    }
    std::sort(taken.begin(), taken.end());
    uint64_t at = 0;  // the lowest base not yet taken
    uint64_t best = kNone;
    uint64_t bestRange = kNone;
    for (const auto& [lo, hi] : taken) {
      if (lo > at && lo - at < bestRange) {
        best = at;
        bestRange = lo - at;
      }
      at = std::max(at, hi);
    }
    return best != kNone ? best : at;
  }

  static constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
  const std::vector<Buffer>& buffers_;
  std::vector<uint64_t> offsets_;
  std::vector<bool> placed_;
  std::vector<Segment> byOffset_;  // placed segments at their offsets, sorted by offset
};

// Largest first; among equal sizes, the longer-lived first, then by index.
bool largerFirst(const std::vector<Buffer>& buffers, size_t a, size_t b) {
  const Buffer& x = buffers[a];
  const Buffer& y = buffers[b];
  if (x.size != y.size) return x.size > y.size;
  if (x.last - x.first != y.last - y.first) return x.last - x.first > y.last - y.first;
  return a < b;
}

}  // namespace

std::vector<uint64_t> liveBytesPerStep(const std::vector<Buffer>& buffers, int32_t steps) {
  std::vector<int64_t> delta(static_cast<size_t>(std::max(steps, 0)) + 1, 0);
  for (const Buffer& b : buffers)
    forEachSegment(b, [&](const Segment& s) {
      int32_t first = std::max(s.first, 0);
      int32_t last = std::min(s.last, steps - 1);
      if (first > last) return;
      delta[static_cast<size_t>(first)] += static_cast<int64_t>(s.size);
      delta[static_cast<size_t>(last) + 1] -= static_cast<int64_t>(s.size);
    });
  std::vector<uint64_t> live(static_cast<size_t>(std::max(steps, 0)));
  int64_t sum = 0;
  for (size_t s = 0; s < live.size(); ++s) {
    sum += delta[s];
    live[s] = static_cast<uint64_t>(sum);
  }
  return live;
}

uint64_t lowerBound(const std::vector<Buffer>& buffers, int32_t steps) {
  auto live = liveBytesPerStep(buffers, steps);
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

std::vector<uint64_t> greedyBySize(const std::vector<Buffer>& buffers) {
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return largerFirst(buffers, a, b); });
  Placer placer(buffers);
  for (size_t i : order) placer.place(i);
  return placer.take();
}

namespace {

// Per step s in [0, span), the buffers live at s (first <= s <= last) in
// `order`: entries [start[s], start[s + 1]) of `buffers`. None when that
// would be more than `mostEntries` entries.
struct LivePerStep {
  std::vector<size_t> start;
  std::vector<uint32_t> buffers;
};

std::optional<LivePerStep> livePerStep(const std::vector<Buffer>& buffers,
                                       const std::vector<size_t>& order, int32_t span,
                                       uint64_t mostEntries) {
  if (span <= 0 || buffers.size() > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  auto stepsOf = [&](const Buffer& b) {
    return std::pair<int32_t, int32_t>{std::max(b.first, 0), std::min(b.last, span - 1)};
  };
  LivePerStep l;
  l.start.assign(static_cast<size_t>(span) + 1, 0);
  uint64_t total = 0;
  for (const Buffer& b : buffers) {
    auto [first, last] = stepsOf(b);
    if (first > last) continue;
    total += static_cast<uint64_t>(last - first) + 1;
    if (total > mostEntries) return std::nullopt;
    ++l.start[static_cast<size_t>(first) + 1];
    if (static_cast<size_t>(last) + 2 < l.start.size()) --l.start[static_cast<size_t>(last) + 2];
  }
  // start[s + 1] holds the change in live count at s; two prefix sums turn
  // it into counts, then into where each step's entries begin.
  for (size_t s = 1; s < l.start.size(); ++s) l.start[s] += l.start[s - 1];
  for (size_t s = 1; s < l.start.size(); ++s) l.start[s] += l.start[s - 1];
  l.buffers.resize(total);
  std::vector<size_t> at(l.start.begin(), l.start.end() - 1);
  for (size_t i : order) {
    auto [first, last] = stepsOf(buffers[i]);
    for (int32_t s = first; s <= last; ++s)
      l.buffers[at[static_cast<size_t>(s)]++] = static_cast<uint32_t>(i);
  }
  return l;
}

}  // namespace

std::vector<uint64_t> greedyByBreadth(const std::vector<Buffer>& buffers, int32_t steps,
                                      uint64_t mostListEntries) {
  int32_t span = steps;
  for (const Buffer& b : buffers) span = std::max(span, b.last + 1);
  auto live = liveBytesPerStep(buffers, span);
  std::vector<int32_t> stepOrder(live.size());
  std::iota(stepOrder.begin(), stepOrder.end(), 0);
  std::stable_sort(stepOrder.begin(), stepOrder.end(), [&](int32_t a, int32_t b) {
    return live[static_cast<size_t>(a)] > live[static_cast<size_t>(b)];
  });
  std::vector<size_t> bySize(buffers.size());
  std::iota(bySize.begin(), bySize.end(), size_t{0});
  std::sort(bySize.begin(), bySize.end(),
            [&](size_t a, size_t b) { return largerFirst(buffers, a, b); });
  Placer placer(buffers);
  if (auto lists = livePerStep(buffers, bySize, span, mostListEntries)) {
    for (int32_t s : stepOrder)
      for (size_t e = lists->start[static_cast<size_t>(s)];
           e < lists->start[static_cast<size_t>(s) + 1]; ++e)
        placer.place(lists->buffers[e]);  // no-op when placed
  } else {
    for (int32_t s : stepOrder)
      for (size_t i : bySize)
        if (!placer.placed(i) && buffers[i].first <= s && s <= buffers[i].last) placer.place(i);
  }
  for (size_t i : bySize)
    if (!placer.placed(i)) placer.place(i);  // lifetimes outside every step
  return placer.take();
}

namespace {

std::vector<uint64_t> placeInOrder(const std::vector<Buffer>& buffers,
                                   const std::vector<size_t>& order) {
  Placer placer(buffers);
  for (size_t i : order) placer.place(i);
  return placer.take();
}

}  // namespace

std::vector<uint64_t> hillClimb(const std::vector<Buffer>& buffers, int32_t steps,
                                uint64_t budget) {
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return largerFirst(buffers, a, b); });
  auto best = placeInOrder(buffers, order);
  uint64_t bestSize = arenaSize(buffers, best);
  uint64_t bound = lowerBound(buffers, steps);
  uint64_t n = buffers.size();
  if (n < 2) return best;
  uint64_t tries = std::min<uint64_t>(2000, budget / std::max<uint64_t>(n * n / 2, 1));
  std::mt19937_64 rng(n);
  for (uint64_t t = 0; t < tries && bestSize > bound; ++t) {
    // Move one buffer earlier: it is placed before some larger ones.
    // Half the moves take a buffer that reaches the top of the arena.
    std::vector<size_t> next = order;
    size_t from = 1 + rng() % (n - 1);
    if (rng() % 2 == 0) {
      std::vector<size_t> top;
      for (size_t k = 1; k < n; ++k)
        if (best[next[k]] + buffers[next[k]].size == bestSize) top.push_back(k);
      if (!top.empty()) from = top[rng() % top.size()];
    }
    size_t to = rng() % from;
    size_t moved = next[from];
    next.erase(next.begin() + static_cast<std::ptrdiff_t>(from));
    next.insert(next.begin() + static_cast<std::ptrdiff_t>(to), moved);
    auto offsets = placeInOrder(buffers, next);
    uint64_t size = arenaSize(buffers, offsets);
    if (size <= bestSize) {
      bestSize = size;
      best = std::move(offsets);
      order = std::move(next);
    }
  }
  return best;
}

uint64_t arenaSize(const std::vector<Buffer>& buffers, const std::vector<uint64_t>& offsets) {
  uint64_t top = 0;
  for (size_t i = 0; i < buffers.size(); ++i) top = std::max(top, offsets[i] + buffers[i].size);
  return top;
}

}  // namespace passlab::exec::memory
