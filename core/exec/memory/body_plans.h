// Subgraph bodies (If branches, Loop / Scan bodies, a beam search's decoder)
// run on memory plans of their own, as the main graph does (planned_block.h):
//
//   BodyPlans plans(enabled);                       // per executor
//   auto choice = plans.prepare(body, key);         // per activation of a body
//   BodyBlocks blocks;                              // per step whose kernel runs bodies
//   blocks.blockFor(body, choice.layout, arena)     // the block, reused across iterations
//   plans.recorded(body, key, bytes)                // after an activation that recorded
//
// A body is planned once per shape signature (`key`: the element types and
// dims of its formal inputs and of the outer values it reads): ahead when
// every size follows from its value types, otherwise from the bytes its first
// activation with that signature wrote (that activation runs on the Arena).
// The plan holds the tensors the body's steps write except its outputs and the
// values its outputs view (view_ops.h): those go to the Arena, because the node
// running the body keeps them past the activation (a Loop's carried values and
// scan outputs, an If's outputs); an unchanged tensor an output would leave in
// the block is copied out at its step (PlannedBlock::settle). Formal inputs and outer
// values are never in the block, so a body never writes over them; a value an
// inner body reads lives until the node running it ends, as in the main graph.
// The block of one step's kernel is reused by that kernel's next activations
// of the body when nothing holds it any more (every value of the previous
// activation was released or copied out), else a new one is taken.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/exec/arena.h"
#include "core/exec/compiled_graph.h"
#include "core/exec/memory/execution_memory.h"
#include "core/exec/memory/memory_plan.h"
#include "core/exec/memory/planned_block.h"

namespace passlab::exec::memory {

// The plan options for a body: as for the executor's main graph, less its
// outputs (see above).
PlanOptions bodyPlanOptions(const CompiledGraph& body);

// Appends a value's kind, element type and dims to a shape signature.
void appendShapeKey(const Value& v, std::vector<int64_t>& key);

// One plan a body ran on, or why it has none.
struct BodyPlanInfo {
  const CompiledGraph* body = nullptr;
  bool planned = false;
  PlanSource source = PlanSource::kNone;  // kAhead or kRunTime
  MemoryPlan plan;                        // the last one made, when planned
  int signatures = 0;                     // shape signatures seen
  std::string note;                       // why not planned
};

class BodyPlans {
 public:
  explicit BodyPlans(bool enabled) : enabled_(enabled) {}

  struct Choice {
    std::shared_ptr<const BlockLayout> layout;  // null: the Arena
    bool record = false;                        // record the bytes each value holds
  };
  Choice prepare(const CompiledGraph& body, const std::vector<int64_t>& key);
  // After an activation that recorded: plans from `bytes` for the next ones.
  void recorded(const CompiledGraph& body, const std::vector<int64_t>& key,
                const std::vector<uint64_t>& bytes);
  // The outer values `body`'s steps read (depth > 0), for its shape signature.
  const std::vector<SlotRef>& outerReads(const CompiledGraph& body);

  // This run's counts (reset by beginRun).
  void beginRun() { run_ = {}; }
  BodyRunCounts& runCounts() { return run_; }
  const BodyRunCounts& runCounts() const { return run_; }

  // What `body` runs on; planned = false with a note when nothing.
  BodyPlanInfo info(const CompiledGraph& body) const;

  // Shape signatures a body is planned for at most; past them it runs on the
  // Arena (a Loop whose state grows every iteration).
  static constexpr int kMaxSignatures = 8;

 private:
  struct Keyed {
    std::vector<int64_t> key;
    std::shared_ptr<const BlockLayout> layout;  // null: recording, or failed
    bool failed = false;
  };
  struct PerBody {
    bool aheadTried = false;
    std::shared_ptr<const BlockLayout> ahead;
    std::vector<Keyed> keyed;
    int signatures = 0;
    bool readsKnown = false;
    std::vector<SlotRef> outerReads;
    std::optional<MemoryPlan> last;  // the last plan made
    PlanSource lastSource = PlanSource::kNone;
    std::string note;
  };
  PerBody& of(const CompiledGraph& body);
  std::shared_ptr<const BlockLayout> adopt(PerBody& b, const CompiledGraph& body,
                                           Expected<MemoryPlan> plan, PlanSource source);

  bool enabled_;
  std::unordered_map<const CompiledGraph*, PerBody> bodies_;
  BodyRunCounts run_;
};

// The blocks of the bodies one step's kernel runs, held until the step ends.
class BodyBlocks {
 public:
  // The block an activation of `body` runs on: the previous activation's when
  // it has the same layout and nothing holds it any more, else a new one from
  // `arena` (counted in `counts.blocks`); null when the Arena refuses it (the
  // memory limit): the activation runs on the Arena alone.
  PlannedBlock* blockFor(const CompiledGraph& body, std::shared_ptr<const BlockLayout> layout,
                         Arena& arena, BodyRunCounts& counts);

 private:
  struct Held {
    const CompiledGraph* body = nullptr;
    std::shared_ptr<const BlockLayout> layout;
    std::unique_ptr<PlannedBlock> block;
  };
  std::vector<Held> held_;
};

}  // namespace passlab::exec::memory
