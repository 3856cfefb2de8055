// The pattern driver's per-node policy (core/rewrite/driver.cpp), for passes
// that walk the graph in their own run(): Cancel stops the pass between nodes
// with the driver's error, and a node that the filter ("limit passes to the
// selection") excludes is left alone, with the driver's explain note. The
// subgraph policy stays with each pass, which visits bodies where its
// algorithm needs them (dead nodes: bodies first; CSE: scoped tables).
#pragma once

#include <string>
#include <string_view>

#include "core/passes/pass.h"

namespace passlab::passes {

inline bool cancelRequested(const PassContext& ctx) {
  return ctx.cancel && ctx.cancel->load();
}

// The error a cancelled pass returns: "<pass id>: cancelled", as PatternPass.
inline Status cancelledError(std::string_view passId) {
  return Error(ErrorCode::kCancelled, Text::of("%1: cancelled", std::string(passId)));
}

// Whether the filter lets the pass change `n`. When it does not and `pattern`
// is given, the explain log gets the driver's reason under that pattern name.
inline bool mayChange(const PassContext& ctx, const ir::Node& n, std::string_view pattern = {}) {
  if (!ctx.filter || ctx.filter->allows(n.id())) return true;
  if (ctx.explain && !pattern.empty())
    ctx.explain->note(n.id(), pattern, "not applied: the node is excluded from this pass");
  return false;
}

// fn(ir::Node&) -> Status for each node of `nodes`, in their order: stops with
// cancelledError on Cancel, skips nodes the filter excludes (see mayChange),
// and stops at the first error fn returns.
template <class Nodes, class Fn>
Status forEachNode(const PassContext& ctx, std::string_view passId, std::string_view pattern,
                   const Nodes& nodes, Fn&& fn) {
  for (ir::Node* n : nodes) {
    if (cancelRequested(ctx)) return cancelledError(passId);
    if (!mayChange(ctx, *n, pattern)) continue;
    PASSLAB_RETURN_IF_ERROR(fn(*n));
  }
  return Status::ok();
}

}  // namespace passlab::passes
