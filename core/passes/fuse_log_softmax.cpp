// fuse_log_softmax — Log of a Softmax becomes one LogSoftmax.
//
// Before:  t = Softmax(x, axis = a); y = Log(t)
// After:   y = LogSoftmax(x, axis = a)
// Algebra: log(exp(x_i - m) / sum_j exp(x_j - m)) = (x_i - m) - log(sum_j exp(x_j - m)).
// LogSoftmax computes the right side, which is also more accurate: where a
// Softmax value underflows to 0 the pair gives -inf and LogSoftmax the finite
// log-probability (changesNumerics: only there, and in the last bits).
// Conditions: t feeds only the Log (not a graph output, not read in a
// subgraph). The axis attribute is copied as is: Softmax and LogSoftmax
// changed together at opset 13 (1-12: coerce to 2-D at `axis`, default 1;
// from 13: one axis, default -1), so the pair means the same in every opset.
// Opsets: 1-28.
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

fusion::Rules rules() {
  fusion::Rules r;
  // Log(Softmax(x, axis)) -> LogSoftmax(x, axis)
  fusion::addRule(r, "log_softmax", "Log(Softmax(x, axis)) -> LogSoftmax(x, axis)", {"Log"},
                  [](ir::Node& log, const MatchContext&) {
                    ir::Node* sm = producerOp(log.input(0), "Softmax");
                    if (!sm) return MatchResult::failure("the input is not produced by a Softmax");
                    if (Text why = rewrite::whyNotSoleConsumer(log.input(0)); !why.empty())
                      return MatchResult::failure(Text::of("Softmax output %1", why));
                    return MatchResult::success({&log, sm}, [&log, sm](rewrite::Rewriter& rw) {
                      ir::Node* n = fusion::addDerived(rw, "LogSoftmax", {sm->input(0)}, &log,
                                                       {sm, &log}, sm, {log.output(0)});
                      fusion::replaceAndErase(rw, log.output(0), n->output(0), {&log, sm});
                    });
                  });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseLogSoftmax() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_log_softmax"), rules());
}

}  // namespace passlab::passes
