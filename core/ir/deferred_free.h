// Frees the nodes and values a pipeline step removed on a background thread
// when there are many of them.
//
// A step that removes 100k nodes hands them to its undo log, which frees them
// when the step commits. By then the pass has walked the rest of the graph
// and the removed objects have left the cache: freeing them was a quarter of
// the cache misses of a 100k-node pipeline, on the user's critical path. They
// are unreachable once the step commits (no value reads them, no graph lists
// them), so a second thread can run their destructors while the pipeline goes
// on. Nodes that hold subgraphs are never handed over: freeing a subgraph
// detaches uses from values outside it, which the pipeline still edits.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <vector>

#include "core/ir/graph.h"

namespace passlab::ir {

// Below this many objects a batch is freed on the calling thread: a hand-over
// costs more than it saves.
inline constexpr size_t kDeferredFreeMinObjects = 4096;

// Takes ownership of `nodes` (none holding a subgraph) and `values` (none
// read by a live node) and frees them, in the background when the batch is
// large. Both lists are left empty.
void freeRemoved(std::vector<std::unique_ptr<Node>>& nodes,
                 std::list<std::unique_ptr<Value>>& values);

// Waits until every batch handed over so far is freed (benchmarks that
// measure memory, tests).
void waitForDeferredFrees();

}  // namespace passlab::ir
