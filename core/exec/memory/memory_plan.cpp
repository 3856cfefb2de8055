#include "core/exec/memory/memory_plan.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "core/exec/kept_values.h"
#include "core/exec/memory/input_shapes.h"
#include "core/exec/memory/offsets.h"
#include "core/exec/output_buffers.h"
#include "core/exec/view_ops.h"
#include "core/support/strings.h"

namespace passlab::exec::memory {

namespace {

constexpr uint64_t kAlign = 64;  // the arena's alignment (arena.cpp)

uint64_t aligned(uint64_t n) {
  return (n + kAlign - 1) / kAlign * kAlign;
}

bool isStandard(const ir::Node& n, std::initializer_list<std::string_view> ops) {
  if (!n.domain().empty() && n.domain() != "ai.onnx") return false;
  return std::find(ops.begin(), ops.end(), n.opType()) != ops.end();
}

// Ops whose output element i depends only on element i of each input of the
// output's size: the output may take such an input's buffer.
bool isElementwise(const ir::Node& n) {
  return isStandard(n, {"Relu",     "LeakyRelu",   "PRelu",
                        "Sigmoid",  "HardSigmoid", "HardSwish",
                        "Tanh",     "Elu",         "Selu",
                        "Celu",     "Gelu",        "Softplus",
                        "Softsign", "Mish",        "Clip",
                        "Abs",      "Neg",         "Exp",
                        "Log",      "Sqrt",        "Reciprocal",
                        "Floor",    "Ceil",        "Round",
                        "Sign",     "Erf",         "Sin",
                        "Cos",      "Not",         "ThresholdedRelu",
                        "Shrink",   "Cast",        "BatchNormalization",
                        "Add",      "Sub",         "Mul",
                        "Div",      "Pow",         "Max",
                        "Min",      "Sum",         "Mean",
                        "And",      "Or",          "Xor"});
}

// Whether the value a step writes into `slot` is a planned arena tensor:
// tensors (and values of unknown type) other than strings, Constants and the
// outputs of steps computed once per executor (kept_values.h).
bool planned(const Step& step, const ir::Value* v) {
  if (isStandard(*step.node, {"Constant"}) || keepsOutputs(step)) return false;
  const ir::Type& t = v->type();
  if (t.isTensor()) return t.elemType() != ir::DataType::kString;
  return t.isUndefined();
}

std::optional<uint64_t> bytesAhead(const ir::Value* v) {
  const ir::Type& t = v->type();
  if (!t.isTensor() || t.elemType() == ir::DataType::kUndefined || !t.hasShape())
    return std::nullopt;
  auto n = t.shape()->numel();
  if (!n || *n < 0) return std::nullopt;
  return ir::dtypeStorageBytes(t.elemType(), static_cast<uint64_t>(*n));
}

std::string producerName(const ir::Node& n) {
  return n.name().empty() ? n.describe() : n.name();
}

// Tensors with their sizes and lifetimes, before any sharing.
Expected<std::vector<PlannedTensor>> collectTensors(const CompiledGraph& g,
                                                    const std::vector<uint64_t>* observed,
                                                    const PlanOptions& options,
                                                    bool& usedObserved) {
  const std::vector<bool>& held = options.heldSlots;
  auto stepCount = static_cast<int32_t>(g.steps.size());
  std::unordered_map<int32_t, int32_t> releasedAt;
  for (size_t s = 0; s < g.steps.size(); ++s)
    for (int32_t slot : g.steps[s].releaseAfter) releasedAt[slot] = static_cast<int32_t>(s);
  std::unordered_set<int32_t> outputs;
  for (const SlotRef& r : g.outputs)
    if (r.depth == 0) outputs.insert(r.index);

  std::vector<PlannedTensor> tensors;
  for (size_t s = 0; s < g.steps.size(); ++s) {
    const Step& step = g.steps[s];
    for (int32_t slot : step.outputs) {
      if (slot < 0) continue;
      const ir::Value* v = g.slotValues[static_cast<size_t>(slot)];
      if (!planned(step, v)) continue;
      if (!held.empty() &&
          (static_cast<size_t>(slot) >= held.size() || !held[static_cast<size_t>(slot)]))
        continue;
      PlannedTensor t;
      t.name = v->name();
      t.producer = producerName(*step.node);
      t.slot = slot;
      const bool wasObserved = observed && static_cast<size_t>(slot) < observed->size() &&
                               (*observed)[static_cast<size_t>(slot)] != kUnknownBytes;
      auto ahead = options.observedFirst && wasObserved ? std::nullopt : bytesAhead(v);
      if (ahead) {
        t.bytes = *ahead;
      } else if (wasObserved) {
        t.bytes = (*observed)[static_cast<size_t>(slot)];
        usedObserved = true;
      } else {
        return invalidArgument("the size of '" + v->name() + "' (written by " +
                               step.node->describe() +
                               ") is only known at run time: plan from a run's sizes");
      }
      t.size = aligned(t.bytes);
      t.first = static_cast<int32_t>(s);
      t.graphOutput = outputs.count(slot) > 0;
      auto it = releasedAt.find(slot);
      t.last = t.graphOutput || it == releasedAt.end() ? stepCount : it->second;
      tensors.push_back(std::move(t));
    }
  }
  return tensors;
}

// Each step's kernel scratch (PlanOptions::scratchBytes) as a buffer of its
// own, live at that step only.
void addScratch(const CompiledGraph& g, const std::vector<uint64_t>& scratch,
                std::vector<PlannedTensor>& tensors, MemoryPlan& plan) {
  for (size_t s = 0; s < g.steps.size() && s < scratch.size(); ++s) {
    if (scratch[s] == 0) continue;
    PlannedTensor t;
    t.producer = producerName(*g.steps[s].node);
    t.name = "(scratch of " + t.producer + ")";
    t.bytes = scratch[s];
    t.size = aligned(t.bytes);
    t.first = t.last = static_cast<int32_t>(s);
    t.scratch = true;
    ++plan.scratchCount;
    plan.scratchBytes += t.size;
    tensors.push_back(std::move(t));
  }
}

// The most bytes live at one step in the block without its scratch buffers.
uint64_t lowerBoundWithoutScratch(const MemoryPlan& plan) {
  std::vector<uint64_t> live = plan.liveBytes;
  for (const PlannedTensor& t : plan.tensors)
    if (t.scratch && t.region < 0 && t.first >= 0 && static_cast<size_t>(t.first) < live.size())
      live[static_cast<size_t>(t.first)] -= std::min(live[static_cast<size_t>(t.first)], t.size);
  uint64_t most = 0;
  for (uint64_t b : live) most = std::max(most, b);
  return most;
}

// Buffers shared by views and in-place reuse: a union-find over tensors whose
// roots carry the buffer's size and lifetime.
class Buffers {
 public:
  explicit Buffers(const std::vector<PlannedTensor>& tensors) : parent_(tensors.size()) {
    for (size_t i = 0; i < tensors.size(); ++i) {
      parent_[i] = i;
      buffers_.push_back({tensors[i].size, tensors[i].first, tensors[i].last});
      kept_.push_back(tensors[i].graphOutput);
    }
  }
  size_t root(size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  const Buffer& of(size_t i) { return buffers_[root(i)]; }
  bool kept(size_t i) { return kept_[root(i)]; }
  // `joiner`'s buffer becomes part of `into`'s.
  void merge(size_t joiner, size_t into) {
    size_t a = root(joiner), b = root(into);
    if (a == b) return;
    parent_[a] = b;
    Buffer& B = buffers_[b];
    const Buffer& A = buffers_[a];
    B.size = std::max(B.size, A.size);
    B.first = std::min(B.first, A.first);
    B.last = std::max(B.last, A.last);
    kept_[b] = kept_[b] || kept_[a];
  }

 private:
  std::vector<size_t> parent_;
  std::vector<Buffer> buffers_;
  std::vector<bool> kept_;
};

// Tensor index per slot.
std::unordered_map<int32_t, size_t> indexBySlot(const std::vector<PlannedTensor>& tensors) {
  std::unordered_map<int32_t, size_t> m;
  for (size_t i = 0; i < tensors.size(); ++i) m.emplace(tensors[i].slot, i);
  return m;
}

// The planned tensor `step` reads as input k, if any.
std::optional<size_t> inputTensor(const Step& step, size_t k,
                                  const std::unordered_map<int32_t, size_t>& bySlot) {
  if (k >= step.inputs.size() || !step.inputs[k].present() || step.inputs[k].depth != 0)
    return std::nullopt;
  auto it = bySlot.find(step.inputs[k].index);
  if (it == bySlot.end()) return std::nullopt;
  return it->second;
}

// Views join their input's buffer; a view of memory the plan does not hold
// (a graph input, an initializer) is dropped from the plan.
void shareViews(const CompiledGraph& g, std::vector<PlannedTensor>& tensors, Buffers& buffers,
                std::vector<bool>& dropped, MemoryPlan& plan) {
  auto bySlot = indexBySlot(tensors);
  for (const Step& step : g.steps) {
    if (!isViewOp(*step.node) || step.outputs.empty() || step.outputs[0] < 0) continue;
    auto out = bySlot.find(step.outputs[0]);
    if (out == bySlot.end()) continue;
    auto in = inputTensor(step, 0, bySlot);
    if (!in || dropped[*in]) {
      bool heldElsewhere = !step.inputs.empty() && step.inputs[0].present();
      if (heldElsewhere) dropped[out->second] = true;
      continue;
    }
    PlannedTensor& t = tensors[out->second];
    t.reuse = Reuse::kView;
    t.sharesWith = static_cast<int32_t>(*in);
    buffers.merge(out->second, *in);
    ++plan.viewCount;
  }
}

// Graph outputs the executor writes where the caller gets them leave the
// block, with the views of them (PlanOptions::outputsOutside): the buffers
// output_buffers.h's directOutputSlots names (an output listed once, the
// base of outputs that view it), each a buffer of its own (not a view; before
// any in-place reuse or Concat part could join it).
void moveOutputsOutside(const CompiledGraph& g, std::vector<PlannedTensor>& tensors,
                        Buffers& buffers, std::vector<bool>& dropped, MemoryPlan& plan) {
  const std::vector<bool> direct = directOutputSlots(g);
  std::vector<bool> outside(tensors.size(), false);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const PlannedTensor& t = tensors[i];
    if (dropped[i] || t.reuse != Reuse::kNone || buffers.root(i) != i ||
        static_cast<size_t>(t.slot) >= direct.size() || !direct[static_cast<size_t>(t.slot)])
      continue;
    outside[i] = true;
    plan.outside.push_back(t);
    plan.outsideBytes += t.size;
  }
  for (size_t i = 0; i < tensors.size(); ++i)
    if (outside[buffers.root(i)]) dropped[i] = true;
}

// The most bytes live at one step, the block's (`plan.liveBytes`), the
// buffers inside the outputs' (`inOutputs`) and the outputs outside it
// together.
uint64_t lowerBoundWithOutside(const MemoryPlan& plan, const std::vector<uint64_t>& inOutputs) {
  std::vector<uint64_t> live = plan.liveBytes;
  for (size_t s = 0; s < live.size() && s < inOutputs.size(); ++s) live[s] += inOutputs[s];
  for (const PlannedTensor& t : plan.outside)
    for (size_t s = static_cast<size_t>(std::max(t.first, 0)); s < live.size(); ++s)
      live[s] += t.size;
  uint64_t most = 0;
  for (uint64_t b : live) most = std::max(most, b);
  return most;
}

// Whether every kernel row the step may run declares kInPlace.
bool kernelsRunInPlace(const Step& step) {
  if (step.candidates.empty()) return false;
  for (const KernelDef* def : step.candidates)
    if ((def->flags & kInPlace) == 0) return false;
  return true;
}

// An elementwise output takes the buffer of an input of its size whose buffer
// dies at this step and is not a graph output's.
void shareInPlace(const CompiledGraph& g, std::vector<PlannedTensor>& tensors, Buffers& buffers,
                  const std::vector<bool>& dropped, const PlanOptions& options, MemoryPlan& plan) {
  auto bySlot = indexBySlot(tensors);
  for (size_t s = 0; s < g.steps.size(); ++s) {
    const Step& step = g.steps[s];
    if (!isElementwise(*step.node) || step.outputs.empty() || step.outputs[0] < 0) continue;
    if (!options.inPlace || (options.declaredInPlaceOnly && !kernelsRunInPlace(step))) continue;
    auto out = bySlot.find(step.outputs[0]);
    if (out == bySlot.end() || dropped[out->second]) continue;
    PlannedTensor& t = tensors[out->second];
    for (size_t k = 0; k < step.inputs.size(); ++k) {
      auto in = inputTensor(step, k, bySlot);
      if (!in || dropped[*in] || buffers.root(*in) == buffers.root(out->second)) continue;
      const Buffer& b = buffers.of(*in);
      if (b.last != static_cast<int32_t>(s) || buffers.kept(*in)) continue;
      if (tensors[*in].bytes != t.bytes || b.size != t.size) continue;
      t.reuse = Reuse::kInPlace;
      t.sharesWith = static_cast<int32_t>(*in);
      buffers.merge(out->second, *in);
      ++plan.inPlaceCount;
      break;
    }
  }
}

// The Concat kernel that skips an input already at its place in the output.
constexpr std::string_view kConcatSkippingParts = "cpu.Concat";

bool concatKernelsSkipParts(const Step& step) {
  if (step.candidates.empty()) return false;
  for (const KernelDef* def : step.candidates)
    if (def->name != kConcatSkippingParts) return false;
  return true;
}

// Whether every dim of the Concat's output before its axis is 1 (each input
// is then one contiguous range of the output): from the output's static
// shape, else from `known` (the dims inferred for a run's input shapes).
bool partsAreContiguous(const ir::Node& concat, const ir::Value* out,
                        const std::optional<std::vector<int64_t>>* known) {
  std::vector<int64_t> dims;
  const ir::Type& t = out->type();
  if (t.isTensor() && t.hasShape() && t.shape()->isStatic())
    dims = *t.shape()->staticDims();
  else if (known != nullptr && known->has_value())
    dims = **known;
  else
    return false;
  auto rank = static_cast<int64_t>(dims.size());
  int64_t axis = concat.attrInt("axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return false;
  for (int64_t d = 0; d < axis; ++d)
    if (dims[static_cast<size_t>(d)] != 1) return false;
  return true;
}

// Whether the buffer of `root` may move inside the output of the Concat at
// step `s`: its tensor (`group`: the tensor a step wrote, with the views of it
// and the outputs written over it in place) is no Concat part yet, none of
// the group is a graph output or written by a node with subgraphs, all of
// `bytes`, and the whole buffer (with the parts of earlier Concats already
// inside it, which died at those) is dead after step s.
bool bufferMayMove(const CompiledGraph& g, int32_t s, uint64_t bytes, size_t root,
                   const std::vector<size_t>& group, const std::vector<PlannedTensor>& tensors,
                   Buffers& buffers, const std::vector<bool>& dropped) {
  if (group.empty() || tensors[root].reuse != Reuse::kNone || buffers.of(root).last > s)
    return false;
  for (size_t m : group) {
    const PlannedTensor& t = tensors[m];
    const Step& producer = g.steps[static_cast<size_t>(t.first)];
    if (dropped[m] || t.graphOutput || t.reuse == Reuse::kConcatPart || t.last > s ||
        t.bytes != bytes || producer.node->hasSubgraphs())
      return false;
  }
  return true;
}

// The buffers (their first tensors) of the inputs of the Concat at step `s`,
// which may each move inside its output `out`, in input order; empty when any
// input may not. An input is read by this Concat once and by nothing after
// it (other nodes may read it before: it stays where it was written); it may
// itself be an earlier Concat's output with its parts (a dense block's
// growing Concats: each one a prefix of the next).
std::vector<size_t> concatParts(const CompiledGraph& g, size_t s, size_t out,
                                const std::vector<PlannedTensor>& tensors, Buffers& buffers,
                                const std::vector<bool>& dropped,
                                const std::unordered_map<int32_t, size_t>& bySlot,
                                const std::vector<std::vector<size_t>>& groupOf) {
  const Step& step = g.steps[s];
  const auto at = static_cast<int32_t>(s);
  std::vector<size_t> parts;
  uint64_t offset = 0;
  for (size_t k = 0; k < step.inputs.size(); ++k) {
    auto in = inputTensor(step, k, bySlot);
    if (!in || dropped[*in]) return {};
    const PlannedTensor& t = tensors[*in];
    if (t.last != at) return {};
    size_t root = buffers.root(*in);
    if (root == buffers.root(out) || std::find(parts.begin(), parts.end(), root) != parts.end())
      return {};
    if (!bufferMayMove(g, at, t.bytes, root, groupOf[root], tensors, buffers, dropped)) return {};
    if (offset % kAlign != 0) return {};  // every part starts on the arena's alignment
    parts.push_back(root);
    offset += t.bytes;
  }
  if (parts.empty() || offset != tensors[out].bytes) return {};
  return parts;
}

// A Concat's inputs are written at their offsets inside its output's buffer,
// which then lives from the first of them (PlanOptions::concatParts). An
// input's whole buffer moves: the tensor an input was written over in place
// goes there too, and so do the parts of an input that is itself a Concat's
// output. Returns each tensor's offset inside its buffer (0 but for parts).
std::vector<uint64_t> shareConcatParts(const CompiledGraph& g, std::vector<PlannedTensor>& tensors,
                                       Buffers& buffers, const std::vector<bool>& dropped,
                                       const PlanOptions& options, const SlotDims* slotDims,
                                       MemoryPlan& plan) {
  std::vector<uint64_t> within(tensors.size(), 0);
  auto bySlot = indexBySlot(tensors);
  // Per buffer (its first tensor): the tensors sharing its place (views, in
  // place) and every tensor in it, the parts moved into it included.
  std::vector<std::vector<size_t>> groupOf(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) groupOf[buffers.root(i)].push_back(i);
  std::vector<std::vector<size_t>> membersOf = groupOf;
  for (size_t s = 0; s < g.steps.size(); ++s) {
    const Step& step = g.steps[s];
    if (!isStandard(*step.node, {"Concat"}) || step.outputs.empty() || step.outputs[0] < 0)
      continue;
    if (options.declaredInPlaceOnly && !concatKernelsSkipParts(step)) continue;
    auto out = bySlot.find(step.outputs[0]);
    if (out == bySlot.end() || dropped[out->second]) continue;
    const ir::Value* v = g.slotValues[static_cast<size_t>(step.outputs[0])];
    const auto outSlot = static_cast<size_t>(step.outputs[0]);
    bool dimsKnown = slotDims != nullptr && outSlot < slotDims->size();
    if (!partsAreContiguous(*step.node, v, dimsKnown ? &(*slotDims)[outSlot] : nullptr)) continue;
    auto parts = concatParts(g, s, out->second, tensors, buffers, dropped, bySlot, groupOf);
    uint64_t offset = 0;
    for (size_t p : parts) {
      PlannedTensor& first = tensors[p];
      first.reuse = Reuse::kConcatPart;
      first.sharesWith = static_cast<int32_t>(out->second);
      for (size_t m : groupOf[p]) tensors[m].partOffset = offset;
      size_t into = buffers.root(out->second);  // the output's offset in it is 0
      for (size_t m : membersOf[p]) within[m] += offset;
      offset += first.bytes;
      buffers.merge(p, out->second);
      membersOf[into].insert(membersOf[into].end(), membersOf[p].begin(), membersOf[p].end());
      ++plan.concatPartCount;
    }
  }
  return within;
}

// Whether PASSLAB_CONCAT_PARTS=0 turns concat parts off.
bool concatPartsTurnedOff() {
  const char* v = std::getenv("PASSLAB_CONCAT_PARTS");
  return v != nullptr && std::string_view(v) == "0";
}

// Whether PASSLAB_TENSORS_IN_OUTPUTS=0 keeps every block tensor out of the
// outputs' buffers.
bool tensorsInOutputsTurnedOff() {
  const char* v = std::getenv("PASSLAB_TENSORS_IN_OUTPUTS");
  return v != nullptr && std::string_view(v) == "0";
}

// Removes dropped tensors, renumbering sharesWith.
void removeDropped(std::vector<PlannedTensor>& tensors, const std::vector<bool>& dropped) {
  std::vector<int32_t> newIndex(tensors.size(), -1);
  std::vector<PlannedTensor> kept;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (dropped[i]) continue;
    newIndex[i] = static_cast<int32_t>(kept.size());
    kept.push_back(std::move(tensors[i]));
  }
  for (PlannedTensor& t : kept)
    if (t.sharesWith >= 0) t.sharesWith = newIndex[static_cast<size_t>(t.sharesWith)];
  tensors = std::move(kept);
}

// The bytes a buffer holding Concat parts holds, and when: its bytes cut
// where a tensor in it (`held`: at its offset inside the buffer, over its
// steps) starts or ends, each piece live from the first step that writes a
// tensor over it to the last that reads one, neighbouring pieces with the
// same steps joined. A dense block's buffer becomes a staircase: each layer's
// bytes live from that layer's step, not from the block's first. Empty when
// that is the whole buffer over its whole life.
std::vector<Segment> staircaseOf(const std::vector<Segment>& held, const Buffer& whole) {
  std::vector<uint64_t> cuts;
  for (const Segment& t : held) {
    cuts.push_back(t.offset);
    cuts.push_back(t.offset + t.size);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<Segment> pieces;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    Segment piece{cuts[k], cuts[k + 1] - cuts[k], whole.last, whole.first};
    bool heldByOne = false;
    for (const Segment& t : held)
      if (t.offset <= piece.offset && piece.offset < t.offset + t.size) {
        piece.first = std::min(piece.first, t.first);
        piece.last = std::max(piece.last, t.last);
        heldByOne = true;
      }
    if (!heldByOne) continue;  // free to others all along
    Segment* prev = pieces.empty() ? nullptr : &pieces.back();
    if (prev != nullptr && prev->offset + prev->size == piece.offset &&
        prev->first == piece.first && prev->last == piece.last)
      prev->size += piece.size;
    else
      pieces.push_back(piece);
  }
  bool isWhole = pieces.size() == 1 && pieces[0].offset == 0 && pieces[0].size == whole.size &&
                 pieces[0].first == whole.first && pieces[0].last == whole.last;
  return isWhole ? std::vector<Segment>{} : pieces;
}

// Each buffer with Concat parts in it (a tensor off its base: `within`)
// placed as its staircase.
void cutIntoStaircases(std::vector<Buffer>& list, const std::vector<PlannedTensor>& tensors,
                       const std::vector<int32_t>& bufferOf, const std::vector<uint64_t>& within) {
  std::vector<std::vector<Segment>> held(list.size());
  std::vector<bool> hasParts(list.size(), false);
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (bufferOf[i] < 0) continue;
    auto b = static_cast<size_t>(bufferOf[i]);
    const PlannedTensor& t = tensors[i];
    held[b].push_back({within[i], t.size, t.first, t.last});
    if (t.reuse == Reuse::kConcatPart) hasParts[b] = true;
  }
  for (size_t b = 0; b < list.size(); ++b)
    if (hasParts[b]) list[b].segments = staircaseOf(held[b], list[b]);
}

// Offsets of a list of buffers and the strategy that gave them.
struct Placement {
  std::string strategy;
  uint64_t peak = 0;                                    // the block's
  std::vector<std::pair<std::string, uint64_t>> peaks;  // per strategy tried
  std::vector<uint64_t> offsets;  // per buffer: in the block, or in its region
  std::vector<int32_t> region;    // per buffer: -1 (the block) or an outside output
};

// The three strategies on `list` (the hill climb only with a budget), the
// one with the smallest `measure` of its offsets kept.
template <typename Measure>
Placement placeByStrategies(const std::vector<Buffer>& list, int32_t steps, uint64_t budget,
                            Measure measure) {
  std::vector<std::pair<std::string, std::vector<uint64_t>>> tried;
  tried.emplace_back("greedy-by-size", greedyBySize(list));
  tried.emplace_back("greedy-by-breadth", greedyByBreadth(list, steps));
  if (budget > 0) tried.emplace_back("hill-climb", hillClimb(list, steps, budget));
  Placement p;
  size_t chosen = 0;
  for (size_t k = 0; k < tried.size(); ++k) {
    p.peaks.emplace_back(tried[k].first, measure(tried[k].second));
    if (p.peaks[k].second < p.peaks[chosen].second) chosen = k;
  }
  p.strategy = tried[chosen].first;
  p.peak = p.peaks[chosen].second;
  p.offsets = std::move(tried[chosen].second);
  p.region.assign(list.size(), -1);
  return p;
}

// The block's buffers placed again with each outside output's buffer below
// them as a second arena (PlanOptions::tensorsInOutputs): output k's bytes
// are a fixed buffer live from its step to the end of the run, so only
// buffers that die before that step go there, and a barrier live at every
// step after each keeps a buffer from lying across two of them or across
// one and the block. A buffer placed in output k's bytes gets region k and
// its offset from the output's start; the others are in the block, offset
// from its start. Nothing when no buffer could go into any output.
std::optional<Placement> placeWithRegions(const std::vector<Buffer>& list,
                                          const std::vector<PlannedTensor>& outside, int32_t steps,
                                          uint64_t budget) {
  bool anyFits = false;
  for (const Buffer& b : list)
    for (const PlannedTensor& o : outside)
      if (b.size > 0 && b.size <= o.size && b.last < o.first) anyFits = true;
  if (!anyFits) return std::nullopt;
  std::vector<Buffer> all;
  std::vector<uint64_t> base;  // per output
  uint64_t at = 0;
  for (const PlannedTensor& o : outside) {
    Buffer region{o.size, o.first, steps, {}, true, at};
    Buffer barrier{kAlign, 0, steps, {}, true, at + o.size};
    base.push_back(at);
    all.push_back(region);
    all.push_back(barrier);
    at += o.size + kAlign;
  }
  const uint64_t blockStart = at;
  const size_t fixedCount = all.size();
  all.insert(all.end(), list.begin(), list.end());
  // Where buffer j (of `list`) is: its region (-1: the block) and offset.
  auto where = [&](const std::vector<uint64_t>& offsets, size_t j) -> std::pair<int32_t, uint64_t> {
    const uint64_t o = offsets[fixedCount + j];
    if (list[j].size == 0) return {-1, 0};
    if (o >= blockStart) return {-1, o - blockStart};
    for (size_t k = 0; k < base.size(); ++k)
      if (base[k] <= o && o + list[j].size <= base[k] + outside[k].size)
        return {static_cast<int32_t>(k), o - base[k]};
    return {-2, 0};  // across a barrier: cannot happen (the barriers are live at every step)
  };
  auto blockPeak = [&](const std::vector<uint64_t>& offsets) {
    uint64_t top = 0;
    for (size_t j = 0; j < list.size(); ++j) {
      auto [region, offset] = where(offsets, j);
      if (region == -2) return ~uint64_t{0};
      if (region == -1) top = std::max(top, offset + list[j].size);
    }
    return top;
  };
  Placement p = placeByStrategies(all, steps, budget, blockPeak);
  if (p.peak == ~uint64_t{0}) return std::nullopt;
  Placement out;
  out.strategy = p.strategy;
  out.peak = p.peak;
  out.peaks = std::move(p.peaks);
  for (size_t j = 0; j < list.size(); ++j) {
    auto [region, offset] = where(p.offsets, j);
    out.offsets.push_back(offset);
    out.region.push_back(region);
  }
  return out;
}

// The least block any placement of `list` needs beside the outside
// outputs, where a buffer may also lie in one output's bytes that hold it
// and that its output's step writes after the buffer's last step (the rule
// of placeWithRegions, whether or not it runs): at each step the bytes live
// less the most of them the outputs could hold there (per output, its size
// or the live bytes of the buffers that may go into it, whichever is less;
// all together, no more than the live bytes of the buffers that may go into
// one). Tensors read at an output's step, or larger than every output,
// count in the block, where the most bytes live at one step counted every
// live byte as one an output could hold (docs/memory.md).
uint64_t blockBoundBesideOutputs(const std::vector<Buffer>& list,
                                 const std::vector<PlannedTensor>& outside, int32_t steps) {
  std::vector<uint64_t> live = liveBytesPerStep(list, steps);
  std::vector<uint64_t> fit(live.size(), 0);
  std::vector<bool> mayGo(list.size(), false);
  for (const PlannedTensor& o : outside) {
    std::vector<Buffer> into;
    for (size_t j = 0; j < list.size(); ++j)
      if (list[j].size > 0 && list[j].size <= o.size && list[j].last < o.first) {
        into.push_back(list[j]);
        mayGo[j] = true;
      }
    if (into.empty()) continue;
    const std::vector<uint64_t> held = liveBytesPerStep(into, steps);
    for (size_t s = 0; s < fit.size(); ++s) fit[s] += std::min<uint64_t>(o.size, held[s]);
  }
  std::vector<Buffer> any;
  for (size_t j = 0; j < list.size(); ++j)
    if (mayGo[j]) any.push_back(list[j]);
  const std::vector<uint64_t> movable = liveBytesPerStep(any, steps);
  uint64_t most = 0;
  for (size_t s = 0; s < live.size(); ++s)
    most = std::max(most, live[s] - std::min(fit[s], movable[s]));
  return most;
}

// `within`: each tensor's offset inside its buffer (empty: 0 for all).
// `regions`: whether block buffers may go inside the outside outputs'
// buffers (kept only where that lowers the block's peak).
void placeBuffers(MemoryPlan& plan, Buffers& buffers, const std::vector<bool>& dropped,
                  const std::vector<uint64_t>& within, uint64_t hillClimbBudget, bool regions) {
  std::vector<PlannedTensor>& tensors = plan.tensors;
  std::vector<size_t> roots;  // one per buffer
  std::vector<int32_t> bufferOf(tensors.size(), -1);
  std::unordered_map<size_t, int32_t> rootIndex;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (dropped[i]) continue;
    size_t r = buffers.root(i);
    auto [it, fresh] = rootIndex.emplace(r, static_cast<int32_t>(roots.size()));
    if (fresh) roots.push_back(r);
    bufferOf[i] = it->second;
  }
  std::vector<Buffer> list;
  for (size_t r : roots) list.push_back(buffers.of(r));
  if (!within.empty()) cutIntoStaircases(list, tensors, bufferOf, within);

  Placement chosen =
      placeByStrategies(list, plan.stepCount, hillClimbBudget,
                        [&](const auto& offsets) { return arenaSize(list, offsets); });
  plan.peakWithoutRegions = chosen.peak;
  if (regions && !plan.outside.empty()) {
    // Worth a second placement only where the block and the outputs hold 1%
    // or more above the most bytes live at one step with the outputs: the
    // most that placing tensors in the outputs could win (a CNN's 4 KiB of
    // class scores against MiB of block is not).
    std::vector<uint64_t> live = liveBytesPerStep(list, plan.stepCount);
    for (const PlannedTensor& o : plan.outside)
      for (size_t s = static_cast<size_t>(std::max(o.first, 0)); s < live.size(); ++s)
        live[s] += o.size;
    uint64_t most = 0;
    for (uint64_t b : live) most = std::max(most, b);
    const uint64_t held = chosen.peak + plan.outsideBytes;
    if (held > most && (held - most) * 100 >= held)
      if (auto r = placeWithRegions(list, plan.outside, plan.stepCount, hillClimbBudget);
          r && r->peak < chosen.peak)
        chosen = std::move(*r);
  }
  plan.strategy = chosen.strategy;
  plan.strategyPeaks = chosen.peaks;
  plan.peak = chosen.peak;

  std::vector<Buffer> inBlock, inOutputs;
  for (size_t j = 0; j < list.size(); ++j) {
    (chosen.region[j] < 0 ? inBlock : inOutputs).push_back(list[j]);
    if (chosen.region[j] >= 0) plan.inOutputsBytes += list[j].size;
  }
  plan.liveBytes = liveBytesPerStep(inBlock, plan.stepCount);
  if (!inOutputs.empty()) plan.liveBytesInOutputs = liveBytesPerStep(inOutputs, plan.stepCount);
  plan.lowerBound = lowerBound(inBlock, plan.stepCount);
  if (!plan.outside.empty())
    plan.blockBoundBesideOutputs = blockBoundBesideOutputs(list, plan.outside, plan.stepCount);
  auto top = std::max_element(plan.liveBytes.begin(), plan.liveBytes.end());
  plan.peakStep =
      top == plan.liveBytes.end() ? -1 : static_cast<int32_t>(top - plan.liveBytes.begin());

  for (size_t i = 0; i < tensors.size(); ++i) {
    if (bufferOf[i] < 0) continue;
    const auto b = static_cast<size_t>(bufferOf[i]);
    tensors[i].offset = chosen.offsets[b] + (within.empty() ? 0 : within[i]);
    tensors[i].region = chosen.region[b];
    if (tensors[i].region >= 0) ++plan.inOutputsCount;
  }
}

// The node at the peak step and the largest tensor live there.
void namePeak(const CompiledGraph& g, MemoryPlan& plan) {
  if (plan.peakStep < 0) return;
  plan.peakNode = producerName(*g.steps[static_cast<size_t>(plan.peakStep)].node);
  for (size_t i = 0; i < plan.tensors.size(); ++i) {
    const PlannedTensor& t = plan.tensors[i];
    if (t.region >= 0 || t.first > plan.peakStep || t.last < plan.peakStep) continue;
    if (plan.peakTensor < 0 || t.bytes > plan.tensors[static_cast<size_t>(plan.peakTensor)].bytes)
      plan.peakTensor = static_cast<int32_t>(i);
  }
}

}  // namespace

SizeUnknownAhead firstSizeUnknownAhead(const CompiledGraph& graph) {
  for (const Step& step : graph.steps)
    for (int32_t slot : step.outputs) {
      if (slot < 0) continue;
      const ir::Value* v = graph.slotValues[static_cast<size_t>(slot)];
      if (planned(step, v) && !bytesAhead(v)) return {v, step.node};
    }
  return {};
}

bool sizesKnownAhead(const CompiledGraph& graph) {
  return firstSizeUnknownAhead(graph).value == nullptr;
}

Expected<MemoryPlan> planMemory(const CompiledGraph& graph,
                                const std::vector<uint64_t>* observedBytes,
                                const PlanOptions& options) {
  return planMemory(graph, observedBytes, options, nullptr);
}

Expected<MemoryPlan> planMemory(const CompiledGraph& graph,
                                const std::vector<uint64_t>* observedBytes,
                                const PlanOptions& options, const SlotDims* dims) {
  MemoryPlan plan;
  plan.stepCount = static_cast<int32_t>(graph.steps.size());
  for (const Step& step : graph.steps)
    if (step.node->hasSubgraphs()) ++plan.unplannedBodies;
  bool usedObserved = false;
  auto tensors = collectTensors(graph, observedBytes, options, usedObserved);
  if (!tensors) return tensors.error();
  plan.plannedAtRunTime = usedObserved;
  if (options.scratchBytes != nullptr) addScratch(graph, *options.scratchBytes, *tensors, plan);

  Buffers buffers(*tensors);
  std::vector<bool> dropped(tensors->size(), false);
  shareViews(graph, *tensors, buffers, dropped, plan);
  if (options.outputsOutside) moveOutputsOutside(graph, *tensors, buffers, dropped, plan);
  shareInPlace(graph, *tensors, buffers, dropped, options, plan);
  std::vector<uint64_t> within;
  if (options.inPlace && options.concatParts && !concatPartsTurnedOff())
    within = shareConcatParts(graph, *tensors, buffers, dropped, options, dims, plan);
  plan.tensors = std::move(tensors).value();
  placeBuffers(plan, buffers, dropped, within, options.hillClimbBudget,
               options.outputsOutside && options.tensorsInOutputs && !tensorsInOutputsTurnedOff());
  removeDropped(plan.tensors, dropped);
  namePeak(graph, plan);
  plan.lowerBoundWithOutside = std::max(lowerBoundWithOutside(plan, plan.liveBytesInOutputs),
                                        plan.blockBoundBesideOutputs + plan.outsideBytes);
  plan.lowerBoundWithoutScratch = lowerBoundWithoutScratch(plan);
  return plan;
}

PlanOptions PlanOptions::withDirectOutputs(PlanOptions o, uint64_t memoryLimitBytes) {
  o.outputsOutside = memoryLimitBytes == 0 && !OutputBuffers::turnedOff();
  o.tensorsInOutputs = o.outputsOutside;
  return o;
}

Status checkMemoryLimit(const MemoryPlan& plan, uint64_t limitBytes) {
  const uint64_t peak = plan.peakWithOutside();
  if (limitBytes == 0 || peak <= limitBytes) return Status::ok();
  std::string msg =
      "the planned peak of " + str::humanBytes(peak) + " (" + std::to_string(peak) + " bytes" +
      (plan.outsideBytes > 0 ? ", " + std::to_string(plan.outsideBytes) + " of them graph outputs"
                             : std::string()) +
      ") is above the memory limit of " + str::humanBytes(limitBytes) + " (" +
      std::to_string(limitBytes) + " bytes)";
  if (plan.peakStep >= 0)
    msg += "; at step " + std::to_string(plan.peakStep) + " (" + plan.peakNode + ") " +
           str::humanBytes(plan.liveBytes[static_cast<size_t>(plan.peakStep)]) + " are live";
  if (plan.peakTensor >= 0) {
    const PlannedTensor& t = plan.tensors[static_cast<size_t>(plan.peakTensor)];
    if (t.scratch)
      msg += ", the largest of them the kernel scratch of " + t.producer + " (" +
             str::humanBytes(t.bytes) + ", measured by a run)";
    else
      msg += ", the largest of them '" + t.name + "' (" + str::humanBytes(t.bytes) +
             ", written by " + t.producer + ")";
  }
  return limitError(msg);
}

}  // namespace passlab::exec::memory
