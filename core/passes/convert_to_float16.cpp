// convert_to_float16, convert_to_bfloat16 — precision: float32 computed in
// 16 bits (lossy: the check holds the outputs to the accuracy budget).
//
// Before:  <float[4] w = {...}> { y = Mul(x, w); z = Range(a, b, d) }   (x, y float32)
// After:   <float16[4] w = {...}> { xh = Cast <to = 10> (x); yh = Mul(xh, w);
//                                   y = Cast <to = 1> (yh); z = Range(a, b, d) }
// Which nodes convert: half_precision_plan.h (the op schema decides, value by
// value; Resize's scales, Range, random ops, nodes with subgraphs stay).
// Then:
//   - the converted nodes' 16-bit values get the new type (names kept, so the
//     check can compare every tensor with the original's);
//   - a float32 initializer read only where values convert is stored in 16
//     bits (float16: finite values beyond +-65504 clamped there, counted in
//     the step's note with those flushed to zero); one that is also a graph
//     input (IR version < 4) is frozen as a constant first; one read
//     elsewhere too stays and is cast;
//   - Cast `to`, EyeLike `dtype`, the `value` of Constant and ConstantOfShape
//     patched to the 16-bit type;
//   - where a value meets a reader that expects the other type, one Cast per
//     value and type, before the first such reader (the graph stays sorted);
//   - keep_io_types (default): graph inputs and outputs stay float32 (a Cast
//     after each input and before each output, the output keeping its name);
//     without it, inputs read only by converted nodes become 16-bit too.
// Options: op_block_list, node_block_list (comma-separated), keep_io_types;
// the step's node filter (--exclude-node, a recipe's node ids) keeps nodes too.
// Subgraphs (If branches, Loop and Scan bodies, to any depth) convert too,
// each body on its own as a graph with keep_io_types: its inputs and outputs
// stay float32 (so an If's branches keep one output type, and a Loop's
// carried values their type), and the outer values a body reads or returns
// stay float32 in their own graph (their producers are kept; a converted
// reader in the body gets a Cast there). Option subgraphs=false leaves the
// bodies float32; a node in a block list or excluded by the filter keeps its
// bodies float32 too (an --exclude-node; a filter of chosen nodes applies
// inside the bodies). The note counts the nodes converted inside bodies and
// those left in bodies that stay float32.
// Running it again changes nothing: no float32 value is left that may convert.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/passes/function_pass.h"
#include "core/passes/half_precision_plan.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"
#include "core/support/float16.h"
#include "core/support/strings.h"

namespace passlab::passes {

namespace {

constexpr double kHalfMax = 65504;

// A float32 tensor in the target type; `clamped` and `flushed` count
// float16's range losses.
ir::Tensor lowered(const ir::Tensor& t, ir::DataType target, size_t& clamped, size_t& flushed) {
  std::vector<uint16_t> bits(static_cast<size_t>(t.numel()));
  auto src = t.data<float>();
  for (size_t i = 0; i < bits.size(); ++i) {
    float v = src[i];
    if (target == ir::DataType::kBFloat16) {
      bits[i] = floatToBfloat16(v);
      continue;
    }
    if (std::isfinite(v) && std::fabs(v) > kHalfMax) {
      v = std::copysign(static_cast<float>(kHalfMax), v);
      ++clamped;
    }
    bits[i] = floatToHalf(v);
    if (v != 0 && halfToFloat(bits[i]) == 0) ++flushed;
  }
  return ir::Tensor::fromVector<uint16_t>(target, t.dims(), bits);
}

ir::Type withElem(ir::Type t, ir::DataType elem) {
  t.setElemType(elem);
  return t;
}

std::unordered_set<std::string> listOption(const std::string& text) {
  std::unordered_set<std::string> out;
  for (const std::string& s : str::split(text, ',')) {
    std::string item(str::trim(s));
    if (!item.empty()) out.insert(item);
  }
  return out;
}

// What the conversion of every graph added up to (the step's note).
struct Counts {
  size_t converted = 0, kept = 0, convertedInBodies = 0, leftInBodies = 0;
  size_t casts = 0, weights = 0, frozen = 0, clamped = 0, flushed = 0;
  // The Casts to the 16-bit type added in a body for a float32 weight of an
  // enclosing graph (foldOuterWeightCasts).
  std::vector<ir::Node*> outerWeightCasts;
};

// Converts the nodes of one graph (the main graph or a body), its nested
// subgraphs not visited.
class Converter {
 public:
  Converter(PassContext& ctx, const char* id, ir::DataType target, ir::Graph& g,
            const HalfPrecisionOptions& o, bool keepIo, Counts& counts)
      : ctx_(ctx),
        rw_(ctx.rewriter),
        g_(g),
        id_(id),
        target_(target),
        options_(o),
        keepIo_(keepIo),
        counts_(counts) {}

  void run() {
    plan_ = planHalfPrecision(ctx_.model(), g_, options_);
    for (const auto& [node, why] : plan_.kept) explain(*node, why);
    counts_.kept += plan_.kept.size();
    counts_.converted += plan_.converted.size();
    if (g_.parentNode()) counts_.convertedInBodies += plan_.converted.size();
    if (plan_.converted.empty()) return;
    recordPositions();
    const std::vector<ReaderNeed> needs = collectNeeds();
    keepOutputsFloat32();
    convertNodes();
    convertInitializersAndInputs();
    insertCasts(needs);
  }

 private:
  // A reader of a float32 value: the type it will expect.
  struct ReaderNeed {
    ir::Value* value;
    ir::Node* reader;
    size_t index;
    ir::DataType wants;
  };

  void explain(const ir::Node& n, const Text& why) {
    if (ctx_.explain) ctx_.explain->note(n.id(), id_, why);
  }

  bool inputConverts(const ir::Node* n, size_t i) const {
    auto it = plan_.converted.find(n);
    return it != plan_.converted.end() && it->second.inputs[i];
  }

  bool takesEitherType(const ir::Node* n, size_t i) const {
    auto it = plan_.eitherType.find(n);
    return it != plan_.eitherType.end() && it->second[i];
  }

  void recordPositions() {
    size_t at = 0;
    for (const auto& n : g_.nodes()) position_[n.get()] = at++;
  }

  // Every reader (in this graph) of a float32 value, before any edit.
  std::vector<ReaderNeed> collectNeeds() const {
    std::vector<ReaderNeed> needs;
    for (const auto& owned : g_.nodes())
      for (size_t i = 0; i < owned->inputCount(); ++i) {
        ir::Node* n = owned.get();
        ir::Value* v = n->input(i);
        if (!v || !v->type().isTensor() || v->type().elemType() != ir::DataType::kFloat) continue;
        if (takesEitherType(n, i)) continue;  // reads the value in whichever type it ends up
        needs.push_back({v, n, i, inputConverts(n, i) ? target_ : ir::DataType::kFloat});
      }
    return needs;
  }

  bool outputConverts(const ir::Value* v) const {
    const ir::Node* p = v->producer();
    if (!p) return false;
    auto it = plan_.converted.find(p);
    return it != plan_.converted.end() &&
           it->second.outputs[static_cast<size_t>(v->producerOutputIndex())];
  }

  // A converted output of the graph keeps its float32 type (and, in the main
  // graph, its name): a Cast back to float32 takes over the name
  // (replaceAllUsesWith renames), and the readers of the value keep reading
  // the value itself. A body always keeps its outputs float32.
  void keepOutputsFloat32() {
    if (!keepIo_) return;
    std::vector<ir::Value*> outputs = g_.outputs();
    for (ir::Value* v : outputs) {
      if (!outputConverts(v) || castsBack_.count(v)) continue;
      std::vector<ir::Use> uses = v->uses();
      ir::Node* cast = rw_.addNode(g_, "Cast", "", {v}, 1, nullptr, "", {v->producer()});
      rw_.setAttr(cast, ir::Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::kFloat)));
      rw_.setType(cast->output(0), v->type());
      rw_.replaceAllUsesWith(v, cast->output(0));
      rw_.setInput(cast, 0, v);
      for (const ir::Use& u : uses) rw_.setInput(u.node, static_cast<size_t>(u.inputIndex), v);
      castsBack_.insert(v);
      ++counts_.casts;
    }
  }

  void convertNodes() {
    for (const auto& [node, c] : plan_.converted) {
      ir::Node* n = const_cast<ir::Node*>(node);
      for (size_t i = 0; i < c.outputs.size(); ++i)
        if (c.outputs[i]) rw_.setType(n->output(i), withElem(n->output(i)->type(), target_));
      patchTypeAttributes(*n, c);
    }
  }

  void patchTypeAttributes(ir::Node& n, const NodeConversion& c) {
    if (!n.domain().empty() || c.outputs.empty() || !c.outputs[0]) return;
    const auto code = static_cast<int64_t>(target_);
    if (n.opType() == "Cast") rw_.setAttr(&n, ir::Attribute::makeInt("to", code));
    if (n.opType() == "EyeLike") rw_.setAttr(&n, ir::Attribute::makeInt("dtype", code));
    if (n.opType() == "Constant" || n.opType() == "ConstantOfShape") {
      const ir::Attribute* a = n.attr("value");
      if (a && a->type() == ir::AttrType::kTensor && a->t.dtype() == ir::DataType::kFloat)
        rw_.setAttr(&n, ir::Attribute::makeTensor(
                            "value", lowered(a->t, target_, counts_.clamped, counts_.flushed)));
    }
  }

  // A float32 value with no producer read only where values convert.
  bool onlyConvertedReaders(const ir::Value* v) const {
    if (v->uses().empty() || v->isGraphOutput()) return false;
    for (const ir::Use& u : v->uses())
      if (u.node->owner() != &g_ || !inputConverts(u.node, static_cast<size_t>(u.inputIndex)))
        return false;
    return true;
  }

  void convertInitializersAndInputs() {
    for (ir::Value* v : g_.initializers()) {
      if (!v->initializer()) continue;
      if (v->initializer()->dtype() != ir::DataType::kFloat || !onlyConvertedReaders(v)) continue;
      // A weight that is also a graph input (every one below IR version 4)
      // is frozen first: a 16-bit weight fed as float32 would need a Cast
      // on every run.
      if (v->isGraphInput()) {
        rw_.freezeInitializer(v);
        ++counts_.frozen;
      }
      rw_.setInitializer(v, lowered(*v->initializer(), target_, counts_.clamped, counts_.flushed));
      rw_.setType(v, withElem(v->type(), target_));
      ++counts_.weights;
    }
    if (keepIo_) return;
    for (ir::Value* v : g_.inputs())
      if (!v->isInitializer() && v->type().isTensor() &&
          v->type().elemType() == ir::DataType::kFloat && onlyConvertedReaders(v))
        rw_.setType(v, withElem(v->type(), target_));
  }

  // One Cast per (value, type) that readers need and the value is not,
  // before the first of them.
  void insertCasts(const std::vector<ReaderNeed>& needs) {
    std::map<std::pair<ir::Value*, ir::DataType>, std::vector<const ReaderNeed*>> groups;
    for (const ReaderNeed& r : needs)
      if (r.value->type().elemType() != r.wants) groups[{r.value, r.wants}].push_back(&r);
    for (const auto& [key, readers] : groups) {
      ir::Node* first = readers.front()->reader;
      for (const ReaderNeed* r : readers)
        if (position_.at(r->reader) < position_.at(first)) first = r->reader;
      ir::Node* cast = rw_.addNode(g_, "Cast", "", {key.first}, 1, first, "", {first});
      rw_.setAttr(cast, ir::Attribute::makeInt("to", static_cast<int64_t>(key.second)));
      rw_.setType(cast->output(0), withElem(key.first->type(), key.second));
      for (const ReaderNeed* r : readers) rw_.setInput(r->reader, r->index, cast->output(0));
      ++counts_.casts;
      const ir::Value* v = key.first;
      if (v->isInitializer() && v->owner() != &g_ && key.second == target_)
        counts_.outerWeightCasts.push_back(cast);
    }
  }

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  ir::Graph& g_;
  const char* id_;
  ir::DataType target_;
  const HalfPrecisionOptions& options_;
  bool keepIo_ = true;
  Counts& counts_;
  HalfPrecisionPlan plan_;
  std::unordered_map<const ir::Node*, size_t> position_;
  std::unordered_set<const ir::Value*> castsBack_;
};

// The main graph, then each body (depth first) that entersSubgraphs allows;
// the nodes of the bodies left are counted.
class Conversion {
 public:
  Conversion(PassContext& ctx, const char* id, ir::DataType target)
      : ctx_(ctx), id_(id), target_(target) {}

  Status run() {
    o_.target = target_;
    for (const std::string& op : defaultHalfPrecisionBlockList()) o_.blockedOps.insert(op);
    for (const std::string& op : listOption(ctx_.option("op_block_list"))) o_.blockedOps.insert(op);
    o_.blockedNodes = listOption(ctx_.option("node_block_list"));
    o_.filter = ctx_.filter;
    o_.enterSubgraphs = ctx_.boolOption("subgraphs");
    ir::Graph& main = ctx_.model().graph();
    // The bodies before any edit (the edits add Casts and no subgraphs).
    std::vector<ir::Graph*> bodies;
    collectBodies(main, bodies);
    Converter(ctx_, id_, target_, main, o_, ctx_.boolOption("keep_io_types"), counts_).run();
    for (ir::Graph* body : bodies) Converter(ctx_, id_, target_, *body, o_, true, counts_).run();
    foldOuterWeightCasts();
    writeNote();
    return Status::ok();
  }

 private:
  void collectBodies(ir::Graph& g, std::vector<ir::Graph*>& bodies) {
    for (const auto& n : g.nodes()) {
      if (!n->hasSubgraphs()) continue;
      const bool enter = entersSubgraphs(*n, o_);
      for (ir::Graph* sub : n->subgraphs()) {
        if (!enter) {
          counts_.leftInBodies += sub->nodeCountRecursive();
          continue;
        }
        bodies.push_back(sub);
        collectBodies(*sub, bodies);
      }
    }
  }

  // A float32 weight of an enclosing graph that only the Casts added in
  // bodies read (silero_vad keeps its Conv weights in the main graph, read by
  // both branches) is stored in the 16-bit type instead, and the Casts go.
  void foldOuterWeightCasts() {
    std::map<ir::Value*, std::vector<ir::Node*>> byWeight;
    for (ir::Node* cast : counts_.outerWeightCasts) byWeight[cast->input(0)].push_back(cast);
    rewrite::Rewriter& rw = ctx_.rewriter;
    for (auto& [v, casts] : byWeight) {
      if (v->isGraphInput() || v->isGraphOutput() || v->uses().size() != casts.size() ||
          v->initializer()->dtype() != ir::DataType::kFloat)
        continue;
      rw.setInitializer(v, lowered(*v->initializer(), target_, counts_.clamped, counts_.flushed));
      rw.setType(v, withElem(v->type(), target_));
      for (ir::Node* cast : casts) {
        rw.replaceAllUsesWith(cast->output(0), v);
        rw.removeNode(cast);
        --counts_.casts;
      }
      ++counts_.weights;
    }
  }

  void writeNote() {
    if (!ctx_.note || (counts_.converted == 0 && counts_.leftInBodies == 0)) return;
    const Counts& c = counts_;
    Text note = Text::of(
        "%1 nodes in %2, %3 kept in float32 (the explain log says why), %4 "
        "weights stored in %2, %5 Casts added",
        std::to_string(c.converted), std::string(ir::dtypeName(target_)), std::to_string(c.kept),
        std::to_string(c.weights), std::to_string(c.casts));
    if (c.convertedInBodies)
      note = Text::of("%1; %2 of the converted nodes are inside subgraphs", note,
                      std::to_string(c.convertedInBodies));
    if (c.leftInBodies)
      note = Text::of(
          "%1; %2 nodes inside subgraphs left float32 (subgraphs=false, or their "
          "node is blocked or excluded)",
          note, std::to_string(c.leftInBodies));
    if (c.frozen)
      note = Text::of("%1 (%2 of them were graph inputs too, now frozen as constants)", note,
                      std::to_string(c.frozen));
    if (c.clamped || c.flushed)
      note = Text::of(
          "%1; %2 weight values clamped to the float16 range (+-65504), %3 flushed to "
          "zero",
          note, std::to_string(c.clamped), std::to_string(c.flushed));
    *ctx_.note = note;
  }

  PassContext& ctx_;
  const char* id_;
  ir::DataType target_;
  HalfPrecisionOptions o_;
  Counts counts_;
};

std::unique_ptr<Pass> halfPass(PassInfo info, ir::DataType target) {
  const std::string id = info.id;
  return std::make_unique<FunctionPass>(std::move(info), [id, target](PassContext& ctx) {
    return Conversion(ctx, id.c_str(), target).run();
  });
}

}  // namespace

std::unique_ptr<Pass> makeConvertToFloat16() {
  return halfPass(catalogInfo("convert_to_float16"), ir::DataType::kFloat16);
}

std::unique_ptr<Pass> makeConvertToBfloat16() {
  return halfPass(catalogInfo("convert_to_bfloat16"), ir::DataType::kBFloat16);
}

}  // namespace passlab::passes
