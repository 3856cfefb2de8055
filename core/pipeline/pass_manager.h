// Runs passes on a model, one Step at a time: before/after hooks, rollback of
// a pass that throws or breaks the verifier, type re-inference, an optional
// numeric check that stops at the first pass that changes the outputs, and
// provenance kept across all passes.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/passes/pass.h"
#include "core/pipeline/timeline.h"
#include "core/rewrite/provenance.h"

namespace passlab::pipeline {

struct PassSpec {
  std::string id;
  passes::Options options;  // overrides; defaults fill the rest
  rewrite::NodeFilter filter;
};

// Compares the current model's outputs with the original's (see numeric_check.h).
class OutputChecker {
 public:
  virtual ~OutputChecker() = default;
  virtual NumericCheck check(const ir::Model& current) = 0;
};

struct PipelineOptions {
  bool standardOnly = true;   // passes that may emit non-standard ops are skipped
  bool keepSnapshots = true;  // keep before/after models per Step (for diffs and undo)
  bool stopOnCheckFailure = true;
  bool inferShapesAfterEachPass = true;
};

class PassManager {
 public:
  using Hook = std::function<void(const Step&, const ir::Model&)>;

  PassManager(ir::Model& model, PipelineOptions options = {});
  ~PassManager();

  void setEvaluator(rewrite::Evaluator* evaluator) { evaluator_ = evaluator; }
  void setChecker(OutputChecker* checker) { checker_ = checker; }
  void setCancelFlag(const std::atomic<bool>* cancel) { cancel_ = cancel; }
  void addBeforeHook(Hook h) { before_.push_back(std::move(h)); }
  void addAfterHook(Hook h) { after_.push_back(std::move(h)); }

  // Applies one pass; the Step is appended to the timeline (also when skipped or rolled back).
  Expected<const Step*> run(const PassSpec& spec);
  // Same, for a pass object that need not be in the registry (tests, plug-ins).
  Expected<const Step*> run(const passes::Pass& pass, const PassSpec& spec);
  // Applies passes in order; stops early when a numeric check fails (if so
  // configured) or a pass errors. Returns the first error.
  Status runAll(const std::vector<PassSpec>& specs);
  bool stopped() const { return stopped_; }

  const Timeline& timeline() const { return timeline_; }
  const rewrite::Provenance& provenance() const { return provenance_; }
  ir::Model& model() { return model_; }

 private:
  ir::Model& model_;
  PipelineOptions options_;
  rewrite::Evaluator* evaluator_ = nullptr;
  OutputChecker* checker_ = nullptr;
  const std::atomic<bool>* cancel_ = nullptr;
  std::vector<Hook> before_, after_;
  Timeline timeline_;
  rewrite::Provenance provenance_;
  bool stopped_ = false;
};

// Fills in declared defaults and rejects unknown option names.
Expected<passes::Options> effectiveOptions(const passes::Pass& pass,
                                           const passes::Options& overrides);

}  // namespace passlab::pipeline
