// Per-node timing of a run: wall time, bytes read and written, the kernel used.
// Nodes inside subgraphs (Loop bodies, If branches) get their own entries,
// summed over calls, with the nesting depth; their time is also inside their
// parent node's time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/node.h"

namespace passlab::exec {

struct NodeProfile {
  ir::NodeId nodeId = 0;
  std::string op;      // "Conv", "com.microsoft.Attention"
  std::string name;    // node name ("" when unnamed)
  std::string kernel;  // "onednn.Conv"
  int depth = 0;       // 0: main graph
  int64_t calls = 0;
  double micros = 0;
  uint64_t bytesRead = 0, bytesWritten = 0;
};

class Profiler {
 public:
  void record(const ir::Node& node, std::string_view kernel, int depth, double micros,
              uint64_t bytesRead, uint64_t bytesWritten);
  // Entries in the order nodes first ran.
  std::vector<NodeProfile> take();

 private:
  std::vector<NodeProfile> entries_;
  std::unordered_map<const ir::Node*, size_t> index_;
};

}  // namespace passlab::exec
