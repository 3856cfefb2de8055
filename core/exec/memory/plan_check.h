// Verifies a memory plan on its own terms: every tensor fits in the arena, no
// two tensors with overlapping lifetimes overlap in memory unless one is a
// view of the other, and every in-place reuse takes a buffer nothing still
// reads (not a graph output; every earlier tensor of that buffer ends where
// the reuse begins). A Concat part may overlap its own Concat's output and
// nothing else: it lies inside it at its partOffset and dies where the Concat
// writes it. A tensor placed inside a graph output's buffer (region) fits in
// it, is compared only with the others there, and dies before the output's
// step.
#pragma once

#include "core/exec/memory/memory_plan.h"
#include "core/support/error.h"

namespace passlab::exec::memory {

// Ok, or an error naming the first two tensors in conflict.
Status checkPlan(const MemoryPlan& plan);

}  // namespace passlab::exec::memory
