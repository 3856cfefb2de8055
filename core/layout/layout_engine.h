// Lays out a request: Graphviz dot in the passlab-layout helper process when it
// can be found, with a deadline and a cancel flag; the in-process layered layout
// when the helper is missing, fails, crashes or runs past its deadline. The
// result says which engine drew it and why.
#pragma once

#include <chrono>
#include <stop_token>
#include <string>

#include "core/layout/dot_format.h"
#include "core/layout/layered_layout.h"
#include "core/layout/layout_types.h"

namespace passlab::layout {

struct EngineOptions {
  enum class Prefer { kGraphviz, kLayered };
  Prefer prefer = Prefer::kGraphviz;
  // Path of passlab-layout; "" searches (see findLayoutHelper).
  std::string helperPath;
  std::chrono::milliseconds timeout{20000};
  // Requests with more boxes than this skip Graphviz (its time grows superlinearly).
  size_t graphvizMaxNodes = 12000;
  DotOptions dot;
  LayeredOptions layered;
};

// The helper: $PASSLAB_LAYOUT_HELPER, then passlab-layout beside the running
// executable, in ../layout or ../../app/layout from it (build trees), then
// on PATH. "" if none is found.
std::string findLayoutHelper();

// Never fails: the worst case is the fallback layout with a note saying why.
// Cancelling stops the helper at once and answers with the fallback layout
// (fast: well under a second for 10,000 boxes), marked cancelled.
LayoutResult computeLayout(const LayoutRequest& request, const EngineOptions& options = {},
                           std::stop_token stop = {});

}  // namespace passlab::layout
