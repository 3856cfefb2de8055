// remove_dead_channels — precision: the output channels of Conv, Gemm and
// MatMul whose weights are all zero removed, with what only they feed (exact:
// the outputs stay equal up to float rounding).
//
// Before:  y = Conv(x, w, b)  (w[m] all zero: channel m of y is b[m] everywhere)
//          z = Conv(Relu(y), w2, b2)
// After:   y = Conv(x, w without m, b without m)
//          z = Conv(Relu(y), w2 without input channel m, b2 + relu(b[m]) * sum(w2[:, m]))
//
// A channel whose weights are all zero holds a constant: its bias (a Conv's
// B, beta * C of a Gemm), else 0. The walk follows the channel through the
// ops that keep it constant, computing its value: Relu, LeakyRelu, Clip,
// Sigmoid, Tanh, HardSigmoid, HardSwish, Elu, Selu, Softplus, Neg, Abs, Exp,
// Identity, Dropout; BatchNormalization (the channel's scale, bias, mean and
// variance entries go), Add / Sub / Mul / Div / PRelu with a per-channel or
// scalar constant (its entry goes), Pad with its own constant (only a channel
// holding that constant stays constant), MaxPool, GlobalAveragePool,
// GlobalMaxPool, AveragePool without padding counted, and a depthwise Conv
// (group = channels, one filter each: its filter goes). It ends at the next
// layer's input channels: a Conv (group 1), a Gemm or a MatMul reading it as
// its data input loses those weight slices, and a nonzero constant v is
// folded into that layer's bias as v * sum(w[:, c]) (a Gemm's C; a MatMul
// has none and takes only zeros). Folding is exact only where every output
// position sees the whole window: a Conv with padding reads zeros at the
// border where the channel holds v inside. So with two or more such
// channels one stays, the carrier (nonzero wherever another is carried),
// and the padded Conv takes the others into its weights:
// w[:, car] += v / v_car * w[:, c] (the same zeros at the border, the same
// constant inside); a single one, or no carrier, stays with a note.
// A depthwise Conv's zero filter (group = channels, one filter each) makes
// its output channel its bias, padding or not; it goes with its input
// channel (the group shrinks), so the plan starts at the layers computing
// that input (traced back as residual Adds are, and back through channel
// shuffles, each moving the channels to where they were before it), whose
// channel goes too where no layer reads it before a zero filter makes it
// constant. A layer reading a channel only through weights that are all
// zero (a Conv's input slice, rows of B) drops it, whatever it holds: so a
// feature map's channel read by several branches goes where every branch
// drops it or makes it constant. A grouped
// Conv (not depthwise) loses as many dead channels in every group (the
// fewest any group has), so that its groups keep one size; one reading them
// (the end of the walk) loses as many input channels in every group, each
// group's bias taking their constants (a nonzero one stays where it pads).
// A channel shuffle (Reshape to [N, g, C/g, H, W], Transpose [0, 2, 1, 3, 4],
// Reshape back) moves the channels (a * C/g + b to b * g + a); it stays a
// shuffle of g groups only where every group loses the channels at the same
// places b, so only those go (its C/g and C shrink), the others stay. These
// layouts are kept together: a channel one of them keeps may make others stay.
// Conditions: the layer's weight is stored in the file (an initializer, also
// one that is a graph input, or a Constant's value) and so is its bias; not
// every channel dead. A Concat along the channel axis
// passes them on at their offset among its channels (every input's channel
// count known; the Concat is not edited, its output shrinks). A residual Add
// of two activations (or a Sum) passes a channel on only where it is dead on
// every input: each other input is traced back through the ops above to the
// layers it comes from, which join the plan (a ResNet stage: the downsample
// Conv and every block's last Conv), the channels dead in all of them go
// from all of them, and the walk goes on from the Add with the sum of the
// inputs' constants; inputs of different shapes (a broadcast) stop it.
// A Flatten (axis 1) or a Reshape to [N, C * S] of a value whose channels are
// axis 1 and whose other axes (S positions per channel) have static sizes
// hands them to the Gemms / MatMuls reading the flattened value as A: a
// channel is S consecutive rows of their B (a classifier after global
// pooling: S = 1); a Reshape whose shape spells C * S out gets the smaller
// count. The walk stops, and the channels stay with a note in the explain
// log saying why, at a graph output, a Concat along another axis, any other
// Reshape, Flatten or Transpose, a residual Add after a Concat or shuffle
// moved them and any op not listed; a node the step's filter excludes stops
// it too.
// Inputs holding inf or NaN make 0 * x NaN, which the removed channel never
// shows; this pass takes the weights' zeros as zeros.
// Running it again changes nothing: no dead channel is left that can go.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/analysis/sparsity.h"
#include "core/passes/function_pass.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/layer_weight.h"
#include "core/passes/node_policy.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/residual_stream.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

constexpr const char* kId = "remove_dead_channels";

using fusion::nodeText;

std::string numberText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

using residual::channelConstant;
using residual::unaryValue;

// A channel whose value is not known yet (a layer's channel that is not
// zero, read by a depthwise Conv's zero filter): it is constant only after
// such a filter, and no layer may read it before.
constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

bool isUnknown(double v) {
  return std::isnan(v);
}

// A Conv of one filter per input channel (group = input channels = output channels).
bool isDepthwise(const ir::Node& n) {
  if (n.opType() != "Conv" || !n.domain().empty()) return false;
  const int64_t group = n.attrInt("group", 1);
  const ir::Tensor* w = n.inputs().size() > 1 ? analysis::storedWeight(n.input(1)) : nullptr;
  return group > 1 && w && w->rank() >= 3 && w->dims()[0] == group && w->dims()[1] == 1;
}

bool hasPadding(const ir::Node& conv) {
  const std::string autoPad = conv.attrString("auto_pad", "NOTSET");
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") return true;
  if (autoPad == "VALID") return false;
  for (int64_t p : conv.attrInts("pads"))
    if (p != 0) return true;
  return false;
}

double binaryValue(const std::string& op, double a, double b) {
  if (op == "Add") return a + b;
  if (op == "Sub") return a - b;
  if (op == "Mul") return a * b;
  if (op == "Div") return a / b;
  return a < 0 ? b * a : a;  // PRelu(a, slope b)
}

// How a node the walk reaches is edited once the walk succeeds.
enum class EditKind {
  kSameShape,     // unary op, pool: only the channel count of its output
  kBatchNorm,     // its four per-channel inputs lose the entries
  kChannelConst,  // a binary op's per-channel constant (input `constInput`) loses them
  kDepthwise,     // its filters and bias lose them, group shrinks
  kConvSink,      // its input channels go, constants folded into its bias
  kGemmSink,      // rows of B go, constants folded into C
  kMatMulSink,    // rows of B go
  kFlatten,       // Flatten / Reshape to [N, C * S]: its output (and a spelled-out shape) shrinks
  kShuffle,       // the first Reshape of a channel shuffle: as many channels of every group go
  kGroupedSink,   // a grouped Conv: each group's input channels go, constants folded into its bias
};

// Where the layer's channels sit in a value the walk reaches: a Concat along
// the channel axis puts them at `offset` among `channels`, a channel shuffle
// moves them (`moved[c]`: where the layer's channel c is before `offset`;
// empty: at c).
struct Frame {
  int64_t offset = 0, channels = 0;
  std::vector<int64_t> moved;

  int64_t at(int64_t c) const {
    return offset + (moved.empty() ? c : moved[static_cast<size_t>(c)]);
  }
  bool sameAs(const Frame& o) const {
    return offset == o.offset && channels == o.channels && moved == o.moved;
  }
};

struct Edit {
  ir::Node* node = nullptr;
  EditKind kind = EditKind::kSameShape;
  Frame frame;
  size_t constInput = 0;
  int64_t ownAxis = -1;           // kChannelConst: the constant's channel axis (-1: none)
  std::vector<double> value;      // the dead channels' constants entering the node
  int64_t positions = 1;          // kFlatten and the sinks behind it: rows of B per channel (S)
  int64_t carrier = -1;           // kConvSink that pads: the channel (index in the plan's dead
                                  // channels) whose weights take the others' constants,
  int64_t carrierChannel = 0;     // and that channel
  int64_t groups = 1;             // kShuffle, kGroupedSink: the groups
  ir::Node* transpose = nullptr;  // kShuffle: its Transpose
  ir::Node* merge = nullptr;      // and the Reshape back to [N, C, H, W]
};

// A channel shuffle: Reshape [N, C, H, W] -> [N, g, C/g, H, W] (`split`),
// Transpose perm [0, 2, 1, 3, 4], Reshape back to [N, C, H, W] (`merge`):
// channel a * C/g + b goes to b * g + a.
struct Shuffle {
  ir::Node *split = nullptr, *transpose = nullptr, *merge = nullptr;
  int64_t groups = 0, per = 0;  // g and C/g

  int64_t to(int64_t c) const { return (c % per) * groups + c / per; }
};

// A layer whose output channels the plan removes: its dead channels and
// each channel's constant (its bias, else 0).
struct Source {
  ir::Node* node = nullptr;
  std::vector<int64_t> dead;  // ascending
  std::vector<double> bias;   // every channel's constant if dead (kUnknown: not zero)
  int64_t channels = 0, rank = 0, axis = 1;
  size_t zeroRows = 0;  // channels whose weights are all zero
  Text trimmed;         // why some of them are not in `dead` (a grouped layer's layout)
};

// A residual Add the walk reached: the constants that came in on each input.
struct Join {
  std::vector<bool> arrived;  // per input
  std::vector<double> sum;    // the constants that came in so far, added
  Frame frame;
};

// The dead channels of one layer, with the layers whose outputs residual
// Adds add to them (all sources share their channel positions), and where
// they go.
struct Plan {
  std::vector<Source> sources;  // the first is the layer the walk started from
  std::vector<std::pair<ir::Node*, ir::Node*>> found;  // (layer, Add) met tracing an Add back
  int64_t channels = 0;                                // of the layers' output
  std::vector<int64_t> dead;                           // dead in every source, ascending
  std::vector<Text> keptWhy;  // per dead channel: why it stays ("" when it goes)
  std::vector<Text> padWhy;   // per dead channel: a Conv that pads reads it nonzero
  std::vector<Edit> edits;
  std::vector<std::pair<ir::Value*, int64_t>> region;  // values whose channel axis shrinks,
                                                       // with their channel count
  std::map<const ir::Node*, Join> joins;
  std::set<const ir::Value*> traced;  // values traced back from an Add
  int64_t rank = 0, axis = 1;
};

class Remover {
 public:
  explicit Remover(PassContext& ctx)
      : ctx_(ctx), rw_(ctx.rewriter), opset_(ctx.model().opsetVersion("").value_or(1)) {}

  Status run() {
    std::vector<ir::Node*> layers;
    for (const auto& n : ctx_.model().graph().nodes())
      if (isDefaultOp(*n, "Conv") || isDefaultOp(*n, "MatMul") || isDefaultOp(*n, "Gemm"))
        layers.push_back(n.get());
    PASSLAB_RETURN_IF_ERROR(forEachNode(ctx_, kId, kId, layers, [&](ir::Node& n) {
      Text why = removeFrom(n);
      if (!why.empty() && ctx_.explain) ctx_.explain->note(n.id(), kId, std::move(why));
      return Status::ok();
    }));
    if (ctx_.note && removed_ > 0)
      *ctx_.note =
          Text::of("%1 channels removed from %2 layers, %3 weights fewer", std::to_string(removed_),
                   std::to_string(layers_), std::to_string(weightsRemoved_));
    return Status::ok();
  }

 private:
  // Removes the dead channels of `n` that can go; "" when it has none, else
  // what was removed and what stays.
  Text removeFrom(ir::Node& n) {
    if (isDepthwise(n)) return removeThroughDepthwise(n);
    Source first;
    if (Text why = readSource(n, first); !why.empty() || first.dead.empty()) return why;
    if (static_cast<int64_t>(first.zeroRows) == first.channels) return allZero(first.channels);
    Plan p;
    p.channels = first.channels;
    p.rank = first.rank;
    p.axis = first.axis;
    const size_t deadHere = first.zeroRows;
    Text narrowed = first.trimmed;
    p.sources.push_back(std::move(first));
    return removePlan(p, deadHere, narrowed, 0);
  }

  // A depthwise Conv's zero filters: output channel c holds its bias, and
  // goes only with input channel c (the group shrinks), so the plan starts
  // at the layers computing that input (traced back through the ops the walk
  // follows): their channels c go too where nothing else reads them before
  // a zero filter makes them constant.
  Text removeThroughDepthwise(ir::Node& d) {
    const ir::Tensor& w = *analysis::storedWeight(d.input(1));
    const int64_t channels = w.dims()[0];
    std::vector<int64_t> dead = zeroChannels(d);
    if (dead.empty()) return "";
    if (static_cast<int64_t>(dead.size()) == channels) return allZero(channels);
    auto rank = rankOf(d.input(0));
    if (!rank) return "the rank of the layer's output is not known";
    const ir::Value* in = beforeShuffles(d.input(0), *rank, channels, dead);
    std::vector<ir::Node*> layers;
    std::set<const ir::Value*> traced;
    Text why = residual::traceBack(
        d, in, residual::ChannelAxis{*rank, 1, channels}, opset_, traced,
        [&](ir::Node& l) {
          if (std::find(layers.begin(), layers.end(), &l) == layers.end()) layers.push_back(&l);
        },
        true);
    if (!why.empty() || layers.empty())
      return Text::of(
          "%1 dead channels stay: a depthwise Conv loses an output channel only with its input "
          "channel, and its input '%2' does not trace back to layers whose channels could go",
          std::to_string(dead.size()), in->name());
    Plan p;
    p.channels = channels;
    p.rank = *rank;
    p.axis = 1;
    for (ir::Node* l : layers) {
      if (!mayChange(ctx_, *l))
        return Text::of("%1 dead channels stay: %2 is excluded from this pass",
                        std::to_string(dead.size()), nodeText(*l));
      Source s;
      if (Text why = readSource(*l, s, dead); !why.empty())
        return Text::of("%1 dead channels stay: %2", std::to_string(dead.size()), why);
      if (s.channels != channels || s.rank != p.rank || s.axis != p.axis)
        return Text::of(
            "%1 dead channels stay: %2 computes its input with channels laid out otherwise",
            std::to_string(dead.size()), nodeText(*l));
      p.sources.push_back(std::move(s));
    }
    return removePlan(p, dead.size(), Text(), 1);
  }

  // The value whose channels reach `v` through the channel shuffles that
  // compute it (each shuffle's last Reshape the producer), with `dead`, the
  // channels of `v`, moved to where they are there (b * g + a back to
  // a * C/g + b), ascending; `v` itself when no shuffle computes it.
  const ir::Value* beforeShuffles(ir::Value* v, int64_t rank, int64_t channels,
                                  std::vector<int64_t>& dead) const {
    Plan shape;
    shape.rank = rank;
    shape.axis = 1;
    for (;;) {
      ir::Node* merge = v->producer();
      ir::Node* t = merge && isDefaultOp(*merge, "Reshape") ? merge->input(0)->producer() : nullptr;
      ir::Node* split = t && isDefaultOp(*t, "Transpose") ? t->input(0)->producer() : nullptr;
      if (!split || !isDefaultOp(*split, "Reshape")) return v;
      auto s = shuffleAt(shape, *split, Frame{0, channels, {}});
      if (!s || s->merge != merge) return v;
      for (int64_t& c : dead) c = (c % s->groups) * s->per + c / s->groups;
      std::sort(dead.begin(), dead.end());
      v = split->input(0);
    }
  }

  // The channels that would go but for a Conv that pads reading them
  // nonzero (the border reads zeros there, the inside their constant): one of
  // them stays, a carrier, and each such Conv takes the others' constants
  // into the carrier's weights (w[:, car] += v / v_car * w[:, c]: the same
  // zeros at the border, the same constant inside, so exact up to rounding).
  // The carrier must be nonzero wherever another is carried; with one such
  // channel, or no carrier, they stay with the Conv's reason.
  static void chooseCarrier(Plan& p) {
    std::vector<size_t> padded;
    for (size_t j = 0; j < p.dead.size(); ++j)
      if (p.keptWhy[j].empty() && !p.padWhy[j].empty()) padded.push_back(j);
    if (padded.empty()) return;
    auto carries = [&](size_t car) {
      for (const Edit& e : p.edits) {
        if (e.kind != EditKind::kConvSink || !hasPadding(*e.node)) continue;
        bool needed = false;
        for (size_t j : padded) needed = needed || (j != car && e.value[j] != 0);
        const double v = e.value[car];
        if (needed && (v == 0 || !std::isfinite(v))) return false;
      }
      return true;
    };
    size_t car = padded.size() > 1 ? padded.front() : p.dead.size();
    while (car < p.dead.size() && !carries(car)) {
      auto next = std::upper_bound(padded.begin(), padded.end(), car);
      car = next == padded.end() ? p.dead.size() : *next;
    }
    if (car == p.dead.size()) {
      for (size_t j : padded) p.keptWhy[j] = p.padWhy[j];
      return;
    }
    p.keptWhy[car] = Text::of(
        "channel %1 stays: it carries the constants of %2 other dead channels into the Convs "
        "that pad them",
        std::to_string(p.dead[car]), std::to_string(padded.size() - 1));
    for (Edit& e : p.edits)
      if (e.kind == EditKind::kConvSink && hasPadding(*e.node)) {
        e.carrier = static_cast<int64_t>(car);
        e.carrierChannel = p.dead[car];
      }
  }

  // A grouped source keeps its groups of one size: where the channels that
  // would go (after other sources and the walk kept some) are not as many in
  // every group, only as many as the group with the fewest has go.
  static void keepGroupsEven(Plan& p) {
    for (const Source& s : p.sources) {
      const int64_t groups = s.node->opType() == "Conv" ? s.node->attrInt("group", 1) : 1;
      if (groups <= 1 || s.channels % groups != 0) continue;
      const int64_t per = s.channels / groups;
      std::vector<std::vector<size_t>> inGroup(static_cast<size_t>(groups));
      for (size_t j = 0; j < p.dead.size(); ++j)
        if (p.keptWhy[j].empty()) inGroup[static_cast<size_t>(p.dead[j] / per)].push_back(j);
      size_t fewest = p.dead.size();
      for (const auto& g : inGroup) fewest = std::min(fewest, g.size());
      for (const auto& g : inGroup)
        for (size_t i = fewest; i < g.size(); ++i)
          p.keptWhy[g[i]] = Text::of(
              "grouped Conv (group %1) keeps its groups of one size: %2 dead channels of each go",
              std::to_string(groups), std::to_string(fewest));
    }
  }

  // The layouts the removal must keep: a grouped source's groups of one size,
  // a channel shuffle's groups (keepShuffleColumns), a grouped Conv's input
  // groups (keepInputGroupsEven). Keeping a channel for one may undo
  // another, so until none keeps more.
  static void keepLayoutsValid(Plan& p) {
    auto keptCount = [&] {
      return std::count_if(p.keptWhy.begin(), p.keptWhy.end(),
                           [](const Text& t) { return !t.empty(); });
    };
    for (auto before = keptCount() - 1, kept = before + 1; kept != before; kept = keptCount()) {
      before = kept;
      keepGroupsEven(p);
      for (const Edit& e : p.edits) {
        if (e.kind == EditKind::kShuffle) keepShuffleColumns(p, e);
        if (e.kind == EditKind::kGroupedSink) keepInputGroupsEven(p, e);
      }
    }
  }

  // The channels going at the node of edit `e`: position there -> index in p.dead.
  static std::map<int64_t, size_t> goingAt(const Plan& p, const Edit& e) {
    std::map<int64_t, size_t> going;
    for (size_t j = 0; j < p.dead.size(); ++j)
      if (p.keptWhy[j].empty()) going.emplace(e.frame.at(p.dead[j]), j);
    return going;
  }

  // A channel shuffle stays one only where every group loses the channels
  // at the same places b (channel a * C/g + b for every a): then the
  // shuffle of the channels left is the shuffle with C/g smaller, and its
  // output keeps their order. The others stay.
  static void keepShuffleColumns(Plan& p, const Edit& e) {
    const int64_t per = e.frame.channels / e.groups;
    const std::map<int64_t, size_t> going = goingAt(p, e);
    for (const auto& [at, j] : going) {
      bool column = true;
      for (int64_t a = 0; a < e.groups && column; ++a) column = going.count(a * per + at % per) > 0;
      if (!column)
        p.keptWhy[j] = Text::of(
            "channel shuffle %1 (%2 groups): channel %3 goes only with the channels at its "
            "place in every group, so that the shuffle stays one",
            nodeText(*e.node), std::to_string(e.groups), std::to_string(p.dead[j]));
    }
  }

  // A grouped Conv reading the channels keeps its input groups of one size:
  // as many go from every group as the group with the fewest has; the
  // others stay (zero or constant channels it still reads).
  static void keepInputGroupsEven(Plan& p, const Edit& e) {
    const int64_t per = e.frame.channels / e.groups;
    std::vector<std::vector<size_t>> inGroup(static_cast<size_t>(e.groups));
    for (const auto& [at, j] : goingAt(p, e)) inGroup[static_cast<size_t>(at / per)].push_back(j);
    size_t fewest = p.dead.size();
    for (const auto& g : inGroup) fewest = std::min(fewest, g.size());
    for (const auto& g : inGroup)
      for (size_t i = fewest; i < g.size(); ++i)
        p.keptWhy[g[i]] = Text::of(
            "grouped %1 (group %2) reads them: every input group loses as many channels, %3 "
            "each",
            nodeText(*e.node), std::to_string(e.groups), std::to_string(fewest));
  }

  static Text allZero(int64_t channels) {
    return Text::of("all %1 output channels are zero: the layer is a constant, not pruned here",
                    std::to_string(channels));
  }

  // Walks plan `p` (its sources read) and removes the channels that can go;
  // `deadHere` counts the dead channels of the node the note is for,
  // `narrowed` says why some are not in the plan, `walked` counts the layers
  // besides the sources that lose them (a depthwise Conv).
  Text removePlan(Plan& p, size_t deadHere, Text narrowed, size_t walked) {
    for (;;) {
      if (Text why = planWalk(p); !why.empty())
        return Text::of("%1 dead channels stay: %2", std::to_string(deadHere), why);
      if (p.found.empty()) break;
      if (Text why = addFound(p, narrowed); !why.empty())
        return Text::of("%1 dead channels stay: %2", std::to_string(deadHere), why);
    }
    chooseCarrier(p);
    keepLayoutsValid(p);
    std::vector<int64_t> go;
    Text firstKept = p.dead.size() < deadHere ? narrowed : Text();
    for (size_t j = 0; j < p.dead.size(); ++j) {
      if (p.keptWhy[j].empty())
        go.push_back(p.dead[j]);
      else if (firstKept.empty())
        firstKept = p.keptWhy[j];
    }
    if (go.empty())
      return Text::of("%1 dead channels stay: %2", std::to_string(deadHere), firstKept);
    apply(p, go);
    layers_ += p.sources.size() + walked;
    removed_ += static_cast<int64_t>(go.size() * (p.sources.size() + walked));
    if (go.size() < deadHere)
      return Text::of("%1 of %2 dead channels removed; the others stay: %3",
                      std::to_string(go.size()), std::to_string(deadHere), firstKept);
    return "";
  }

  // One walk from every source over the channels dead in all of them;
  // residual Adds whose other input comes from a layer not yet among the
  // sources leave it in p.found.
  Text planWalk(Plan& p) {
    p.dead = p.sources[0].dead;
    for (size_t i = 1; i < p.sources.size(); ++i) {
      std::vector<int64_t> both;
      std::set_intersection(p.dead.begin(), p.dead.end(), p.sources[i].dead.begin(),
                            p.sources[i].dead.end(), std::back_inserter(both));
      p.dead = std::move(both);
    }
    p.keptWhy.assign(p.dead.size(), Text());
    p.padWhy.assign(p.dead.size(), Text());
    p.edits.clear();
    p.region.clear();
    p.joins.clear();
    p.traced.clear();
    p.found.clear();
    if (p.dead.empty()) return "";
    for (const Source& s : p.sources) {
      std::vector<double> value;
      for (int64_t c : p.dead) value.push_back(s.bias[static_cast<size_t>(c)]);
      if (Text why = walk(p, s.node->output(0), value, Frame{0, p.channels}); !why.empty())
        return why;
    }
    if (!p.found.empty()) return "";
    for (const auto& [add, join] : p.joins)
      if (std::find(join.arrived.begin(), join.arrived.end(), false) != join.arrived.end())
        return Text::of("%1 reads them on one input only", nodeText(*add));
    return "";
  }

  // The layers met tracing residual Adds back join the sources; "" when they
  // can (their output like the first layer's), and `narrowed` says why a
  // channel dead in the first layer is not dead in one of them.
  Text addFound(Plan& p, Text& narrowed) {
    for (const auto& [layer, add] : p.found) {
      if (!mayChange(ctx_, *layer))
        return Text::of("%1 is excluded from this pass", nodeText(*layer));
      Source s;
      if (Text why = readSource(*layer, s); !why.empty()) return why;
      if (s.dead.empty()) {
        if (narrowed.empty() && !p.dead.empty())
          narrowed = Text::of("channel %1 is not zero in %2, which the other input of %3 adds",
                              std::to_string(p.dead[0]), nodeText(*layer), nodeText(*add));
        p.sources.push_back(std::move(s));
        continue;
      }
      if (s.channels != p.channels || s.rank != p.rank || s.axis != p.axis)
        return Text::of("%1 adds them to the output of %2, whose channels are laid out otherwise",
                        nodeText(*add), nodeText(*layer));
      for (int64_t c : p.dead)
        if (!std::binary_search(s.dead.begin(), s.dead.end(), c) && narrowed.empty())
          narrowed = Text::of("channel %1 is not zero in %2, which the other input of %3 adds",
                              std::to_string(c), nodeText(*layer), nodeText(*add));
      p.sources.push_back(std::move(s));
    }
    return "";
  }

  // The output channels of `n` whose weights are all zero; none when `n`
  // has no stored weight.
  static std::vector<int64_t> zeroChannels(const ir::Node& n) {
    std::vector<int64_t> zero;
    const ir::Tensor* w = analysis::storedWeight(n.input(1));
    if (!w) return zero;
    auto layout = analysis::weightLayout(n, *w);
    auto values = fusion::floatValues(*w);
    if (!layout || !values || layout->reduce == 0) return zero;
    for (int64_t c = 0; c < layout->channels; ++c) {
      bool isZero = true;
      for (int64_t r = 0; r < layout->reduce && isZero; ++r)
        isZero =
            (*values)[static_cast<size_t>(c * layout->channelStride + r * layout->reduceStride)] ==
            0;
      if (isZero) zero.push_back(c);
    }
    return zero;
  }

  // The channels of `n` whose weights are all zero, with every channel's
  // constant; "" with none dead when `n` has no stored weight. With `fed`
  // (a depthwise Conv's zero filters, ascending), those channels instead,
  // their value unknown where the layer's weights are not zero.
  Text readSource(ir::Node& n, Source& s, const std::vector<int64_t>& fed = {}) {
    s.node = &n;
    const ir::Tensor* w = analysis::storedWeight(n.input(1));
    auto layout = w ? analysis::weightLayout(n, *w) : std::nullopt;
    if (!layout) return "";
    s.channels = layout->channels;
    const std::vector<int64_t> zero = zeroChannels(n);
    s.zeroRows = zero.size();
    s.dead = fed.empty() ? zero : fed;
    if (s.dead.empty()) return "";
    if (s.dead.back() >= s.channels)
      return Text::of("%1 has %2 output channels, fewer than the depthwise Conv it feeds",
                      nodeText(n), std::to_string(s.channels));
    if (n.opType() == "Conv" && n.attrInt("group", 1) != 1)
      if (Text why = evenPerGroup(n, s); !why.empty()) return why;
    auto rank = rankOf(n.output(0));
    if (!rank) return "the rank of the layer's output is not known";
    s.rank = *rank;
    s.axis = n.opType() == "Conv" ? 1 : s.rank - 1;
    if (s.axis < 0) return "the layer's output has rank 0";
    s.bias.assign(static_cast<size_t>(s.channels), 0.0);
    if (n.inputs().size() > 2 && n.input(2)) {
      const double scale = n.opType() == "Gemm" ? n.attrFloat("beta", 1.0f) : 1.0;
      auto c = channelConstant(n.input(2), n.opType() == "Gemm" ? 2 : 1,
                               n.opType() == "Gemm" ? 1 : 0, s.channels);
      if (!c) return "the bias is not a stored constant with one value per channel";
      for (size_t i = 0; i < s.bias.size(); ++i) s.bias[i] = scale * c->values[i];
    }
    for (int64_t c : s.dead)
      if (!std::binary_search(zero.begin(), zero.end(), c))
        s.bias[static_cast<size_t>(c)] = kUnknown;
    return "";
  }

  // A grouped Conv (not depthwise) keeps its layout only when every group
  // loses as many output channels: as many dead channels of each group go as
  // the group with the fewest has (the first ones); "" when some go.
  static Text evenPerGroup(const ir::Node& n, Source& s) {
    const int64_t groups = n.attrInt("group", 1);
    if (groups <= 0 || s.channels % groups != 0)
      return Text::of("grouped Conv (group %1): its output channels do not split into its groups",
                      std::to_string(groups));
    const int64_t per = s.channels / groups;
    std::vector<std::vector<int64_t>> inGroup(static_cast<size_t>(groups));
    for (int64_t c : s.dead) inGroup[static_cast<size_t>(c / per)].push_back(c);
    size_t fewest = s.dead.size();
    for (const auto& g : inGroup) fewest = std::min(fewest, g.size());
    if (fewest == 0)
      return Text::of(
          "grouped Conv (group %1): %2 dead channels, but a group has none; only as many in "
          "every group can go, so that the groups keep one size",
          std::to_string(groups), std::to_string(s.dead.size()));
    std::vector<int64_t> even;
    for (const auto& g : inGroup) even.insert(even.end(), g.begin(), g.begin() + fewest);
    std::sort(even.begin(), even.end());
    if (even.size() < s.dead.size())
      s.trimmed = Text::of(
          "grouped Conv (group %1) keeps its groups of one size: %2 dead channels of each go",
          std::to_string(groups), std::to_string(fewest));
    s.dead = std::move(even);
    return "";
  }

  // Follows the dead channels from `v` (their constants `value`) to the
  // layers that read them; "" when every path ends at one.
  Text walk(Plan& p, ir::Value* v, const std::vector<double>& value, const Frame& f) {
    if (v->isGraphOutput()) return Text::of("they reach the graph output '%1'", v->name());
    p.region.emplace_back(v, f.channels);
    for (const ir::Use& u : v->uses()) {
      ir::Node& n = *u.node;
      if (!mayChange(ctx_, n)) return Text::of("%1 is excluded from this pass", nodeText(n));
      Text why = follow(p, n, static_cast<size_t>(u.inputIndex), value, f);
      if (!why.empty()) return why;
    }
    return "";
  }

  Text follow(Plan& p, ir::Node& n, size_t input, const std::vector<double>& value,
              const Frame& f) {
    const std::string& op = n.opType();
    if (!n.domain().empty())
      return Text::of("%1 reads them, an op this pass does not follow", nodeText(n));
    if (op == "Concat") return followConcat(p, n, input, value, f);
    if (op == "Reshape" && input == 0)
      if (auto shuffle = shuffleAt(p, n, f)) return followShuffle(p, *shuffle, value, f);
    if ((op == "Reshape" || op == "Flatten") && input == 0) return followFlatten(p, n, value, f);
    if (op == "Conv" && input == 0) return followConv(p, n, value, f);
    if ((op == "Gemm" || op == "MatMul") && input == 0) return sinkMatrix(p, n, value, f);
    if (input == 0 && n.inputs().size() >= 1) {
      if (op == "Dropout" || op == "MaxPool" || op == "BatchNormalization")
        if (Text why = fusion::whyExtraOutputsUsed(n); !why.empty()) return why;
      if (op == "BatchNormalization") return followBatchNorm(p, n, value, f);
      if (op == "Pad") return followPad(p, n, value, f);
      if (op == "MaxPool" || op == "GlobalAveragePool" || op == "GlobalMaxPool" ||
          (op == "AveragePool" && (!hasPadding(n) || n.attrInt("count_include_pad", 0) == 0))) {
        if (p.axis != 1)
          return Text::of("%1 pools a value whose channels are not axis 1", nodeText(n));
        return through(p, n, EditKind::kSameShape, value, f);
      }
      std::vector<double> out;
      for (double x : value) {
        auto y = unaryValue(n, isUnknown(x) ? 0.0 : x, opset_);
        if (!y) break;
        out.push_back(isUnknown(x) ? kUnknown : *y);
      }
      if (out.size() == value.size() && (op != "Dropout" || n.inputs().size() < 3 || !n.input(2)))
        return through(p, n, EditKind::kSameShape, out, f);
    }
    if (isJoin(p, n, f)) return followJoin(p, n, input, value, f);
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || (op == "PRelu" && input == 0))
      return followBinary(p, n, input, value, f);
    return Text::of("%1 reads them, an op this pass does not follow", nodeText(n));
  }

  Text through(Plan& p, ir::Node& n, EditKind kind, std::vector<double> value, const Frame& f,
               size_t constInput = 0, int64_t ownAxis = -1) {
    for (size_t j = 0; j < value.size(); ++j)
      if (std::isinf(value[j]) && p.keptWhy[j].empty())
        p.keptWhy[j] = Text::of("channel %1 is %2 after %3", std::to_string(p.dead[j]),
                                numberText(value[j]), nodeText(n));
    p.edits.push_back(Edit{&n, kind, f, constInput, ownAxis, value});
    return walk(p, n.output(0), value, f);
  }

  // A Concat along the channel axis: the channels go on at their offset
  // among the Concat's (every input's channel count known); along another
  // axis, or reading them twice, it stops.
  Text followConcat(Plan& p, ir::Node& n, size_t input, const std::vector<double>& value,
                    const Frame& f) {
    int64_t axis = n.attrInt("axis", 0);
    if (axis < 0) axis += p.rank;
    if (axis != p.axis) return Text::of("%1 joins them along another axis", nodeText(n));
    for (const Edit& e : p.edits)
      if (e.node == &n) return Text::of("%1 reads them twice", nodeText(n));
    int64_t offset = 0, total = 0;
    for (size_t i = 0; i < n.inputs().size(); ++i) {
      const ir::Value* in = n.input(i);
      if (in == n.input(input) && i != input) return Text::of("%1 reads them twice", nodeText(n));
      const auto& t = in ? in->type() : ir::Type();
      if (!in || !t.isTensor() || !t.shape() || static_cast<int64_t>(t.shape()->rank()) != p.rank ||
          !(*t.shape())[static_cast<size_t>(axis)].isStatic())
        return Text::of("the channel counts of the inputs of %1 are not known", nodeText(n));
      const int64_t c = (*t.shape())[static_cast<size_t>(axis)].value();
      if (i < input) offset += c;
      total += c;
    }
    p.edits.push_back(Edit{&n, EditKind::kSameShape, f, 0, -1, value});
    return walk(p, n.output(0), value, Frame{f.offset + offset, total, f.moved});
  }

  static residual::ChannelAxis axisOf(const Plan& p, const Frame& f) {
    return residual::ChannelAxis{p.rank, p.axis, f.channels};
  }

  bool isChannelConstant(const Plan& p, const ir::Value* v, const Frame& f) const {
    return residual::isChannelConstant(v, axisOf(p, f));
  }

  bool isJoin(const Plan& p, const ir::Node& n, const Frame& f) const {
    return residual::isJoin(n, axisOf(p, f));
  }

  // A residual Add (or Sum): channel c of its output is constant only when
  // it is on every input, so the walk goes on once every input brought the
  // channels (the sum of their constants). The first arrival traces the
  // other inputs back to the layers they come from (p.found). The inputs
  // must all have the same shape: a broadcast stops the walk.
  Text followJoin(Plan& p, ir::Node& n, size_t input, const std::vector<double>& value,
                  const Frame& f) {
    const size_t count = n.inputs().size();
    const bool same = residual::sameShapeInputs(n, p.rank);
    if (!same)
      return Text::of("%1 adds them to a value of another or unknown shape (a broadcast)",
                      nodeText(n));
    Join& j = p.joins[&n];
    if (j.arrived.empty()) {
      j.arrived.assign(count, false);
      j.sum.assign(value.size(), 0.0);
      j.frame = f;
      for (size_t i = 0; i < count; ++i) {
        if (n.input(i) == n.input(input)) continue;  // arrives through the same value's uses
        if (!f.sameAs(Frame{0, p.channels, {}}))
          return Text::of("%1 adds them after a Concat or shuffle moved them: not followed",
                          nodeText(n));
        if (Text why = traceBack(p, n, n.input(i)); !why.empty()) return why;
      }
    }
    if (j.arrived[input]) return Text::of("%1 reads them twice", nodeText(n));
    if (!j.frame.sameAs(f))
      return Text::of("%1 adds them at different channel positions", nodeText(n));
    j.arrived[input] = true;
    for (size_t k = 0; k < value.size(); ++k) j.sum[k] += value[k];
    if (std::find(j.arrived.begin(), j.arrived.end(), false) != j.arrived.end()) return "";
    return through(p, n, EditKind::kSameShape, j.sum, f);
  }

  // The layers whose channels reach `v`, the other input of the residual
  // Add `add`, through the ops the walk follows: each not yet a source goes
  // to p.found (the walk from it checks the path). "" when every path
  // back ends at such a layer.
  Text traceBack(Plan& p, ir::Node& add, const ir::Value* v) {
    return residual::traceBack(add, v, axisOf(p, Frame{0, p.channels}), opset_, p.traced,
                               [&](ir::Node& n) {
                                 for (const Source& s : p.sources)
                                   if (s.node == &n) return;
                                 for (const auto& [known, unused] : p.found)
                                   if (known == &n) return;
                                 p.found.emplace_back(&n, &add);
                               });
  }

  Text followBinary(Plan& p, ir::Node& n, size_t input, const std::vector<double>& value,
                    const Frame& f) {
    const size_t other = 1 - input;
    if (n.inputs().size() != 2) return Text::of("%1 has extra inputs", nodeText(n));
    auto c = channelConstant(n.input(other), p.rank, p.axis, f.channels);
    if (!c)
      return Text::of("%1 reads them with an operand that is not a per-channel constant",
                      nodeText(n));
    std::vector<double> out;
    for (size_t j = 0; j < value.size(); ++j) {
      const double k = c->values[static_cast<size_t>(f.at(p.dead[j]))];
      out.push_back(input == 0 ? binaryValue(n.opType(), value[j], k)
                               : binaryValue(n.opType(), k, value[j]));
    }
    return through(p, n, EditKind::kChannelConst, out, f, other, c->ownAxis);
  }

  Text followBatchNorm(Plan& p, ir::Node& n, const std::vector<double>& value, const Frame& f) {
    if (Text why = fusion::whyNotInferenceBatchNorm(n, ctx_.matchContext()); !why.empty())
      return why;
    if (p.axis != 1)
      return Text::of("%1 normalizes a value whose channels are not axis 1", nodeText(n));
    std::vector<std::vector<double>> params;
    for (size_t i = 1; i < 5; ++i) {
      auto c = n.inputs().size() > i ? channelConstant(n.input(i), 1, 0, f.channels) : std::nullopt;
      if (!c || c->ownAxis != 0)
        return Text::of("the statistics of %1 are not constant", nodeText(n));
      params.push_back(c->values);
    }
    const double eps = n.attrFloat("epsilon", 1e-5f);
    std::vector<double> out;
    for (size_t j = 0; j < value.size(); ++j) {
      const auto c = static_cast<size_t>(f.at(p.dead[j]));
      out.push_back((value[j] - params[2][c]) / std::sqrt(params[3][c] + eps) * params[0][c] +
                    params[1][c]);
    }
    return through(p, n, EditKind::kBatchNorm, out, f);
  }

  // A Pad of zeros keeps a channel of zeros; any other constant it pads
  // with zeros, so that channel stays.
  Text followPad(Plan& p, ir::Node& n, const std::vector<double>& value, const Frame& f) {
    if (n.attrString("mode", "constant") != "constant")
      return Text::of("%1 pads them in mode %2", nodeText(n), n.attrString("mode", "constant"));
    std::optional<std::vector<int64_t>> pads = n.attrInts("pads");
    double fill = n.attrFloat("value", 0.0f);
    if (opset_ >= 11) {
      pads = n.inputs().size() > 1 ? constantInts(n.input(1)) : std::nullopt;
      const bool hasFill = n.inputs().size() > 2 && n.input(2);
      auto s = hasFill ? fusion::scalarValue(n.input(2)) : std::optional<double>(0.0);
      if (!s || (n.inputs().size() > 3 && n.input(3)))
        return Text::of("the parameters of %1 are not constant", nodeText(n));
      fill = *s;
    }
    const auto r = static_cast<size_t>(p.rank);
    if (!pads || pads->size() != 2 * r || (*pads)[static_cast<size_t>(p.axis)] != 0 ||
        (*pads)[r + static_cast<size_t>(p.axis)] != 0)
      return Text::of("%1 pads the channel axis, or its pads are not constant", nodeText(n));
    for (size_t j = 0; j < value.size(); ++j)
      if (!isUnknown(value[j]) && value[j] != fill && p.keptWhy[j].empty())
        p.keptWhy[j] =
            Text::of("%1 pads channel %2 (constant %3) with %4: no longer constant", nodeText(n),
                     std::to_string(p.dead[j]), numberText(value[j]), numberText(fill));
    return through(p, n, EditKind::kSameShape, value, f);
  }

  // A Conv reading the channels: a depthwise one carries them on, one of
  // group 1 takes them (the end of the walk).
  Text followConv(Plan& p, ir::Node& n, const std::vector<double>& value, const Frame& f) {
    const ir::Tensor* w = analysis::storedWeight(n.input(1));
    if (!w || w->rank() < 3)
      return Text::of("the weight of %1 is not a stored constant", nodeText(n));
    if (n.inputs().size() > 2 && n.input(2) && !analysis::storedWeight(n.input(2)))
      return Text::of("the bias of %1 is not a stored constant", nodeText(n));
    const int64_t group = n.attrInt("group", 1);
    const bool pads = hasPadding(n);
    if (group == f.channels && w->dims()[0] == f.channels && w->dims()[1] == 1 && group > 1) {
      // Depthwise: output channel c = sum(w[c] * window of input c) + b[c];
      // a zero filter makes it b[c] whatever it reads, padding too.
      auto wv = fusion::floatValues(*w);
      const int64_t per = w->numel() / f.channels;
      std::vector<double> bias(static_cast<size_t>(f.channels), 0.0);
      if (n.inputs().size() > 2 && n.input(2))
        bias = *fusion::floatValues(*analysis::storedWeight(n.input(2)));
      std::vector<double> out;
      for (size_t j = 0; j < value.size(); ++j) {
        const auto c = f.at(p.dead[j]);
        bool zeroFilter = true;
        double sum = 0;
        for (int64_t k = 0; k < per; ++k) {
          const double x = (*wv)[static_cast<size_t>(c * per + k)];
          zeroFilter = zeroFilter && x == 0;
          sum += x;
        }
        if (zeroFilter) {
          out.push_back(bias[static_cast<size_t>(c)]);
          continue;
        }
        if (!isUnknown(value[j]) && value[j] != 0 && pads && p.keptWhy[j].empty())
          p.keptWhy[j] = Text::of(
              "depthwise %1 pads its input, so channel %2 (constant %3) is not constant after it",
              nodeText(n), std::to_string(c), numberText(value[j]));
        out.push_back(value[j] * sum + bias[static_cast<size_t>(c)]);
      }
      return through(p, n, EditKind::kDepthwise, out, f);
    }
    if (group != 1) return sinkGroupedConv(p, n, *w, group, value, f);
    if (w->dims()[1] != f.channels)
      return Text::of("%1 has %2 input channels, not %3", nodeText(n), std::to_string(w->dims()[1]),
                      std::to_string(f.channels));
    const int64_t taps = w->numel() / (w->dims()[0] * f.channels);
    const std::vector<double> in = taken(
        p, value, f,
        [&](const std::vector<double>& wv, int64_t q) {
          for (int64_t o = 0; o < w->dims()[0]; ++o)
            for (int64_t r = 0; r < taps; ++r)
              if (wv[static_cast<size_t>((o * f.channels + q) * taps + r)] != 0) return true;
          return false;
        },
        *w);
    keepUnknown(p, n, in);
    for (size_t j = 0; j < in.size(); ++j)
      if (in[j] != 0 && pads && p.padWhy[j].empty())
        p.padWhy[j] = Text::of(
            "%1 pads its input: channel %2 holds %3, and folding %3 * sum(w) into the bias would "
            "be wrong where the window reads padding",
            nodeText(n), std::to_string(p.dead[j]), numberText(in[j]));
    p.edits.push_back(Edit{&n, EditKind::kConvSink, f, 0, -1, in});
    return "";
  }

  // The channels' values as the layer with weight `w` takes them in: a
  // channel it reads only through weights that are all zero
  // (`reads(values of w, its position there)` false) takes no part in its
  // output whatever it holds, known or not, so it counts as 0 there. So a
  // channel read by several layers goes where each of them drops it.
  template <typename Reads>
  static std::vector<double> taken(const Plan& p, std::vector<double> value, const Frame& f,
                                   Reads reads, const ir::Tensor& w) {
    const auto wv = fusion::floatValues(w);
    if (!wv) return value;
    for (size_t j = 0; j < value.size(); ++j)
      if (value[j] != 0 && !reads(*wv, f.at(p.dead[j]))) value[j] = 0;
    return value;
  }

  // A grouped Conv (not depthwise) reading the channels: the end of the
  // walk; group g reads input channels [g * C/G, (g + 1) * C/G). The channels
  // that go leave each group's filters, their constants folded into the
  // group's bias (where it pads, a nonzero one stays: no carrier here);
  // keepInputGroupsEven keeps the groups of one size.
  Text sinkGroupedConv(Plan& p, ir::Node& n, const ir::Tensor& w, int64_t group,
                       const std::vector<double>& value, const Frame& f) {
    if (f.channels % group != 0 || w.dims()[1] * group != f.channels || w.dims()[0] % group != 0)
      return Text::of("grouped %1 (group %2) does not split %3 input channels into its groups",
                      nodeText(n), std::to_string(group), std::to_string(f.channels));
    const int64_t per = w.dims()[1], outs = w.dims()[0] / group;
    const int64_t taps = w.numel() / (w.dims()[0] * per);
    const std::vector<double> in = taken(
        p, value, f,
        [&](const std::vector<double>& wv, int64_t q) {
          for (int64_t o = q / per * outs; o < (q / per + 1) * outs; ++o)
            for (int64_t r = 0; r < taps; ++r)
              if (wv[static_cast<size_t>((o * per + q % per) * taps + r)] != 0) return true;
          return false;
        },
        w);
    keepUnknown(p, n, in);
    if (hasPadding(n))
      for (size_t j = 0; j < in.size(); ++j)
        if (in[j] != 0 && p.keptWhy[j].empty())
          p.keptWhy[j] =
              Text::of("grouped %1 pads its input: channel %2 holds %3, which its bias cannot take",
                       nodeText(n), std::to_string(p.dead[j]), numberText(in[j]));
    Edit e{&n, EditKind::kGroupedSink, f, 0, -1, in};
    e.groups = group;
    p.edits.push_back(std::move(e));
    return "";
  }

  // A layer `n` reads the channels: those whose value is not known (not
  // zero in the layer computing them, no zero depthwise filter on the way)
  // stay, unless `n` drops them (taken: its weights for them are zero).
  static void keepUnknown(Plan& p, const ir::Node& n, const std::vector<double>& value) {
    for (size_t j = 0; j < value.size(); ++j)
      if (isUnknown(value[j]) && p.keptWhy[j].empty())
        p.keptWhy[j] = Text::of(
            "channel %1 is not zero where %2 reads it: only a depthwise Conv's zero filter on "
            "the way would make it constant",
            std::to_string(p.dead[j]), nodeText(n));
  }

  // A Gemm or MatMul reading the channels as its K: the end of the walk.
  Text sinkMatrix(Plan& p, ir::Node& n, const std::vector<double>& value, const Frame& f) {
    if (p.axis != p.rank - 1 || (n.opType() == "Gemm" && p.rank != 2))
      return Text::of("%1 reads them on an axis other than its K", nodeText(n));
    return sinkRows(p, n, value, f, 1);
  }

  // A Gemm or MatMul whose B has `positions` rows per channel of the frame
  // (K = channels * positions) takes the channels: their rows go, their
  // constants move into C.
  Text sinkRows(Plan& p, ir::Node& n, const std::vector<double>& value, const Frame& f,
                int64_t positions) {
    const bool gemm = n.opType() == "Gemm";
    const ir::Tensor* w = analysis::storedWeight(n.input(1));
    if (!w || w->rank() != 2)
      return Text::of("the weight of %1 is not a stored matrix", nodeText(n));
    if (gemm && n.attrInt("transA", 0) != 0) return Text::of("%1 transposes A", nodeText(n));
    const bool transB = gemm && n.attrInt("transB", 0) != 0;
    if (w->dims()[transB ? 1 : 0] != f.channels * positions)
      return Text::of("%1 has K = %2, not %3", nodeText(n),
                      std::to_string(w->dims()[transB ? 1 : 0]),
                      std::to_string(f.channels * positions));
    const int64_t cols = w->dims()[transB ? 0 : 1];
    const bool cPerColumn = !gemm || n.inputs().size() < 3 || !n.input(2) ||
                            channelConstant(n.input(2), 2, 1, cols).has_value();
    const int64_t rowStride = transB ? 1 : cols, colStride = transB ? w->dims()[1] : 1;
    const std::vector<double> in = taken(
        p, value, f,
        [&](const std::vector<double>& wv, int64_t q) {
          for (int64_t r = q * positions; r < (q + 1) * positions; ++r)
            for (int64_t o = 0; o < cols; ++o)
              if (wv[static_cast<size_t>(r * rowStride + o * colStride)] != 0) return true;
          return false;
        },
        *w);
    keepUnknown(p, n, in);
    for (size_t j = 0; j < in.size(); ++j) {
      if (in[j] == 0 || !p.keptWhy[j].empty()) continue;
      if (!gemm)
        p.keptWhy[j] = Text::of("%1 has no bias to take channel %2's constant %3", nodeText(n),
                                std::to_string(p.dead[j]), numberText(in[j]));
      else if (n.attrFloat("beta", 1.0f) == 0 || !cPerColumn)
        p.keptWhy[j] = Text::of("the C of %1 cannot take channel %2's constant %3", nodeText(n),
                                std::to_string(p.dead[j]), numberText(in[j]));
    }
    Edit e{&n, gemm ? EditKind::kGemmSink : EditKind::kMatMulSink, f, 0, -1, in};
    e.positions = positions;
    p.edits.push_back(std::move(e));
    return "";
  }

  // Flatten (axis 1) or Reshape to [N, C * S] of a value whose channels are
  // axis 1: each channel becomes S consecutive columns of the result, which
  // only Gemms and MatMuls reading it as A may read.
  Text followFlatten(Plan& p, ir::Node& n, const std::vector<double>& value, const Frame& f) {
    if (p.axis != 1) return Text::of("%1 reads them; their channels are not axis 1", nodeText(n));
    for (const Edit& e : p.edits)
      if (e.node == &n) return Text::of("%1 reads them twice", nodeText(n));
    const ir::Type& in = n.input(0)->type();
    if (!in.isTensor() || !in.shape() || static_cast<int64_t>(in.shape()->rank()) != p.rank)
      return Text::of("%1 reads them; the shape of its input is not known", nodeText(n));
    int64_t positions = 1;
    for (size_t a = 2; a < in.shape()->rank(); ++a) {
      const ir::Dim& d = (*in.shape())[a];
      if (!d.isStatic())
        return Text::of("%1 reads them; the positions per channel are not known", nodeText(n));
      positions *= d.value();
    }
    if (Text why = whyNotFlattenToChannels(n, *in.shape(), f.channels * positions); !why.empty())
      return why;
    ir::Value* out = n.output(0);
    if (out->isGraphOutput()) return Text::of("they reach the graph output '%1'", out->name());
    Edit flatten{&n, EditKind::kFlatten, f, 0, -1, value};
    flatten.positions = positions;
    p.edits.push_back(std::move(flatten));
    for (const ir::Use& u : out->uses()) {
      ir::Node& reader = *u.node;
      if (!mayChange(ctx_, reader))
        return Text::of("%1 is excluded from this pass", nodeText(reader));
      const bool matrix =
          reader.domain().empty() && (reader.opType() == "Gemm" || reader.opType() == "MatMul");
      if (!matrix || u.inputIndex != 0)
        return Text::of(
            "%1 reads the result of %2; only a Gemm or MatMul reading it as A is "
            "followed there",
            nodeText(reader), nodeText(n));
      if (Text why = sinkRows(p, reader, value, f, positions); !why.empty()) return why;
    }
    return "";
  }

  // "" when `n` (Flatten or Reshape) turns an input of shape `in` into
  // [N, K] with K = `columns` (the channels times their positions).
  Text whyNotFlattenToChannels(const ir::Node& n, const ir::Shape& in, int64_t columns) const {
    if (n.opType() == "Flatten") {
      int64_t axis = n.attrInt("axis", 1);
      if (axis < 0) axis += static_cast<int64_t>(in.rank());
      if (axis != 1) return Text::of("%1 flattens at another axis than 1", nodeText(n));
      return "";
    }
    auto shape = n.inputs().size() > 1 ? constantInts(n.input(1)) : std::nullopt;
    if (!shape) return Text::of("the shape of %1 is not constant", nodeText(n));
    const bool allowZero = n.attrInt("allowzero", 0) != 0;
    // [N, K] spelled [0, K], [N, K] or [-1, K], K being -1 or the count.
    const bool batchKept =
        shape->size() == 2 &&
        (((*shape)[0] == 0 && !allowZero) || (in[0].isStatic() && (*shape)[0] == in[0].value()) ||
         ((*shape)[0] == -1 && (*shape)[1] == columns));
    const bool columnsKept = shape->size() == 2 && ((*shape)[1] == columns || (*shape)[1] == -1);
    if (!batchKept || !columnsKept)
      return Text::of("%1 reshapes them to another shape than [N, channels x positions]",
                      nodeText(n));
    return "";
  }

  // The channel shuffle starting at Reshape `n` (its input the channels of
  // frame `f`): [N, C, H, W] -> [N, g, C/g, H, W], Transpose [0, 2, 1, 3, 4]
  // (its only reader), Reshape back to [N, C, H, W] (the Transpose's only
  // reader), every size static but N; nullopt when it is not one.
  std::optional<Shuffle> shuffleAt(const Plan& p, ir::Node& n, const Frame& f) const {
    if (p.rank != 4 || p.axis != 1 || n.inputs().size() < 2) return std::nullopt;
    const ir::Type& in = n.input(0)->type();
    if (!in.isTensor() || !in.shape() || in.shape()->rank() != 4) return std::nullopt;
    const ir::Shape& x = *in.shape();
    for (size_t a = 1; a < 4; ++a)
      if (!x[a].isStatic()) return std::nullopt;
    const int64_t c = x[1].value(), h = x[2].value(), w = x[3].value();
    if (c != f.channels) return std::nullopt;
    auto keepsBatch = [&](const ir::Node& r, int64_t d) {
      return (d == 0 && r.attrInt("allowzero", 0) == 0) || d == -1 ||
             (x[0].isStatic() && d == x[0].value());
    };
    auto single = [](const ir::Value* v) -> ir::Node* {
      if (v->isGraphOutput() || v->uses().size() != 1 || v->uses()[0].inputIndex != 0)
        return nullptr;
      return v->uses()[0].node;
    };
    auto split = constantInts(n.input(1));
    if (!split || split->size() != 5 || !keepsBatch(n, (*split)[0]) || (*split)[1] < 2 ||
        (*split)[2] < 1 || (*split)[1] * (*split)[2] != c || (*split)[3] != h || (*split)[4] != w)
      return std::nullopt;
    ir::Node* t = single(n.output(0));
    if (!t || !isDefaultOp(*t, "Transpose") ||
        t->attrInts("perm") != std::vector<int64_t>{0, 2, 1, 3, 4})
      return std::nullopt;
    ir::Node* m = single(t->output(0));
    if (!m || !isDefaultOp(*m, "Reshape") || m->inputs().size() < 2) return std::nullopt;
    auto merge = constantInts(m->input(1));
    if (!merge || merge->size() != 4 || !keepsBatch(*m, (*merge)[0]) ||
        ((*merge)[1] != c && ((*merge)[1] != -1 || (*merge)[0] == -1)) || (*merge)[2] != h ||
        (*merge)[3] != w)
      return std::nullopt;
    return Shuffle{&n, t, m, (*split)[1], (*split)[2]};
  }

  // A channel shuffle moves the channels: the walk goes on from its last
  // Reshape with them where the shuffle puts them (keepShuffleColumns says
  // which can go).
  Text followShuffle(Plan& p, const Shuffle& s, const std::vector<double>& value, const Frame& f) {
    for (const Edit& e : p.edits)
      if (e.node == s.split) return Text::of("%1 reads them twice", nodeText(*s.split));
    for (ir::Node* n : {s.transpose, s.merge})
      if (!mayChange(ctx_, *n)) return Text::of("%1 is excluded from this pass", nodeText(*n));
    Edit e{s.split, EditKind::kShuffle, f, 0, -1, value};
    e.groups = s.groups;
    e.transpose = s.transpose;
    e.merge = s.merge;
    p.edits.push_back(std::move(e));
    Frame moved{0, f.channels, {}};
    for (int64_t c = 0; c < p.channels; ++c) moved.moved.push_back(s.to(f.at(c)));
    return walk(p, s.merge->output(0), value, moved);
  }

  // ---- the edits ----

  void apply(const Plan& p, const std::vector<int64_t>& go) {
    for (const Source& s : p.sources) {
      ir::Node& n = *s.node;
      const ir::Tensor& w = *analysis::storedWeight(n.input(1));
      const bool transB = n.opType() == "Gemm" && n.attrInt("transB", 0) != 0;
      const int64_t weightAxis = n.opType() == "Conv" || transB ? 0 : 1;
      replaceInput(n, 1, dropAlongAxis(w, weightAxis, go), n.input(1)->name());
      if (n.inputs().size() > 2 && n.input(2)) dropBiasEntries(n, go);
    }
    std::vector<size_t> at;  // positions of `go` in p.dead
    for (int64_t c : go)
      at.push_back(
          static_cast<size_t>(std::lower_bound(p.dead.begin(), p.dead.end(), c) - p.dead.begin()));
    for (const Edit& e : p.edits) {
      // The channels where this node sees them, ascending (a shuffle moves
      // them), each with its position in p.dead.
      std::vector<std::pair<int64_t, size_t>> seen;
      for (size_t j = 0; j < go.size(); ++j) seen.emplace_back(e.frame.at(go[j]), at[j]);
      std::sort(seen.begin(), seen.end());
      std::vector<int64_t> shifted;
      std::vector<size_t> shiftedAt;
      for (const auto& [c, j] : seen) {
        shifted.push_back(c);
        shiftedAt.push_back(j);
      }
      applyEdit(e, shifted, shiftedAt);
    }
    for (const auto& [v, channels] : p.region)
      shrinkType(v, p.axis, channels - static_cast<int64_t>(go.size()));
  }

  // The layer's own bias (Conv B [M], Gemm C [N] or [1, N]; a scalar stays).
  void dropBiasEntries(ir::Node& n, const std::vector<int64_t>& go) {
    const ir::Tensor& b = *analysis::storedWeight(n.input(2));
    if (b.numel() == 1) return;
    replaceInput(n, 2, dropAlongAxis(b, static_cast<int64_t>(b.rank()) - 1, go),
                 n.input(2)->name());
  }

  void applyEdit(const Edit& e, const std::vector<int64_t>& go, const std::vector<size_t>& at) {
    ir::Node& n = *e.node;
    switch (e.kind) {
      case EditKind::kSameShape:
        return;
      case EditKind::kBatchNorm:
        for (size_t i = 1; i < 5; ++i) dropInputEntries(n, i, 0, go);
        return;
      case EditKind::kChannelConst:
        if (e.ownAxis >= 0) dropInputEntries(n, e.constInput, e.ownAxis, go);
        return;
      case EditKind::kDepthwise:
        dropInputEntries(n, 1, 0, go);
        if (n.inputs().size() > 2 && n.input(2)) dropInputEntries(n, 2, 0, go);
        rw_.setAttr(&n, ir::Attribute::makeInt("group",
                                               e.frame.channels - static_cast<int64_t>(go.size())));
        return;
      case EditKind::kConvSink:
        return sinkConv(n, e, go, at);
      case EditKind::kGemmSink:
      case EditKind::kMatMulSink:
        return sinkMatrixEdit(n, e, go, at);
      case EditKind::kFlatten:
        return shrinkFlatten(n, e, go);
      case EditKind::kShuffle:
        return shrinkShuffle(e, static_cast<int64_t>(go.size()));
      case EditKind::kGroupedSink:
        return sinkGroupedConvEdit(n, e, go, at);
    }
  }

  void dropInputEntries(ir::Node& n, size_t i, int64_t axis, const std::vector<int64_t>& go) {
    const ir::Tensor& t = *analysis::storedWeight(n.input(i));
    replaceInput(n, i, dropAlongAxis(t, axis, go), n.input(i)->name());
  }

  // Conv of group 1: input channels `go` go; b[m] += v * sum(w[m, c]).
  void sinkConv(ir::Node& n, const Edit& e, const std::vector<int64_t>& go,
                const std::vector<size_t>& at) {
    const ir::Tensor& w = *analysis::storedWeight(n.input(1));
    const std::vector<double> wv = *fusion::floatValues(w);
    const int64_t m = w.dims()[0], c = w.dims()[1], k = w.numel() / (m * c);
    std::vector<double> shift(static_cast<size_t>(m), 0.0);
    std::vector<double> carried = wv;  // wv, the carrier taking the others' constants
    bool shifted = false;
    auto at3 = [&](int64_t o, int64_t ch, int64_t r) {
      return static_cast<size_t>((o * c + ch) * k + r);
    };
    for (size_t j = 0; j < go.size(); ++j) {
      const double v = e.value[at[j]];
      if (v == 0) continue;
      if (e.carrier >= 0) {
        const auto car = static_cast<size_t>(e.carrier);
        const double ratio = v / e.value[car];
        const int64_t to = e.frame.at(e.carrierChannel);
        for (int64_t o = 0; o < m; ++o)
          for (int64_t r = 0; r < k; ++r) carried[at3(o, to, r)] += ratio * wv[at3(o, go[j], r)];
        continue;
      }
      shifted = true;
      for (int64_t o = 0; o < m; ++o) {
        double sum = 0;
        for (int64_t r = 0; r < k; ++r) sum += wv[at3(o, go[j], r)];
        shift[static_cast<size_t>(o)] += v * sum;
      }
    }
    const ir::DataType dtype = w.dtype();
    replaceInput(n, 1, dropAlongAxis(fusion::floatTensorLike(w, carried), 1, go),
                 n.input(1)->name());
    if (shifted) addToBias(n, 2, shift, {m}, dtype);
  }

  // Gemm / MatMul: the rows (K) of channels `go` of B go (`positions` rows
  // each); a Gemm's C[n] += alpha * v * B[row, n] / beta over their rows.
  void sinkMatrixEdit(ir::Node& n, const Edit& e, const std::vector<int64_t>& go,
                      const std::vector<size_t>& at) {
    const bool transB = n.opType() == "Gemm" && n.attrInt("transB", 0) != 0;
    const ir::Tensor& w = *analysis::storedWeight(n.input(1));
    const std::vector<double> wv = *fusion::floatValues(w);
    const int64_t cols = w.dims()[transB ? 0 : 1];
    const int64_t rowStride = transB ? 1 : cols, colStride = transB ? w.dims()[1] : 1;
    std::vector<double> shift(static_cast<size_t>(cols), 0.0);
    bool shifted = false;
    const double scale =
        n.opType() == "Gemm" ? n.attrFloat("alpha", 1.0f) / n.attrFloat("beta", 1.0f) : 0.0;
    std::vector<int64_t> rows;
    for (size_t j = 0; j < go.size(); ++j) {
      const double v = e.value[at[j]];
      for (int64_t r = go[j] * e.positions; r < (go[j] + 1) * e.positions; ++r) {
        rows.push_back(r);
        if (v == 0) continue;
        shifted = true;
        for (int64_t o = 0; o < cols; ++o)
          shift[static_cast<size_t>(o)] +=
              scale * v * wv[static_cast<size_t>(r * rowStride + o * colStride)];
      }
    }
    const ir::DataType dtype = w.dtype();
    replaceInput(n, 1, dropAlongAxis(w, transB ? 1 : 0, rows), n.input(1)->name());
    if (shifted) addToBias(n, 2, shift, {cols}, dtype);
  }

  // The flattened value loses `positions` columns per channel that went; a
  // Reshape that spells the count out gets the new one.
  void shrinkFlatten(ir::Node& n, const Edit& e, const std::vector<int64_t>& go) {
    const int64_t columns = (e.frame.channels - static_cast<int64_t>(go.size())) * e.positions;
    if (n.opType() == "Reshape") {
      std::vector<int64_t> shape = *constantInts(n.input(1));
      if (shape[1] != -1) {
        shape[1] = columns;
        replaceConstantInput(rw_, n, 1, ir::Tensor::fromInt64s(shape),
                             n.output(0)->name() + "_shape");
      }
    }
    shrinkType(n.output(0), 1, columns);
  }

  // A channel shuffle losing `gone` channels (as many of every group): C/g
  // and C in its Reshapes' shapes and the types between shrink.
  void shrinkShuffle(const Edit& e, int64_t gone) {
    const int64_t per = e.frame.channels / e.groups - gone / e.groups;
    std::vector<int64_t> split = *constantInts(e.node->input(1));
    split[2] = per;
    replaceConstantInput(rw_, *e.node, 1, ir::Tensor::fromInt64s(split),
                         e.node->output(0)->name() + "_shape");
    shrinkType(e.node->output(0), 2, per);
    shrinkType(e.transpose->output(0), 1, per);
    std::vector<int64_t> merge = *constantInts(e.merge->input(1));
    if (merge[1] != -1) {
      merge[1] = e.frame.channels - gone;
      replaceConstantInput(rw_, *e.merge, 1, ir::Tensor::fromInt64s(merge),
                           e.merge->output(0)->name() + "_shape");
    }
  }

  // Grouped Conv: output m (group g) loses the input channels `go` of group
  // g; b[m] += v * sum(w[m, c]) for those holding v.
  void sinkGroupedConvEdit(ir::Node& n, const Edit& e, const std::vector<int64_t>& go,
                           const std::vector<size_t>& at) {
    const ir::Tensor& w = *analysis::storedWeight(n.input(1));
    const std::vector<double> wv = *fusion::floatValues(w);
    const int64_t m = w.dims()[0], c = w.dims()[1], k = w.numel() / (m * c);
    const int64_t left = c - static_cast<int64_t>(go.size()) / e.groups;
    std::vector<double> kept, shift(static_cast<size_t>(m), 0.0);
    bool shifted = false;
    for (int64_t o = 0; o < m; ++o) {
      const int64_t g = o / (m / e.groups);
      for (int64_t ch = 0; ch < c; ++ch) {
        const auto it = std::lower_bound(go.begin(), go.end(), g * c + ch);
        const bool gone = it != go.end() && *it == g * c + ch;
        const double v = gone ? e.value[at[static_cast<size_t>(it - go.begin())]] : 0.0;
        for (int64_t r = 0; r < k; ++r) {
          const double x = wv[static_cast<size_t>((o * c + ch) * k + r)];
          if (!gone)
            kept.push_back(x);
          else if (v != 0)
            shift[static_cast<size_t>(o)] += v * x, shifted = true;
        }
      }
    }
    std::vector<int64_t> dims = w.dims();
    dims[1] = left;
    const ir::DataType dtype = w.dtype();
    replaceInput(n, 1, fusion::floatTensor(dtype, dims, kept), n.input(1)->name());
    if (shifted) addToBias(n, 2, shift, {m}, dtype);
  }

  // Input `i` (a bias with one value per channel, or none) plus `shift`.
  void addToBias(ir::Node& n, size_t i, const std::vector<double>& shift, std::vector<int64_t> dims,
                 ir::DataType dtype) {
    std::vector<double> b(shift.size(), 0.0);
    if (n.inputs().size() > i && n.input(i)) {
      const ir::Tensor& t = *analysis::storedWeight(n.input(i));
      auto vals = *fusion::floatValues(t);
      for (size_t o = 0; o < b.size(); ++o) b[o] = vals[t.numel() == 1 ? 0 : o];
      if (t.numel() != 1) dims = t.dims();
      dtype = t.dtype();
    }
    for (size_t o = 0; o < b.size(); ++o) b[o] += shift[o];
    const std::string hint = n.output(0)->name() + "_bias";
    replaceInput(n, i, fusion::floatTensor(dtype, dims, b), hint);
  }

  // replaceConstantInput, counting the stored values it removes (weights,
  // biases, per-channel constants; a bias it adds counts against them).
  void replaceInput(ir::Node& n, size_t i, ir::Tensor t, const std::string& hint) {
    const ir::Tensor* old =
        i < n.inputs().size() && n.input(i) ? analysis::storedWeight(n.input(i)) : nullptr;
    weightsRemoved_ += (old ? old->numel() : 0) - t.numel();
    replaceConstantInput(rw_, n, i, std::move(t), hint);
  }

  void shrinkType(ir::Value* v, int64_t axis, int64_t channels) {
    ir::Type t = v->type();
    if (!t.isTensor() || !t.shape() || static_cast<int64_t>(t.shape()->rank()) <= axis) return;
    (*t.shape())[static_cast<size_t>(axis)] = ir::Dim(channels);
    rw_.setType(v, std::move(t));
  }

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  int64_t opset_;
  size_t layers_ = 0;
  int64_t removed_ = 0, weightsRemoved_ = 0;
};

}  // namespace

std::unique_ptr<Pass> makeRemoveDeadChannels() {
  return std::make_unique<FunctionPass>(catalogInfo(kId),
                                        [](PassContext& ctx) { return Remover(ctx).run(); });
}

}  // namespace passlab::passes
