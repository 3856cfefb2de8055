#include "core/passes/pass.h"

#include <cstdlib>

namespace passlab::passes {

std::string_view categoryName(Category c) {
  switch (c) {
    case Category::kStructural:
      return "structural";
    case Category::kPrecision:
      return "precision";
    case Category::kAlgorithm:
      return "algorithm";
    case Category::kReadWrite:
      return "read/write";
  }
  return "?";
}

std::string PassContext::option(const std::string& name) const {
  for (const auto& [k, v] : options)
    if (k == name) return v;
  return "";
}

int64_t PassContext::intOption(const std::string& name) const {
  return std::strtoll(option(name).c_str(), nullptr, 10);
}
double PassContext::doubleOption(const std::string& name) const {
  return std::strtod(option(name).c_str(), nullptr);
}
bool PassContext::boolOption(const std::string& name) const {
  std::string v = option(name);
  return v == "1" || v == "true" || v == "yes" || v == "on";
}

rewrite::MatchContext PassContext::matchContext() const {
  rewrite::MatchContext m;
  m.model = &rewriter.model();
  m.opset = rewriter.model().opsetVersion("").value_or(1);
  m.standardOnly = standardOnly;
  m.evaluator = evaluator;
  m.options = &options;
  return m;
}

Status PatternPass::run(ir::Model& model, PassContext& ctx) const {
  (void)model;
  rewrite::DriverOptions o;
  o.filter = ctx.filter;
  o.explain = ctx.explain;
  o.cancel = ctx.cancel;
  auto ptrs = patterns();
  rewrite::DriverResult r =
      rewrite::applyPatternsGreedily(ctx.rewriter, ptrs, ctx.matchContext(), o);
  if (r.cancelled) return Error(ErrorCode::kCancelled, info_.id + ": cancelled");
  return Status::ok();
}

std::vector<const rewrite::Pattern*> PatternPass::patterns() const {
  std::vector<const rewrite::Pattern*> out;
  for (const auto& p : patterns_) out.push_back(p.get());
  return out;
}

}  // namespace passlab::passes
