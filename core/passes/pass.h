// A pass: metadata in one place (id, taxonomy category, summaries in English
// and Chinese, options, covered opsets), and a run function that edits the
// model only through the Rewriter in its context.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/model.h"
#include "core/rewrite/driver.h"
#include "core/rewrite/evaluator.h"
#include "core/rewrite/pattern.h"
#include "core/rewrite/rewriter.h"
#include "core/support/error.h"

namespace passlab::passes {

// The taxonomy of redundancy in inference graphs.
enum class Category { kStructural, kPrecision, kAlgorithm, kReadWrite };
std::string_view categoryName(Category c);

// What values an option takes; effectiveOptions (pipeline) rejects others
// and spells the accepted ones one way, so every pass reads them alike.
enum class OptionKind {
  kText,    // anything
  kBool,    // true/false (also 1/0, yes/no, on/off in any case; stored as true/false)
  kCount,   // a whole number >= minimum
  kNumber,  // a number >= minimum, or inf
};
std::string_view optionKindName(OptionKind k);

struct PassOption {
  std::string name{};
  std::string defaultValue{};
  std::string help{};
  OptionKind kind = OptionKind::kText;
  double minimum = 0;  // for counts and numbers
};

// `value` in the form the pass reads (booleans as true/false), or why `option`
// does not take it.
Expected<std::string> normalizeOptionValue(const PassOption& option, const std::string& value);

struct PassInfo {
  std::string id{};  // verb first: "fold_constants"
  Category category = Category::kStructural;
  // Within the category: "constant folding", "redundant node: inverse pairs", ...
  std::string kind{};
  std::string summaryEn{};
  std::string summaryZh{};
  std::vector<PassOption> options{};
  int64_t minOpset = 1;  // default-domain opsets the pass was written and tested for
  int64_t maxOpset = 28;
  bool changesNumerics = false;  // results may differ in the last bits or more
  // Changes numerics on purpose (lower precision, pruning, low rank): the
  // check after it holds the outputs to the accuracy budget instead of
  // equality, and a step over budget is rolled back. Never in a level.
  bool lossy = false;
  // Exact per node unit (fuse_qdq_into_qlinear): each rewritten QDQ unit
  // computes its original's function up to one rounding step of its 8-bit
  // output, steps that compound with depth at the model's outputs. The check
  // after it judges the units (unit_check.h) and the whole model against the
  // accuracy budget, then compares later steps with the checked model; such
  // a pass may be in a level.
  bool exactPerUnit = false;
  // Changes the model's form on request (raise_opset): run only when named,
  // never in a level, not even "all".
  bool byNameOnly = false;
  bool mayEmitNonStandard = false;  // only runs when non-standard ops are allowed
};

using Options = std::vector<std::pair<std::string, std::string>>;

struct PassContext {
  rewrite::Rewriter& rewriter;
  Options options;  // every declared option, defaults applied
  rewrite::Evaluator* evaluator = nullptr;
  rewrite::ExplainLog* explain = nullptr;
  const rewrite::NodeFilter* filter = nullptr;
  bool standardOnly = true;
  const std::atomic<bool>* cancel = nullptr;
  // Where a pass that succeeded says something its step should show (the
  // PassManager points it at Step::note): a pattern pass stopped by the
  // driver's cap before a fixpoint. Null: nowhere.
  Text* note = nullptr;

  // The model being edited (the rewriter's).
  ir::Model& model() const { return rewriter.model(); }
  std::string option(const std::string& name) const;
  int64_t intOption(const std::string& name) const;
  double doubleOption(const std::string& name) const;
  bool boolOption(const std::string& name) const;
  rewrite::MatchContext matchContext() const;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual const PassInfo& info() const = 0;
  // Edits ctx.model() through ctx.rewriter, the only way a pass reaches the
  // model. An error leaves the model to be rolled back.
  virtual Status run(PassContext& ctx) const = 0;
  // The patterns of a pattern-based pass (for listings and explanations).
  virtual std::vector<const rewrite::Pattern*> patterns() const { return {}; }
};

// A pass made of rules applied by the greedy driver.
class PatternPass : public Pass {
 public:
  PatternPass(PassInfo info, std::vector<std::unique_ptr<rewrite::Pattern>> patterns)
      : info_(std::move(info)), patterns_(std::move(patterns)) {}
  const PassInfo& info() const override { return info_; }
  Status run(PassContext& ctx) const override;
  std::vector<const rewrite::Pattern*> patterns() const override;

 private:
  PassInfo info_;
  std::vector<std::unique_ptr<rewrite::Pattern>> patterns_;
};

}  // namespace passlab::passes
