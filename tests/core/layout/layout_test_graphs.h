// Graphs built in code for the layout tests.
#pragma once

#include <string>

#include "core/ir/model.h"

namespace passlab::layout::testgraphs {

// `layers` transformer-like blocks of the same op sequence on a residual
// stream. With `scoped`, node names carry scopes "/model/layers.<i>/<part>/<Op>_<k>";
// without, they are "<Op>_<k>" like many exporters write.
ir::Model repeatedBlocks(int layers, bool scoped);

// A chain of `n` Relu nodes: x -> Relu -> ... -> y.
ir::Model chain(int n);

}  // namespace passlab::layout::testgraphs
