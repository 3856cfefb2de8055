// What a pass that rewrites the main graph only leaves inside subgraphs (If
// branches, Loop and Scan bodies): the count its step note gives, so that a
// user does not take the whole model for rewritten (#25).
#pragma once

#include <set>
#include <string>

#include "core/ir/graph.h"
#include "core/ir/node.h"
#include "core/support/text.h"

namespace passlab::passes {

// The default-domain nodes inside the subgraphs of `g` (to any depth) whose
// op is in `ops`.
inline size_t nodesInSubgraphs(const ir::Graph& g, const std::set<std::string>& ops) {
  size_t count = 0;
  for (const auto& n : g.nodes())
    if (n->hasSubgraphs())
      for (const ir::Graph* sub : n->subgraphs())
        sub->forEachNodeRecursive(
            [&](ir::Node* m) { count += m->domain().empty() && ops.count(m->opType()) > 0; });
  return count;
}

// `note` with `left` such nodes counted (`note` as it is when none). `why`
// says why the pass does not enter subgraphs.
inline Text withNodesLeftInSubgraphs(const Text& note, size_t left, const Text& why) {
  if (left == 0) return note;
  if (note.empty())
    return Text::of(
        "%1 nodes of the ops it rewrites are inside subgraphs and stay as they are (%2)",
        std::to_string(left), why);
  return Text::of(
      "%1; %2 nodes of the ops it rewrites are inside subgraphs and stay as they are "
      "(%3)",
      note, std::to_string(left), why);
}

}  // namespace passlab::passes
