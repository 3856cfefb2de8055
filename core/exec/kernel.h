// The kernel interface: how an operator implementation plugs into the executor.
//
// A kernel is an object bound to one node. Its factory runs once, when the
// executor is created (or when a node first sees a new element type): it reads
// the attributes, checks them, and may pre-pack constant inputs (weights).
// `run` is then called once per execution with the node's runtime inputs.
//
// Registration is one row in the table of the kernel's family file under
// core/exec/cpu/ (elementwise_binary.cpp, conv_onednn.cpp, ...):
//
//   {"", "Relu", 14, kOpsetMax, types::kSignedNumeric, 0, Tier::kReference,
//    "cpu.Relu", makeKernel<ReluKernel>},
//
// That row is the only edit: the family's table is listed once in
// core/exec/cpu/cpu_kernels.cpp, and the registry test checks every row.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/exec/dtype_traits.h"
#include "core/exec/value.h"
#include "core/ir/node.h"
#include "core/support/error.h"

namespace passlab::exec {

class CompiledGraph;  // a subgraph prepared for running (If branches, Loop/Scan bodies)

// What a kernel factory is given.
class KernelBuild {
 public:
  KernelBuild(const ir::Node& node, int64_t opset, ir::DataType dtype)
      : node_(node), opset_(opset), dtype_(dtype) {}
  virtual ~KernelBuild() = default;

  const ir::Node& node() const { return node_; }
  // The version of the node's domain the model imports.
  int64_t opset() const { return opset_; }
  // The element type of the row's dispatch input; kUndefined for rows that take any type.
  ir::DataType dtype() const { return dtype_; }
  // The data of input i when it is constant for every run (an initializer or a
  // Constant node's value), for pre-packing; nullptr otherwise.
  virtual const ir::Tensor* constantInput(size_t i) const { return nullptr; }
  // Prepares the graph held by attribute `attr` (If/Loop/Scan) for running.
  virtual Expected<const CompiledGraph*> subgraph(std::string_view attr) const {
    return unsupported("subgraphs cannot be run here");
  }

 private:
  const ir::Node& node_;
  int64_t opset_;
  ir::DataType dtype_;
};

// What a kernel sees while it runs.
class KernelContext {
 public:
  virtual ~KernelContext() = default;

  // ---- inputs ----
  virtual size_t inputCount() const = 0;
  // Input i, or nullptr when omitted (an optional input given as "", or i >= inputCount()).
  virtual const Value* value(size_t i) const = 0;
  // Present and not an empty optional.
  bool has(size_t i) const {
    const Value* v = value(i);
    return v != nullptr && !v->isNone();
  }
  // Tensor input i. Only for present inputs: unless the row has kValueInputs,
  // the executor has checked that every present input is a tensor.
  const Tensor& input(size_t i) const { return value(i)->tensor(); }
  // True when input i holds the same dims and values on every run of this
  // executor (Invariance in compiled_graph.h: an initializer, a Constant, or a
  // value computed from such by deterministic nodes; initializers the caller
  // may override only on runs where it does not). A kernel may then keep what
  // it derives from the input (packed weights) for the next runs of this node;
  // it must not when this is false.
  virtual bool invariantInput(size_t i) const { return false; }
  // The kernel says it holds its own copy of invariant input i (weights
  // reordered into its layout) that serves every later run on which
  // invariantInput(i) is true, so on those runs it reads only input i's dtype
  // and dims, never its data. When every reader of a kept value has said so,
  // the executor frees the value's data (kept_values.h) and binds
  // Tensor::withoutData() in its place; a run where invariantInput(i) is
  // false gives the kernel the data as usual, and the kernel must leave its
  // held copy intact then. Ignored for an input that is not invariant.
  virtual void holdsOwnCopy(size_t i) {}

  // ---- outputs ----
  virtual size_t outputCount() const = 0;
  // False for omitted optional outputs: the kernel may skip them.
  virtual bool wantsOutput(size_t i) const = 0;
  // A new tensor for output i (contents undefined, strings empty). Fails with a
  // kLimit error when the memory limit would be passed.
  virtual Expected<Tensor*> allocate(size_t i, ir::DataType dtype, Dims dims) = 0;
  // Output i is `v` (a view of an input, a constant, a sequence, ...).
  virtual void setOutput(size_t i, Value v) = 0;
  // Working memory for this call, counted against the memory limit.
  virtual Expected<Tensor> scratch(ir::DataType dtype, Dims dims) = 0;

  // ---- the run ----
  // Threads the kernel may use (OpenMP, the runtime oneDNN uses too).
  virtual int threads() const = 0;
  virtual bool cancelled() const = 0;
  // Loops stop with an error after this many iterations.
  virtual int64_t maxLoopIterations() const = 0;
  // Runs a subgraph with `inputs` bound to its formal inputs; returns its outputs.
  virtual Expected<std::vector<Value>> runSubgraph(const CompiledGraph& graph,
                                                   std::vector<Value> inputs) {
    return unsupported("subgraphs cannot be run here");
  }
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  // Computes the outputs. Errors say what is wrong ("index 7 is out of range
  // [-5, 5)"); the executor adds which node it was.
  virtual Status run(KernelContext& ctx) = 0;
};

enum class Tier : uint8_t {
  kReference,  // simple and obviously right; kept for tests
  kOptimized,  // preferred when present; may decline a configuration (kUnsupported)
};

inline constexpr int kOpsetMax = 1 << 30;
inline constexpr int kAnyType = -1;  // typeInput of rows that take any element type

enum KernelFlags : uint32_t {
  kNoFlags = 0,
  kValueInputs = 1u << 0,  // reads sequences, maps or optionals
  // Output 0 may be written over the memory of an input of its size: element
  // i of the output depends only on element i of that input, read before it
  // is written (the memory plan lets such a step run in place).
  kInPlace = 1u << 1,
};

using KernelFactory = Expected<std::unique_ptr<Kernel>> (*)(const KernelBuild&);

// One row of the kernel table.
struct KernelDef {
  std::string_view domain;  // "" = ai.onnx, "ai.onnx.ml", "com.microsoft"
  std::string_view op;
  int since;  // first opset version this row implements
  int until;  // last one (inclusive), kOpsetMax when current
  TypeSet types;
  int typeInput;  // the input whose element type selects the row, or kAnyType
  Tier tier;
  std::string_view name;  // shown in profiles: "onednn.Conv", "cpu.Add"
  KernelFactory create;
  uint32_t flags = kNoFlags;
};

// Factory for a kernel class K: K::create(build) when K declares it, else K(build), else K().
template <class K>
Expected<std::unique_ptr<Kernel>> makeKernel(const KernelBuild& b) {
  if constexpr (requires { K::create(b); }) {
    return K::create(b);
  } else if constexpr (std::is_constructible_v<K, const KernelBuild&>) {
    return std::unique_ptr<Kernel>(std::make_unique<K>(b));
  } else {
    return std::unique_ptr<Kernel>(std::make_unique<K>());
  }
}

}  // namespace passlab::exec

// Propagates an error from an Expected and otherwise binds its value:
//   PASSLAB_ASSIGN_OR_RETURN(Tensor* y, ctx.allocate(0, dtype, dims));
#define PASSLAB_EXEC_CONCAT_INNER(a, b) a##b
#define PASSLAB_EXEC_CONCAT(a, b) PASSLAB_EXEC_CONCAT_INNER(a, b)
#define PASSLAB_ASSIGN_OR_RETURN(decl, expr)                         \
  auto PASSLAB_EXEC_CONCAT(passlab_expected_, __LINE__) = (expr);    \
  if (!PASSLAB_EXEC_CONCAT(passlab_expected_, __LINE__).isOk())      \
    return PASSLAB_EXEC_CONCAT(passlab_expected_, __LINE__).error(); \
  decl = std::move(PASSLAB_EXEC_CONCAT(passlab_expected_, __LINE__)).value()
