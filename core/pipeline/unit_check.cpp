#include "core/pipeline/unit_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "core/pipeline/node_extract.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/quant_steps.h"
#include "core/support/strings.h"

namespace passlab::pipeline {

namespace {

using Tensors = std::map<std::string, ir::Tensor>;

// One value the step replaced: its name in the model before, the name of the
// value standing for it after, and the original unit that computed it.
struct Unit {
  std::string original, replacement;
  std::vector<ir::NodeId> nodes;
  std::map<std::string, std::string> inputs;  // the unit's input (before) -> its value after
  Text whyNot;                                // why the unit cannot be cut out
};

bool rewires(const rewrite::Edit& e) {
  return (e.kind == rewrite::EditKind::kInputRewired ||
          e.kind == rewrite::EditKind::kGraphOutputRewired ||
          e.kind == rewrite::EditKind::kValueRenamed) &&
         e.graphOwner == 0 && !e.from.empty() && !e.to.empty();
}

// Whether the initializer `name` of `before` holds other contents in `after`
// (one that is no longer a graph input, as an IR version 4 file lists it,
// holds the same).
bool changedWeight(const ir::Model& before, const ir::Model& after, const std::string& name) {
  const ir::Value* b = before.graph().findValue(name);
  const ir::Value* a = after.graph().findValue(name);
  if (!b || !b->initializer()) return false;
  if (!a || !a->initializer()) return true;
  const ir::Tensor& x = *b->initializer();
  const ir::Tensor& y = *a->initializer();
  return x.dtype() != y.dtype() || x.dims() != y.dims() ||
         !std::equal(x.bytes().begin(), x.bytes().end(), y.bytes().begin(), y.bytes().end());
}

// Edits that change what a node of `before` computes without replacing its
// output (attributes set on a node the step added are part of making it).
bool editsInPlace(const rewrite::Edit& e, const ir::Model& before, const ir::Model& after) {
  switch (e.kind) {
    case rewrite::EditKind::kAttributeChanged:
      return before.graph().findNode(e.node) != nullptr;
    case rewrite::EditKind::kInitializerChanged:
      return changedWeight(before, after, e.from);
    case rewrite::EditKind::kOpsetChanged:  // a new domain's import changes no node
      return e.detail == "ai.onnx" || !e.from.empty();
    default:
      return false;
  }
}

// Original value -> the values of `after` that stand for it, following chains
// of rewires within the step (a -> b, then b -> c: c stands for a).
std::vector<std::pair<std::string, std::string>> replacedValues(const ir::Model& before,
                                                                const ir::Model& after,
                                                                const rewrite::EditLog& log) {
  std::map<std::string, std::string> originOf;
  for (const rewrite::Edit& e : log.edits()) {
    if (!rewires(e)) continue;
    auto it = originOf.find(e.from);
    originOf[e.to] = it == originOf.end() ? e.from : it->second;
  }
  std::vector<std::pair<std::string, std::string>> replaced;
  for (const auto& [to, from] : originOf)
    // to == from: a graph output's replacement took its name.
    if (after.graph().findValue(to) && before.graph().findValue(from))
      replaced.emplace_back(from, to);
  return replaced;
}

// The nodes of `before` that compute `unit.original` from values `after`
// also has (by name, or through `standsFor`), constants and graph inputs.
void cutOut(const ir::Model& before, const ir::Model& after,
            const std::map<std::string, std::string>& standsFor, const UnitRule& rule, Unit& unit) {
  std::set<const ir::Node*> seen;
  std::vector<const ir::Value*> todo{before.graph().findValue(unit.original)};
  bool first = true;
  while (!todo.empty() && unit.whyNot.empty()) {
    const ir::Value* v = todo.back();
    todo.pop_back();
    if (!v || v->isInitializer()) continue;
    if (!first) {
      if (auto s = standsFor.find(v->name()); s != standsFor.end()) {
        unit.inputs[v->name()] = s->second;
        continue;
      }
      if (after.graph().findValue(v->name())) {
        unit.inputs[v->name()] = v->name();
        continue;
      }
    }
    first = false;
    const ir::Node* p = v->producer();
    if (!p) {
      unit.whyNot = Text::of("'%1' has no counterpart in the rewritten model", v->name());
      break;
    }
    if (!seen.insert(p).second) continue;
    unit.nodes.push_back(p->id());
    if (unit.nodes.size() > rule.maxUnitNodes)
      unit.whyNot = Text::of("the original unit of '%1' has more than %2 nodes", unit.original,
                             std::to_string(rule.maxUnitNodes));
    for (const ir::Value* in : p->inputs()) todo.push_back(in);
  }
}

Expected<Tensors> runAll(const ir::Model& model, const exec::NamedInputs& inputs) {
  // Reproducible runs (executor.h): the check passes or fails a unit.
  exec::ExecutorOptions executorOptions;
  executorOptions.reproducible = true;
  auto ex = exec::Executor::create(model, executorOptions);
  if (!ex) return ex.error();
  auto r = (*ex)->run(inputs);
  if (!r) return r.error();
  Tensors out;
  for (size_t i = 0; i < r->outputNames.size(); ++i) out[r->outputNames[i]] = r->outputs[i];
  return out;
}

bool eightBit(ir::DataType t) {
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8;
}

// Folds one unit output on one input set into `c`; false (with c.detail)
// when it fails the rule.
bool judge(UnitCheck& c, const Unit& unit, const ir::Tensor& got, const ir::Tensor& want,
           const UnitRule& rule) {
  if (got.dtype() != want.dtype() || got.dims() != want.dims() || !eightBit(want.dtype())) {
    double maxAbs = 0, maxRel = 0;
    Text why;
    if (allClose(got, want, maxAbs, maxRel, why)) return true;
    c.detail = Text::of("unit '%1': %2", unit.original, why.empty() ? Text("values differ") : why);
    return false;
  }
  StepRule steps;
  steps.maxSteps = rule.maxSteps;
  steps.maxShare = rule.maxShare;
  steps.maxChannelShare = rule.maxChannelShare;
  steps.minChannelElements = rule.minChannelElements;
  const StepCount n = countSteps(got, want, 1.0, 0, steps);
  c.moved += n.moved;
  c.compared += n.compared;
  c.mostSteps = std::max(c.mostSteps, n.maxSteps);
  const double share =
      n.compared ? static_cast<double>(n.moved) / static_cast<double>(n.compared) : 0;
  if (share > c.worstShare) {
    c.worstShare = share;
    c.worstUnit = unit.original;
  }
  c.worstChannelShare = std::max(c.worstChannelShare, n.worstChannelShare);
  if (withinSteps(n, steps)) return true;
  if (n.beyond > 0)
    c.detail =
        Text::of("unit '%1': element %2 is %3 quantization steps from the original unit's",
                 unit.original, std::to_string(n.firstBeyond), str::printed("%g", n.maxSteps));
  else if (n.worstChannelShare > rule.maxChannelShare)
    c.detail =
        Text::of("unit '%1': %2 of channel %3 moved by a quantization step (at most %4)",
                 unit.original, str::printed("%.2g%%", 100 * n.worstChannelShare),
                 std::to_string(n.worstChannel), str::printed("%g%%", 100 * rule.maxChannelShare));
  else
    c.detail = Text::of("unit '%1': %2 of %3 elements moved by a quantization step (at most %4)",
                        unit.original, std::to_string(n.moved), std::to_string(n.compared),
                        str::printed("%g%%", 100 * rule.maxShare));
  return false;
}

// The units of the step, cut out of `before` shaped by the first input set.
std::vector<Unit> unitsOf(const ir::Model& before, const ir::Model& after,
                          const rewrite::EditLog& log, const UnitRule& rule) {
  const auto replaced = replacedValues(before, after, log);
  std::map<std::string, std::string> standsFor;
  for (const auto& [from, to] : replaced) standsFor.emplace(from, to);
  std::vector<Unit> units;
  for (const auto& [from, to] : replaced) {
    Unit u;
    u.original = from;
    u.replacement = to;
    cutOut(before, after, standsFor, rule, u);
    units.push_back(std::move(u));
  }
  return units;
}

// The model before the step without the units: every node of `before` that
// its graph outputs read, but the units' own, each unit cut at its output (a
// graph input of the cut named after the replaced value) and walked on from
// its inputs, so the nodes between two units are in it too. Fed the units'
// outputs `after` computes, it computes every value the step did not rewire
// as `before` would from them.
Expected<ir::Model> withoutUnits(const ir::Model& shaped, const std::vector<Unit>& units) {
  std::map<std::string, const Unit*> unitOf;
  for (const Unit& u : units) unitOf.emplace(u.original, &u);
  std::set<const ir::Node*> seen;
  std::set<std::string> walkedUnits;
  std::vector<ir::NodeId> nodes;
  std::vector<const ir::Value*> todo(shaped.graph().outputs().begin(),
                                     shaped.graph().outputs().end());
  while (!todo.empty()) {
    const ir::Value* v = todo.back();
    todo.pop_back();
    if (!v || v->isInitializer()) continue;
    if (auto u = unitOf.find(v->name()); u != unitOf.end()) {
      if (walkedUnits.insert(v->name()).second)
        for (const auto& [input, unused] : u->second->inputs)
          todo.push_back(shaped.graph().findValue(input));
      continue;
    }
    const ir::Node* p = v->producer();
    if (!p || !seen.insert(p).second) continue;
    nodes.push_back(p->id());
    for (const ir::Value* in : p->inputs()) todo.push_back(in);
  }
  return extractNodes(shaped, nodes);
}

// On one input set: the model without the units (`rest`, every value
// exposed) fed the replaced values as `after` computes them (`values`), its
// values compared with `after`'s of the same name, in graph order (`order`):
// integers exactly, floats within the rule's kept tolerance. False, with
// c.keptFailed and c.detail, at the first that differs.
// Whether `got` holds what `want` does: integers equal, floats within the
// rule's kept tolerance; `why` names the first element that is not.
bool sameKeptValue(UnitCheck& c, const ir::Tensor& got, const ir::Tensor& want,
                   const UnitRule& rule, Text& why) {
  if (got.dtype() != want.dtype() || got.dims() != want.dims()) {
    why = "another type or shape";
    return false;
  }
  const bool floating = ir::isFloatingPoint(want.dtype());
  for (int64_t i = 0; i < want.numel(); ++i) {
    const double a = floating ? got.valueAsDouble(i) : static_cast<double>(got.valueAsInt64(i));
    const double b = floating ? want.valueAsDouble(i) : static_cast<double>(want.valueAsInt64(i));
    if (a == b || (std::isnan(a) && std::isnan(b))) continue;
    const double d = std::abs(a - b);
    if (floating) c.keptMaxAbs = std::max(c.keptMaxAbs, d);
    if (floating && d <= rule.keptAtol + rule.keptRtol * std::abs(b)) continue;
    why = Text::of("element %1: %2 vs %3", std::to_string(i), str::printed("%.9g", a),
                   str::printed("%.9g", b));
    return false;
  }
  return true;
}

bool keptValuesHold(UnitCheck& c, const ir::Model& rest, const std::vector<std::string>& order,
                    const std::map<std::string, std::string>& standsFor,
                    const std::set<std::string>& random, const exec::NamedInputs& set,
                    const Tensors& values, const UnitRule& rule) {
  exec::NamedInputs feed;
  for (const ir::Value* in : rest.graph().inputs()) {
    if (in->isInitializer()) continue;
    auto given =
        std::find_if(set.begin(), set.end(), [&](const auto& p) { return p.first == in->name(); });
    if (given != set.end()) {
      feed.push_back(*given);
      continue;
    }
    auto s = standsFor.find(in->name());
    auto value = values.find(s == standsFor.end() ? in->name() : s->second);
    if (value == values.end()) {
      c.keptFailed = in->name();
      c.detail = Text::of("the rewritten model has no value for '%1'", in->name());
      return false;
    }
    feed.emplace_back(in->name(), value->second);
  }
  auto want = runAll(rest, feed);
  if (!want) {
    c.detail = Text::of("running the model before the step on the units' outputs: %1",
                        want.error().text());
    return false;
  }
  c.keptValues = 0;
  for (const std::string& name : order) {
    auto w = want->find(name);
    auto g = values.find(name);
    if (w == want->end() || g == values.end() || random.count(name)) continue;
    ++c.keptValues;
    Text why;
    if (sameKeptValue(c, g->second, w->second, rule, why)) continue;
    c.keptFailed = name;
    c.detail = Text::of(
        "value '%1', which the step did not rewire, differs from what the model before the step "
        "computes from the units' outputs: %2",
        name, why);
    return false;
  }
  return true;
}

}  // namespace

UnitCheck checkRewrittenUnits(const ir::Model& before, const ir::Model& after,
                              const rewrite::EditLog& log,
                              const std::vector<exec::NamedInputs>& inputSets,
                              const UnitRule& rule) {
  const auto t0 = std::chrono::steady_clock::now();
  UnitCheck c;
  const auto done = [&]() {
    c.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return c;
  };
  for (const rewrite::Edit& e : log.edits())
    if (editsInPlace(e, before, after) || e.graphOwner != 0) {
      c.detail =
          Text::of("the step edits nodes in place or inside subgraphs (%1): not judged by units",
                   std::string(rewrite::editKindName(e.kind)));
      return done();
    }
  if (inputSets.empty()) {
    c.detail = "no input sets";
    return done();
  }
  std::vector<Unit> units = unitsOf(before, after, log, rule);
  c.ran = true;
  const ir::Model shaped = withRunShapes(before, inputSets.front());
  std::vector<std::optional<ir::Model>> cut(units.size());
  for (size_t i = 0; i < units.size() && c.passed; ++i) {
    if (!units[i].whyNot.empty()) {
      c.passed = false;
      c.failedUnit = units[i].original;
      c.detail = units[i].whyNot;
      break;
    }
    auto m = extractNodes(shaped, units[i].nodes);
    if (!m) {
      c.passed = false;
      c.failedUnit = units[i].original;
      c.detail = Text::of("unit '%1': %2", units[i].original, m.error().text());
      break;
    }
    cut[i] = std::move(*m);
  }
  std::map<std::string, std::string> standsFor;
  for (const Unit& u : units) standsFor.emplace(u.original, u.replacement);
  std::vector<std::string> order;
  std::optional<ir::Model> rest;
  if (c.passed) {
    auto m = withoutUnits(shaped, units);
    if (m) {
      rest = exposeAllValues(*m, &order);
    } else {
      c.passed = false;
      c.detail = Text::of("the model before the step without its units: %1", m.error().text());
    }
  }
  const std::set<std::string> random = unseededRandomValues(before);
  const ir::Model exposed = exposeAllValues(after);
  for (const exec::NamedInputs& set : inputSets) {
    if (!c.passed) break;
    auto values = runAll(exposed, set);
    if (!values) {
      c.passed = false;
      c.detail = Text::of("running the rewritten model: %1", values.error().text());
      break;
    }
    for (size_t i = 0; i < units.size() && c.passed; ++i) {
      const Unit& u = units[i];
      exec::NamedInputs feed;
      for (const ir::Value* in : cut[i]->graph().inputs()) {
        if (in->isInitializer()) continue;
        auto name = u.inputs.find(in->name());
        auto value = values->find(name == u.inputs.end() ? in->name() : name->second);
        if (value == values->end()) {
          auto given = std::find_if(set.begin(), set.end(),
                                    [&](const auto& p) { return p.first == in->name(); });
          if (given == set.end()) {
            c.passed = false;
            c.failedUnit = u.original;
            c.detail = Text::of("unit '%1': the rewritten model has no value for its input '%2'",
                                u.original, in->name());
            break;
          }
          feed.push_back(*given);
          continue;
        }
        feed.emplace_back(in->name(), value->second);
      }
      if (!c.passed) break;
      auto want = runAll(*cut[i], feed);
      auto got = values->find(u.replacement);
      if (!want || !want->count(u.original) || got == values->end()) {
        c.passed = false;
        c.failedUnit = u.original;
        c.detail = Text::of("unit '%1' could not be run: %2", u.original,
                            want ? Text("no value") : want.error().text());
        break;
      }
      if (!judge(c, u, got->second, want->at(u.original), rule)) {
        c.passed = false;
        c.failedUnit = u.original;
      }
    }
    if (c.passed && !keptValuesHold(c, *rest, order, standsFor, random, set, *values, rule))
      c.passed = false;
  }
  c.units = units.size();
  return done();
}

}  // namespace passlab::pipeline
