// Loading and saving ONNX models. This module is the only code that sees the
// protobuf messages; everything else works on ir::Model.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/model.h"
#include "core/support/error.h"

namespace passlab::io {

struct LoadOptions {
  // Repair what is recoverable (unsorted nodes, "ai.onnx" spelled out, a used
  // domain without an opset import, value_info without a type, -1 dims) and
  // report it; when false such files are rejected.
  bool repair = true;
};

struct LoadReport {
  std::vector<std::string> repairs;   // what was fixed while loading
  std::vector<std::string> warnings;  // accepted, but worth knowing
  // Nodes as written in the file (repairs may remove duplicates).
  size_t fileNodes = 0;               // main graph
  size_t fileNodesInclSubgraphs = 0;  // main graph and all subgraphs
};

struct LoadedModel {
  ir::Model model;
  LoadReport report;
};

// Loads a model file. External data is mapped from files beside it, never
// outside its folder. Errors name the file and the problem.
Expected<LoadedModel> loadModel(const std::string& path, const LoadOptions& options = {});
// Loads from bytes; `baseDir` resolves external data ("" forbids it);
// `displayName` is used in messages.
Expected<LoadedModel> loadModelFromBytes(std::string_view bytes, const std::string& baseDir,
                                         const std::string& displayName,
                                         const LoadOptions& options = {});

struct SaveOptions {
  enum class External {
    kAsLoaded,  // tensors loaded from external data stay external, others inline
    kAll,       // every tensor of at least `externalThreshold` bytes goes external
    kNone,      // everything inline (fails past the 2 GiB protobuf limit)
  };
  External external = External::kAsLoaded;
  uint64_t externalThreshold = 1024;
  // File name (in the model's folder) for external data. Default
  // "<model file>.data", or "<model file>.1.data" when the file being
  // replaced reads the first (so a save killed part-way leaves the old model
  // with its old data); the one no longer read is removed after the save. A
  // name given here is written in place, without that protection.
  std::string externalFileName;
  // Move tensors out automatically when their bytes would pass this limit
  // (protobuf cannot hold files over 2 GiB; 64 MiB are left for the graph).
  bool autoExternalOver2GiB = true;
  uint64_t autoExternalLimitBytes = (2ull << 30) - (64ull << 20);
  // Write value_info for every typed intermediate value (not only those the file declared).
  bool writeAllValueInfo = false;
  // Called after each stage of the save: "model written" (the temporary
  // files are complete), "data committed", "model committed". For progress
  // and for tests that stop the process part-way.
  std::function<void(std::string_view stage)> onStage;
};

// Saves atomically: data goes to temporary files in the target folder that are
// renamed into place only when complete.
Status saveModel(const ir::Model& model, const std::string& path, const SaveOptions& options = {});
// Serializes with all tensors inline (for tests, hashing, in-memory hand-off).
Expected<std::string> serializeModel(const ir::Model& model, const SaveOptions& options = {});

}  // namespace passlab::io
