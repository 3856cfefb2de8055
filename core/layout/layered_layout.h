// A simple layered (Sugiyama-style) layout in-process, for when Graphviz fails,
// times out or is missing: cycles broken by DFS, longest-path layering, dummy
// nodes on long edges (within a budget), barycenter ordering sweeps and
// median-pull coordinates. O((V + D) log V) per sweep, a fixed number of sweeps,
// so 10,000 nodes take well under a second. Cluster frames are the bounding
// boxes of their members (they may overlap other boxes; Graphviz's do not).
#pragma once

#include <stop_token>

#include "core/layout/layout_types.h"

namespace passlab::layout {

struct LayeredOptions {
  double nodeSep = 24, rankSep = 36;
  int sweeps = 6;
  size_t maxDummiesPerNode = 4;  // long edges past this budget are drawn straight
};

LayoutResult layeredLayout(const LayoutRequest& request, const LayeredOptions& options = {},
                           std::stop_token stop = {});

}  // namespace passlab::layout
