// The conversation with the layout helper process (app/layout/passlab-layout):
// a DOT graph goes in, placements come out as lines of text.
//
// In: nodes are "n<index>" with fixed sizes, edges carry id="<index>",
// expanded groups are "cluster_<index>" subgraphs. Always a flow layout (dot),
// always with nslimit set, never splines=ortho (it aborts the process).
//
// Out (points, origin top-left, y downwards):
//   passlab-layout 1
//   graph <width> <height>
//   node <index> <centre x> <centre y> <width> <height>
//   edge <index> <arrow 0|1> <tip x> <tip y> <count> <x y>...   (cubic Bézier control points)
//   cluster <index> <x> <y> <width> <height>
//   end
#pragma once

#include <string>
#include <string_view>

#include "core/layout/layout_types.h"
#include "core/support/error.h"

namespace passlab::layout {

struct DotOptions {
  // Network-simplex iteration limits (factor of the node count): the knob that
  // bounds dot's time on large graphs. 0 picks by size.
  double nslimit = 0;
  double mclimit = 0;   // crossing-minimisation effort; 0 picks by size
  bool splines = true;  // curved edges; false draws polylines (cheaper)
};

std::string writeDot(const LayoutRequest& request, const DotOptions& options = {});

// Parses the helper's answer into a result sized for `request`.
Expected<LayoutResult> parseLayoutAnswer(std::string_view text, const LayoutRequest& request);

}  // namespace passlab::layout
