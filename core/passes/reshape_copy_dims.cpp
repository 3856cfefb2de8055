// Reads a computed Reshape shape part by part; see reshape_copy_dims.h.
#include "core/passes/reshape_copy_dims.h"

#include <algorithm>

#include "core/passes/rule_helpers.h"
#include "core/rewrite/match_utils.h"

namespace passlab::passes {

namespace {

// One element of the computed shape.
struct Part {
  enum Kind { kConstant, kCopy, kOther } kind = kOther;
  int64_t value = 0;  // kConstant: the number
  Text source;        // kOther read from a Shape: where from, for reasons
};

// Where a one-element shape part reads a dim: Shape(x)[i] through
// Unsqueeze(Gather(.., scalar i), axes = [0]) or Gather(.., [i]).
struct DimRead {
  const ir::Value* of = nullptr;
  int64_t dim = 0;
};

std::optional<DimRead> dimRead(const ir::Value* v) {
  const ir::Node* gather = nullptr;
  bool scalarIndex = false;
  if (const ir::Node* u = producerOp(v, "Unsqueeze")) {
    auto axes = rewrite::intsFromAttrOrInput(*u, "axes", 1);
    if (!axes || axes->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1)) return std::nullopt;
    gather = producerOp(u->input(0), "Gather");
    scalarIndex = true;
  } else {
    gather = producerOp(v, "Gather");
  }
  if (!gather || gather->attrInt("axis", 0) != 0) return std::nullopt;
  auto index = rewrite::constantValue(gather->input(1));
  auto ints = constantInts(gather->input(1));
  if (!index || !ints || ints->size() != 1 || (index->dims().size() == 0) != scalarIndex)
    return std::nullopt;
  const ir::Node* shape = producerOp(gather->input(0), "Shape");
  if (!shape) return std::nullopt;
  auto rank = rankOf(shape->input(0));
  int64_t start = shape->attrInt("start", 0);
  int64_t end = shape->attrInt("end", rank.value_or(0));
  int64_t i = (*ints)[0];
  if (!rank && (start != 0 || i < 0 || shape->hasAttr("end"))) return std::nullopt;
  if (rank) {
    auto clampAxis = [&](int64_t a) {
      return std::clamp(a < 0 ? a + *rank : a, int64_t{0}, *rank);
    };
    start = clampAxis(start);
    end = clampAxis(end);
    if (i < 0) i += end - start;
    if (i < 0 || start + i >= end) return std::nullopt;
  }
  return DimRead{shape->input(0), start + i};
}

// The parts of the Concat feeding `reshape`'s shape, or nullopt with `why`.
std::optional<std::vector<Part>> shapeParts(const ir::Node& reshape, Text& why) {
  const ir::Node* concat = producerOp(reshape.input(1), "Concat");
  if (!concat) {
    why = "the shape is not a Concat of dims";
    return std::nullopt;
  }
  std::vector<Part> parts;
  for (size_t k = 0; k < concat->inputCount(); ++k) {
    const ir::Value* in = concat->input(k);
    const size_t p = parts.size();
    if (auto c = constantInts(in)) {
      for (int64_t x : *c) parts.push_back({.kind = Part::kConstant, .value = x, .source = {}});
      continue;
    }
    auto dims = rewrite::staticDims(in);
    if (!dims || dims->size() != 1 || (*dims)[0] != 1) {
      why = Text::of("input %1 of the shape Concat is not known to hold one element",
                     std::to_string(k));
      return std::nullopt;
    }
    auto read = dimRead(in);
    if (read && read->of == reshape.input(0) && read->dim == static_cast<int64_t>(p)) {
      parts.push_back({.kind = Part::kCopy, .value = 0, .source = {}});
    } else if (read) {
      parts.push_back(
          {.kind = Part::kOther,
           .value = 0,
           .source =
               read->of == reshape.input(0)
                   ? Text::of(
                         "dim %1 is read from dim %2 of the data (0 copies only the same position)",
                         std::to_string(p), std::to_string(read->dim))
                   : Text::of("dim %1 is read from '%2', not the data", std::to_string(p),
                              read->of->name())});
    } else {
      parts.push_back({.kind = Part::kOther, .value = 0, .source = {}});
    }
  }
  return parts;
}

}  // namespace

std::optional<std::vector<int64_t>> shapeCopyingInputDims(const ir::Node& reshape,
                                                          bool assumeNonempty, Text& why) {
  if (reshape.attrInt("allowzero", 0) != 0) {
    why = "allowzero = 1: a 0 in the shape would mean a dim of size 0, not a copy";
    return std::nullopt;
  }
  auto parts = shapeParts(reshape, why);
  if (!parts) return std::nullopt;
  const ir::Value* x = reshape.input(0);
  const ir::Value* y = reshape.output(0);
  const ir::Shape* xs = x->type().hasShape() ? &*x->type().shape() : nullptr;
  const ir::Shape* ys = y->type().hasShape() && y->type().shape()->rank() == parts->size()
                            ? &*y->type().shape()
                            : nullptr;
  std::vector<int64_t> out;
  std::vector<Text> unknown;  // why each -1 is one
  Text mayBeZero;             // the first copied dim that may be 0
  bool symbolicCopy = false;
  bool minusOneGiven = false;  // the computed shape had its own -1
  for (size_t p = 0; p < parts->size(); ++p) {
    const Part& part = (*parts)[p];
    const Text at = Text::of("dim %1", std::to_string(p));
    if (part.kind == Part::kConstant) {
      if (part.value < -1) {
        why = Text::of("%1 of the shape is %2", at, std::to_string(part.value));
        return std::nullopt;
      }
      if (part.value == -1) {
        unknown.push_back(Text::of("%1 is -1 in the computed shape", at));
        minusOneGiven = true;
      }
      if (part.value == 0 && mayBeZero.empty()) mayBeZero = Text::of("%1 (a constant 0)", at);
      out.push_back(part.value);
    } else if (part.kind == Part::kCopy) {
      const bool known = xs && p < xs->rank() && (*xs)[p].isStatic() && (*xs)[p].value() >= 1;
      if (!known) {
        symbolicCopy = true;
        if (mayBeZero.empty()) mayBeZero = at;
      }
      out.push_back(known ? (*xs)[p].value() : 0);
    } else if (ys && (*ys)[p].isStatic()) {
      if ((*ys)[p].value() == 0) {
        why = Text::of("%1 of the result is 0", at);
        return std::nullopt;
      }
      out.push_back((*ys)[p].value());
    } else {
      unknown.push_back(part.source.empty() ? Text::of("%1 is computed", at) : part.source);
      out.push_back(-1);
    }
  }
  if (unknown.size() > 1) {
    why = Text::of(
        "%1 dims are neither copied from the data at the same position nor static numbers (%2; %3)",
        std::to_string(unknown.size()), unknown[0], unknown[1]);
    return std::nullopt;
  }
  if (!symbolicCopy) {
    why = "no dim of unknown size is copied from the data at its own position";
    return std::nullopt;
  }
  if (!unknown.empty() && !minusOneGiven && !mayBeZero.empty() && !assumeNonempty) {
    why = Text::of(
        "the shape needs a -1 (%1) and %2 may be 0 at run time, which would leave the -1 "
        "undetermined (option assume_nonempty)",
        unknown[0], mayBeZero);
    return std::nullopt;
  }
  return out;
}

}  // namespace passlab::passes
