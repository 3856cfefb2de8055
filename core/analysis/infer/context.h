// What an inference rule sees of one node: its input types, tracked input
// values, attributes and opset, and where it puts output types and values.
// Rules never touch the graph: the driver merges their results into the values
// (keeping declared types unless asked to replace them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/sym_int.h"
#include "core/ir/graph.h"
#include "core/ir/node.h"

namespace passlab::analysis::infer {

// A small integer tensor whose elements are tracked (shapes, indices, sizes).
struct KnownValue {
  ir::DataType dtype = ir::DataType::kInt64;
  std::vector<int64_t> dims;  // the tensor's own shape; {} is a scalar
  std::vector<SymInt> elems;  // row-major, product(dims) elements

  static KnownValue vector(std::vector<SymInt> elems, ir::DataType dtype = ir::DataType::kInt64);
  static KnownValue scalar(SymInt v, ir::DataType dtype = ir::DataType::kInt64);
  // The elements as numbers, when all are known numbers.
  std::optional<std::vector<int64_t>> numbers() const;
};

// Driver state shared by the contexts of one inference run (defined by the driver).
class Session {
 public:
  virtual ~Session() = default;
  virtual int64_t opsetVersion(const std::string& domain) const = 0;
  virtual const KnownValue* knownValue(const ir::Value* v) = 0;
  virtual size_t maxConstantElements() const = 0;
  // Infers a subgraph with its inputs bound to `inputs` (an undefined type keeps
  // what the body declares) and returns the types of its outputs. Visiting the
  // same body again first restores the types it had before the first visit, so
  // a rule may infer a body twice (loop-carried shapes that change). A body that
  // provably never runs (the other branch of an If whose condition is known)
  // is still typed, but its failures are not reported.
  virtual std::vector<ir::Type> inferSubgraph(ir::Graph& body, const std::vector<ir::Type>& inputs,
                                              bool neverRuns = false) = 0;
};

class InferContext {
 public:
  InferContext(Session& session, ir::Node& node);

  const ir::Node& node() const { return node_; }
  // Imported version of the node's domain.
  int64_t opset() const { return opset_; }
  Session& session() { return session_; }

  // ---- inputs (an omitted optional input has an undefined type) ----
  size_t inputCount() const { return node_.inputCount(); }
  bool hasInput(size_t i) const { return node_.input(i) != nullptr; }
  const ir::Type& inputType(size_t i) const;
  ir::DataType inputElem(size_t i) const { return inputType(i).elemType(); }
  // The input's shape, or nullptr when its rank is unknown (or it is omitted).
  const ir::Shape* inputShape(size_t i) const;
  // Tracked integer elements of the input, or nullptr.
  const KnownValue* inputValue(size_t i) const;
  // The input's elements as numbers, when every one is known.
  std::optional<std::vector<int64_t>> inputInts(size_t i) const;
  // Constant data of the input: an initializer or a Constant node's tensor.
  const ir::Tensor* inputConstant(size_t i) const;

  // ---- outputs (start from the types the op schema gives) ----
  size_t outputCount() const { return node_.outputCount(); }
  bool hasOutput(size_t i) const { return node_.output(i) != nullptr; }
  const ir::Type& outputType(size_t i) const;
  void setOutputType(size_t i, ir::Type t);
  // Sets the element type, keeping the shape inferred so far.
  void setOutputElem(size_t i, ir::DataType elem);
  // Sets a tensor shape, keeping the element type inferred so far.
  void setOutputShape(size_t i, ir::Shape shape);
  void setOutput(size_t i, ir::DataType elem, std::optional<ir::Shape> shape);
  // Tracks the output's elements (ignored past the size limit).
  void setOutputValue(size_t i, KnownValue v);

  // ---- failures: recorded as "<node>: message"; the rule should then return ----
  void fail(const std::string& message);
  bool failed() const { return !failures_.empty(); }

  // Normalises a possibly negative axis into [0, rank); fails (and returns
  // nullopt) when it is out of range.
  std::optional<int64_t> axis(int64_t axis, int64_t rank, std::string_view what = "axis");
  // Attribute helpers (fallback when absent).
  int64_t attrInt(std::string_view name, int64_t fallback) const;
  std::vector<int64_t> attrInts(std::string_view name) const { return node_.attrInts(name); }
  std::string attrString(std::string_view name, std::string fallback) const;
  bool hasAttr(std::string_view name) const { return node_.hasAttr(name); }
  ir::Graph* attrGraph(std::string_view name) const;

  // Used by the driver.
  std::vector<ir::Type>& outputTypes() { return outTypes_; }
  std::vector<std::optional<KnownValue>>& outputValues() { return outValues_; }
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  Session& session_;
  ir::Node& node_;
  int64_t opset_;
  std::vector<ir::Type> outTypes_;
  std::vector<std::optional<KnownValue>> outValues_;
  std::vector<std::string> failures_;
};

}  // namespace passlab::analysis::infer
