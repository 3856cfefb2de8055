// Software prefetch for walks over a graph's nodes.
//
// A node, its input and output arrays and the values they point to are
// separate allocations, and each address is known only once the previous
// load has arrived (pointer chasing; the node order itself is an array per
// chunk of 61 nodes, node_list.h, so the nodes ahead are known without it). On a graph larger than
// the cache a walk therefore waits for memory several times per node, one miss at a time, and its
// time per node grows with the graph although its work does not. These helpers run ahead of a walk
// in stages, so that several misses are in flight at once: the node object far ahead, then (once it
// has arrived) its input and output arrays, then the values those arrays point to. On a graph that
// fits in the cache the prefetches hit and cost a few instructions per node.
#pragma once

#include "core/ir/graph.h"

namespace passlab::ir {

inline void prefetchForRead(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 0, 3);
#else
  (void)p;
#endif
}

// The next chunk of a graph's node order (node_list.h): its links and node
// pointers, eight cache lines.
inline void prefetchChunk(const NodeList::Chunk* c) {
  const char* p = reinterpret_cast<const char*>(c);
  for (size_t off = 0; off < sizeof(NodeList::Chunk); off += 64) prefetchForRead(p + off);
}

// Stage 1: the node object (its first two cache lines). Reads nothing, so
// it is safe on a pointer to a node that has since been destroyed.
inline void prefetchNodeObject(const Node* n) {
  const char* p = reinterpret_cast<const char*>(n);
  prefetchForRead(p);
  prefetchForRead(p + 64);
}

// Stage 2: its input and output arrays. `n` must be alive.
inline void prefetchNodeArrays(const Node* n) {
  if (!n->inputs().empty()) prefetchForRead(n->inputs().data());
  if (!n->outputs().empty()) prefetchForRead(n->outputs().data());
}

// Stage 3: the values it reads and writes, and the use lists of its inputs.
// `n` must be alive.
inline void prefetchNodeValues(const Node* n) {
  for (const Value* v : n->inputs())
    if (v) {
      prefetchForRead(v);
      if (!v->uses().empty()) prefetchForRead(v->uses().data());
    }
  for (const Value* v : n->outputs())
    if (v) prefetchForRead(v);
}

// Distances (in nodes) of the three stages ahead of the node being visited.
inline constexpr int kPrefetchObjectAhead = 12;
inline constexpr int kPrefetchArraysAhead = 6;
inline constexpr int kPrefetchValuesAhead = 3;

// For a walk in list order that does not add or remove nodes while it runs
// (verification, inference, collecting candidates). Call advance() once per
// node visited.
class NodeWalkPrefetcher {
 public:
  // `deep`: all three stages; otherwise only the node objects (for walks that
  // read little more than the op type).
  explicit NodeWalkPrefetcher(const Graph::NodeList& nodes, bool deep = true)
      : deep_(deep), end_(nodes.end()) {
    object_ = arrays_ = values_ = nodes.begin();
    for (int i = 0; i < kPrefetchObjectAhead; ++i) stepObject();
    if (!deep_) return;
    for (int i = 0; i < kPrefetchArraysAhead; ++i) stepArrays();
    for (int i = 0; i < kPrefetchValuesAhead; ++i) stepValues();
  }

  void advance() {
    stepObject();
    if (!deep_) return;
    stepArrays();
    stepValues();
  }

 private:
  void stepObject() {
    if (object_ == end_) return;
    const NodeList::Chunk* chunk = object_.chunk();
    prefetchNodeObject(object_->get());
    ++object_;
    // Entering a chunk: the one after it is needed within 61 nodes.
    if (object_.chunk() != chunk && object_.chunk() && object_.chunk()->next)
      prefetchChunk(object_.chunk()->next);
  }
  void stepArrays() {
    if (arrays_ == end_) return;
    prefetchNodeArrays(arrays_->get());
    ++arrays_;
  }
  void stepValues() {
    if (values_ == end_) return;
    prefetchNodeValues(values_->get());
    ++values_;
  }

  bool deep_;
  Graph::NodeList::const_iterator object_, arrays_, values_, end_;
};

}  // namespace passlab::ir
