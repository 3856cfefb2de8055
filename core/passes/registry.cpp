#include "core/passes/registry.h"

#include <memory>

#include "core/passes/pass_list.h"

namespace passlab::passes {

#define PASSLAB_DECLARE_FACTORY(factory) std::unique_ptr<Pass> factory();
PASSLAB_PASSES(PASSLAB_DECLARE_FACTORY)
#undef PASSLAB_DECLARE_FACTORY

namespace {

const std::vector<std::unique_ptr<Pass>>& owned() {
  static const std::vector<std::unique_ptr<Pass>> passes = [] {
    std::vector<std::unique_ptr<Pass>> v;
#define PASSLAB_MAKE(factory) v.push_back(factory());
    PASSLAB_PASSES(PASSLAB_MAKE)
#undef PASSLAB_MAKE
    return v;
  }();
  return passes;
}

struct Level {
  const char* name;
  std::vector<std::string> passes;
};

const std::vector<Level>& levels() {
  static const std::vector<Level> kLevels = {
      // Constants first (they feed the x*1 and shape rules), then the four kinds of
      // redundant node, then merging what became equal, then sweeping what is unused.
      {"basic",
       {"eliminate_identity_ops", "fold_constants", "eliminate_noop_ops", "eliminate_inverse_pairs",
        "simplify_op_chains", "deduplicate_initializers", "eliminate_common_subexpressions",
        "eliminate_dead_nodes"}},
  };
  return kLevels;
}

}  // namespace

const std::vector<const Pass*>& allPasses() {
  static const std::vector<const Pass*> ptrs = [] {
    std::vector<const Pass*> v;
    for (const auto& p : owned()) v.push_back(p.get());
    return v;
  }();
  return ptrs;
}

const Pass* findPass(std::string_view id) {
  for (const Pass* p : allPasses())
    if (p->info().id == id) return p;
  return nullptr;
}

Expected<std::vector<std::string>> passesForLevel(std::string_view level) {
  if (level == "all") {
    std::vector<std::string> ids;
    for (const Pass* p : allPasses()) ids.push_back(p->info().id);
    return ids;
  }
  for (const Level& l : levels())
    if (l.name == level) return l.passes;
  return invalidArgument("unknown level '" + std::string(level) + "' (known: basic, all)");
}

std::vector<std::string> levelNames() {
  std::vector<std::string> names;
  for (const Level& l : levels()) names.push_back(l.name);
  names.push_back("all");
  return names;
}

}  // namespace passlab::passes
