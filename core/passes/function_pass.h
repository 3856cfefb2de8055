// A pass whose run is one function (typically: make a worker for the run and
// run it), for passes that are not rule tables.
#pragma once

#include <functional>
#include <utility>

#include "core/passes/pass.h"

namespace passlab::passes {

class FunctionPass final : public Pass {
 public:
  using Run = std::function<Status(PassContext&)>;
  FunctionPass(PassInfo info, Run run) : info_(std::move(info)), run_(std::move(run)) {}
  const PassInfo& info() const override { return info_; }
  Status run(PassContext& ctx) const override { return run_(ctx); }

 private:
  PassInfo info_;
  Run run_;
};

}  // namespace passlab::passes
