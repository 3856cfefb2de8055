// Matrix products: MatMul (numpy semantics), Gemm, com.microsoft FusedMatMul
// and QGemm, and Einsum.
#include <algorithm>
#include <map>

#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

void inferMatMul(InferContext& ctx) {
  const ir::Shape* a = ctx.inputShape(0);
  const ir::Shape* b = ctx.inputShape(1);
  if (!a || !b) return;
  if (auto s = matmulShape(ctx, *a, *b)) ctx.setOutputShape(0, std::move(*s));
}

namespace {

// Gemm's [M, N] from A at input 0 and B at input `b`, each 2-D, transA/transB.
void inferGemmShape(InferContext& ctx, size_t b) {
  const ir::Shape* a = ctx.inputShape(0);
  const ir::Shape* bs = ctx.inputShape(b);
  if (!a || !bs) return;
  if (a->rank() != 2 || bs->rank() != 2) {
    ctx.fail("Gemm needs 2-D operands, got " + a->toString() + " and " + bs->toString());
    return;
  }
  bool ta = ctx.attrInt("transA", 0) != 0, tb = ctx.attrInt("transB", 0) != 0;
  const ir::Dim& m = (*a)[ta ? 1 : 0];
  const ir::Dim& ka = (*a)[ta ? 0 : 1];
  const ir::Dim& kb = (*bs)[tb ? 1 : 0];
  const ir::Dim& n = (*bs)[tb ? 0 : 1];
  if (ka.isStatic() && kb.isStatic() && ka.value() != kb.value()) {
    ctx.fail("inner dimensions differ: " + a->toString() + " x " + bs->toString());
    return;
  }
  ctx.setOutputShape(0, ir::Shape({m, n}));
}

}  // namespace

void inferGemm(InferContext& ctx) {
  inferGemmShape(ctx, 1);
}

void inferQGemm(InferContext& ctx) {
  const ir::DataType z = ctx.inputElem(8);
  ctx.setOutputElem(0, z != ir::DataType::kUndefined ? z : ir::DataType::kFloat);
  inferGemmShape(ctx, 3);
}

void inferFusedMatMul(InferContext& ctx) {
  const ir::Shape* a = ctx.inputShape(0);
  const ir::Shape* b = ctx.inputShape(1);
  if (!a || !b) return;
  if (ctx.attrInt("transBatchA", 0) != 0 || ctx.attrInt("transBatchB", 0) != 0) {
    ctx.setOutputShape(0, unknownShape(std::max(a->rank(), b->rank())));
    return;
  }
  auto transposed = [](ir::Shape s) {
    if (s.rank() >= 2) std::swap(s[s.rank() - 1], s[s.rank() - 2]);
    return s;
  };
  ir::Shape sa = ctx.attrInt("transA", 0) ? transposed(*a) : *a;
  ir::Shape sb = ctx.attrInt("transB", 0) ? transposed(*b) : *b;
  if (auto s = matmulShape(ctx, sa, sb)) ctx.setOutputShape(0, std::move(*s));
}

void inferEinsum(InferContext& ctx) {
  std::string eq;
  for (char c : ctx.attrString("equation", ""))
    if (c != ' ') eq += c;
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ctx.inputCount()) {
    ctx.fail("equation '" + eq + "' has " + std::to_string(terms.size()) + " operands, node has " +
             std::to_string(ctx.inputCount()));
    return;
  }
  std::map<char, ir::Dim> label;
  std::map<char, int> count;
  std::vector<const ir::Shape*> ellipsisShapes;
  std::vector<ir::Shape> ellipsisStore;
  ellipsisStore.reserve(terms.size());
  for (size_t i = 0; i < terms.size(); ++i) {
    const ir::Shape* s = ctx.inputShape(i);
    if (!s) return;
    const std::string& t = terms[i];
    size_t dots = t.find("...");
    size_t letters = t.size() - (dots == std::string::npos ? 0 : 3);
    if (letters > s->rank() || (dots == std::string::npos && letters != s->rank())) {
      ctx.fail("operand " + std::to_string(i) + " '" + t + "' does not match rank " +
               std::to_string(s->rank()));
      return;
    }
    size_t ellipsisRank = s->rank() - letters;
    size_t dim = 0;
    for (size_t k = 0; k < t.size(); ++k) {
      if (k == dots) {
        ellipsisStore.emplace_back(
            std::vector<ir::Dim>(s->dims().begin() + dim, s->dims().begin() + dim + ellipsisRank));
        ellipsisShapes.push_back(&ellipsisStore.back());
        dim += ellipsisRank;
        k += 2;
        continue;
      }
      char c = t[k];
      const ir::Dim& d = (*s)[dim++];
      ++count[c];
      auto it = label.find(c);
      if (it == label.end() || (!it->second.isStatic() && d.isStatic()) ||
          (it->second.isStatic() && it->second.value() == 1))
        label[c] = d;
    }
  }
  std::string err;
  std::optional<ir::Shape> ellipsis = ir::Shape();
  if (!ellipsisShapes.empty()) ellipsis = broadcastShapes(ellipsisShapes, &err);
  if (!ellipsis) {
    if (!err.empty()) ctx.fail(err);
    return;
  }
  std::vector<ir::Dim> out;
  if (arrow != std::string::npos) {
    std::string rhs = eq.substr(arrow + 2);
    for (size_t k = 0; k < rhs.size(); ++k) {
      if (rhs.compare(k, 3, "...") == 0) {
        out.insert(out.end(), ellipsis->dims().begin(), ellipsis->dims().end());
        k += 2;
        continue;
      }
      auto it = label.find(rhs[k]);
      if (it == label.end()) {
        ctx.fail(std::string("output label '") + rhs[k] + "' is not in the inputs");
        return;
      }
      out.push_back(it->second);
    }
  } else {
    out = ellipsis->dims();
    for (const auto& [c, n] : count)
      if (n == 1) out.push_back(label[c]);
  }
  ctx.setOutputShape(0, ir::Shape(std::move(out)));
}

}  // namespace passlab::analysis::infer
