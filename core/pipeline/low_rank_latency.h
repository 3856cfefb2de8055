// Whether a low-rank factorization makes its layer faster on this CPU: each
// layer the rank search chose (low_rank_search.h), cut out of the model as a
// model of its own (node_extract.h, the shapes of a run on synthesized
// inputs), timed on the executor dense and factorized at its rank, the two
// alternately, medians of several samples. A layer whose two thin ops take
// longer than the dense one (beyond a margin for the noise) is marked slower
// and applyRanks keeps it dense: two GEMMs of rank r are not faster than one
// of K x N just because they do fewer multiply-adds (small layers are bound
// by the memory traffic of the intermediate, or by the overhead per node).
// The decision reads only the two medians (slowerThanDense), so tests inject
// the timings (LayerTimer).
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "core/ir/model.h"
#include "core/pipeline/low_rank_search.h"
#include "core/pipeline/timing_stats.h"
#include "core/support/error.h"

namespace passlab::pipeline {

struct LayerTimes {
  Timing dense, thin;       // per run of the cut-out, milliseconds
  int64_t outputNumel = 0;  // elements of the layer's output in those runs (0: unknown)
};

struct LowRankLatencyOptions {
  // Within (1 + margin) of the dense median counts as the same speed (the
  // noise of a shared machine), and the saving in weights is kept; negative:
  // the thin ops must be faster by that share.
  double margin = 0.02;
  int rounds = 15;        // samples of each, alternately
  double sampleMs = 2.0;  // one sample: as many runs as take about this long
  int threads = 1;        // steadier than every core on a busy machine
  double minSaving = 0.25;
  const std::atomic<bool>* cancel = nullptr;
};

// Whether thin ops with median `thinMs` are slower than the dense layer
// with median `denseMs` beyond `margin`.
bool slowerThanDense(double denseMs, double thinMs, double margin);

// The times of `layer` of `shaped` (a model through withRunShapes), dense and
// factorized at layer.rank.
using LayerTimer =
    std::function<Expected<LayerTimes>(const ir::Model& shaped, const LowRankLayer& layer)>;

// The default timer: the layer cut out of `shaped`, factorized by the pass
// at its rank, both run on synthesized inputs.
Expected<LayerTimes> timeLayerAlone(const ir::Model& shaped, const LowRankLayer& layer,
                                    const LowRankLatencyOptions& options);

// For each layer of `layers` with a rank: its output positions per run
// (`rows`, from the shapes of a run of `model` on synthesized inputs, else
// from the timed runs' output), its
// times (`timer`; empty: timeLayerAlone) and whether the factorization is
// slower (then applyRanks keeps it dense). Call between searchRanks and
// applyRanks.
Status timeLowRankLayers(const ir::Model& model, std::vector<LowRankLayer>& layers,
                         const LowRankLatencyOptions& options, const LayerTimer& timer = {});

}  // namespace passlab::pipeline
