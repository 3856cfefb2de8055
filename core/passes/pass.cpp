#include "core/passes/pass.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
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

std::string_view optionKindName(OptionKind k) {
  switch (k) {
    case OptionKind::kText:
      return "text";
    case OptionKind::kBool:
      return "true/false";
    case OptionKind::kCount:
      return "count";
    case OptionKind::kNumber:
      return "number";
  }
  return "?";
}

namespace {
std::string minimumText(const PassOption& o) {
  char buf[32];
  auto written = std::to_chars(buf, buf + sizeof buf, o.minimum);
  return std::string(buf, written.ptr);
}
}  // namespace

Expected<std::string> normalizeOptionValue(const PassOption& option, const std::string& value) {
  std::string lower = value;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  switch (option.kind) {
    case OptionKind::kText:
      return value;
    case OptionKind::kBool:
      if (lower == "true" || lower == "1" || lower == "yes" || lower == "on")
        return std::string("true");
      if (lower == "false" || lower == "0" || lower == "no" || lower == "off")
        return std::string("false");
      return invalidArgument(
          Text::of("option '%1' takes true or false, not '%2'", option.name, value));
    case OptionKind::kCount: {
      int64_t n = 0;
      const char* end = value.data() + value.size();
      auto [ptr, ec] = std::from_chars(value.data(), end, n);
      if (value.empty() || ec != std::errc() || ptr != end ||
          static_cast<double>(n) < option.minimum)
        return invalidArgument(Text::of("option '%1' takes a whole number >= %2, not '%3'",
                                        option.name, minimumText(option), value));
      return std::to_string(n);
    }
    case OptionKind::kNumber: {
      if (lower == "inf" || lower == "infinity") return std::string("inf");
      // from_chars: no locale, no leading blanks, no hex.
      double d = 0;
      const char* end = value.data() + value.size();
      auto [ptr, ec] = std::from_chars(value.data(), end, d);
      if (value.empty() || ec != std::errc() || ptr != end || !std::isfinite(d) ||
          d < option.minimum)
        return invalidArgument(Text::of("option '%1' takes a number >= %2 or inf, not '%3'",
                                        option.name, minimumText(option), value));
      // Whole numbers as digits ("100000", not "1e+05"); others in the
      // shortest exact spelling. "-0" is 0.
      if (d == std::floor(d) && d < 1e15) return std::to_string(static_cast<int64_t>(d));
      char buf[32];
      auto written = std::to_chars(buf, buf + sizeof buf, d);
      return std::string(buf, written.ptr);
    }
  }
  return value;
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
  return rewrite::readOptionBool(option(name));
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

Status PatternPass::run(PassContext& ctx) const {
  rewrite::DriverOptions o;
  o.filter = ctx.filter;
  o.explain = ctx.explain;
  o.cancel = ctx.cancel;
  auto ptrs = patterns();
  rewrite::DriverResult r =
      rewrite::applyPatternsGreedily(ctx.rewriter, ptrs, ctx.matchContext(), o);
  if (r.cancelled) return Error(ErrorCode::kCancelled, Text::of("%1: cancelled", info_.id));
  // Stopped by a cap (sweeps or rewrites): what it did is valid, but rules may
  // still match, so the step says so rather than passing for a fixpoint.
  if (!r.converged && ctx.note)
    *ctx.note = Text::of(
        "stopped before a fixpoint after %1 sweeps and %2 rewrites (the driver's cap); rules may "
        "still apply",
        std::to_string(r.iterations), std::to_string(r.rewrites));
  return Status::ok();
}

std::vector<const rewrite::Pattern*> PatternPass::patterns() const {
  std::vector<const rewrite::Pattern*> out;
  for (const auto& p : patterns_) out.push_back(p.get());
  return out;
}

}  // namespace passlab::passes
