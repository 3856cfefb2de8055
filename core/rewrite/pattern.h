// Patterns: a root op, a match that never mutates and says why it failed,
// and an apply step that edits only through the Rewriter.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/model.h"
#include "core/rewrite/rewriter.h"
#include "core/support/text.h"

namespace passlab::rewrite {

struct OpKey {
  std::string domain;  // "" = ai.onnx
  std::string op;
  bool operator==(const OpKey& o) const { return domain == o.domain && op == o.op; }
};

class Evaluator;

// What a pattern may look at while matching.
struct MatchContext {
  const ir::Model* model = nullptr;
  int64_t opset = 0;         // the model's default-domain opset
  bool standardOnly = true;  // no non-standard ops may be emitted
  Evaluator* evaluator = nullptr;
  const std::vector<std::pair<std::string, std::string>>* options =
      nullptr;  // pass options (name, value)
  std::string option(const std::string& name, const std::string& fallback) const;
  // Typed reads of a pass option (the PassManager normalizes booleans to
  // true/false; readOptionBool accepts the other spellings too), `fallback`
  // when the pass was not given it.
  bool boolOption(const std::string& name, bool fallback) const;
  int64_t intOption(const std::string& name, int64_t fallback) const;
};

// Whether an option's text means true: "true", "1", "yes" or "on". The one
// reading of a boolean option, for matchers and passes alike.
bool readOptionBool(const std::string& text);

// A successful match: the nodes the rewrite consumes (root first) and the
// edit to perform. A failed match: why.
class MatchResult {
 public:
  static MatchResult failure(Text reason) {
    MatchResult r;
    r.reason_ = std::move(reason);
    return r;
  }
  static MatchResult success(std::vector<ir::Node*> nodes, std::function<void(Rewriter&)> apply) {
    MatchResult r;
    r.nodes_ = std::move(nodes);
    r.apply_ = std::move(apply);
    return r;
  }
  bool matched() const { return static_cast<bool>(apply_); }
  const Text& reason() const { return reason_; }
  // The reason, moved out (the driver keeps it in the explain log: a copy of
  // every failed match's message cost ~2% of optimizing).
  Text takeReason() { return std::move(reason_); }
  const std::vector<ir::Node*>& nodes() const { return nodes_; }
  void apply(Rewriter& rw) const { apply_(rw); }

 private:
  Text reason_;
  std::vector<ir::Node*> nodes_;
  std::function<void(Rewriter&)> apply_;
};

class Pattern {
 public:
  virtual ~Pattern() = default;
  virtual std::string_view name() const = 0;
  // The rule in one line: "x*1 -> x".
  virtual std::string_view summary() const = 0;
  // Root ops this pattern can match; empty means any node.
  virtual std::vector<OpKey> rootOps() const = 0;
  virtual MatchResult match(ir::Node& root, const MatchContext& ctx) const = 0;
};

// A rule-table row: a pattern from a name, summary, root ops and a match function.
class RulePattern final : public Pattern {
 public:
  using MatchFn = std::function<MatchResult(ir::Node&, const MatchContext&)>;
  RulePattern(std::string name, std::string summary, std::vector<OpKey> roots, MatchFn fn)
      : name_(std::move(name)),
        summary_(std::move(summary)),
        roots_(std::move(roots)),
        fn_(std::move(fn)) {}
  std::string_view name() const override { return name_; }
  std::string_view summary() const override { return summary_; }
  std::vector<OpKey> rootOps() const override { return roots_; }
  MatchResult match(ir::Node& root, const MatchContext& ctx) const override {
    return fn_(root, ctx);
  }

 private:
  std::string name_, summary_;
  std::vector<OpKey> roots_;
  MatchFn fn_;
};

// A rule table: the patterns of one pass, one row each.
using Rules = std::vector<std::unique_ptr<Pattern>>;

// Adds one rule row (a RulePattern) rooted at the default-domain `ops`. The
// one way a rule table adds a row; tables write the rule as its comment.
inline void addRule(Rules& r, std::string name, std::string summary, std::vector<std::string> ops,
                    RulePattern::MatchFn fn) {
  std::vector<OpKey> roots;
  for (auto& op : ops) roots.push_back({"", std::move(op)});
  r.push_back(std::make_unique<RulePattern>(std::move(name), std::move(summary), std::move(roots),
                                            std::move(fn)));
}

}  // namespace passlab::rewrite
