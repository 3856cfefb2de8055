// Offsets of buffers in one arena, given each buffer's size and lifetime:
// the two strategies a memory plan tries, and the bound no plan can beat.
//   greedyBySize: largest buffer first, each into the smallest gap that fits
//     among the buffers live at the same time (TFLite's arena planner;
//     Pisarchyk & Lee 2020, "Efficient Memory Management for Deep Neural Net
//     Inference").
//   greedyByBreadth: the steps with the most live bytes first; at each, its
//     unplaced buffers largest first, same best-fit rule (ibid.).
//   hillClimb: from greedy-by-size's order, moves one buffer earlier in the
//     order at a time (seeded, bounded work) and keeps an order whose arena is
//     no larger (TVM's unified static memory planner climbs the same way).
// A buffer may be a staircase (segments): parts of it live at different
// steps, placed as one unit at fixed offsets from its base; every candidate
// offset is checked segment by segment, and the bytes of a segment not yet
// written are free to others.
#pragma once

#include <cstdint>
#include <vector>

namespace passlab::exec::memory {

// Bytes [offset, offset + size) of a buffer, live in steps [first, last].
struct Segment {
  uint64_t offset = 0, size = 0;
  int32_t first = 0, last = 0;
};

struct Buffer {
  uint64_t size = 0;
  int32_t first = 0, last = 0;  // steps, inclusive
  // Empty: all `size` bytes live in [first, last]. Otherwise the only bytes
  // the buffer holds, each segment in its own steps (within [first, last],
  // inside [0, size), no two sharing bytes): a dense block's buffer, where
  // each layer's output is written at its place from its own step
  // (memory_plan.h, concat parts).
  std::vector<Segment> segments;
  // Placed at `fixedOffset`, before every other buffer, by every strategy
  // (a graph output's result buffer and the barrier after it, where block
  // buffers that die before the output's step may go: memory_plan.cpp).
  bool fixed = false;
  uint64_t fixedOffset = 0;
};

// Bytes live at each step 0..steps-1 (buffers outside the range are clipped;
// a staircase counts each segment in its own steps).
std::vector<uint64_t> liveBytesPerStep(const std::vector<Buffer>& buffers, int32_t steps);
// The largest number of bytes live at one step: no plan needs less.
uint64_t lowerBound(const std::vector<Buffer>& buffers, int32_t steps);

// Offset per buffer.
std::vector<uint64_t> greedyBySize(const std::vector<Buffer>& buffers);
// `mostListEntries`: it lists the buffers live at each step when those lists
// hold no more entries than this (the sum of the lifetimes), else it scans
// every buffer at every step; the same offsets either way.
std::vector<uint64_t> greedyByBreadth(const std::vector<Buffer>& buffers, int32_t steps,
                                      uint64_t mostListEntries = 16'000'000);

// `budget`: roughly how many buffer-pair comparisons it may spend.
std::vector<uint64_t> hillClimb(const std::vector<Buffer>& buffers, int32_t steps,
                                uint64_t budget = 1'000'000'000);

// The arena size a placement needs: the highest offset + size.
uint64_t arenaSize(const std::vector<Buffer>& buffers, const std::vector<uint64_t>& offsets);

}  // namespace passlab::exec::memory
