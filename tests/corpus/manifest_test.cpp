// The loader sees every node MANIFEST.tsv lists, in the main graph and in
// subgraphs, and the summary of each corpus model is complete.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "core/analysis/model_summary.h"
#include "core/io/model_io.h"
#include "core/support/strings.h"
#include "tests/support/test_support.h"

namespace passlab {
namespace {

struct ManifestRow {
  std::string file;
  size_t nodes = 0, nodesInclSubgraphs = 0;
};

std::vector<ManifestRow> readManifest(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  auto header = str::split(line, '\t');
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  std::vector<ManifestRow> rows;
  while (std::getline(in, line)) {
    auto f = str::split(line, '\t');
    if (f.size() < header.size()) continue;
    rows.push_back({f[col["file"]], std::stoul(f[col["node_count"]]),
                    std::stoul(f[col["nodes_incl_subgraphs"]])});
  }
  return rows;
}

TEST(Manifest, NodeCountsMatch) {
  PASSLAB_REQUIRE_CORPUS();
  auto rows = readManifest(*testing::corpusDir() + "/MANIFEST.tsv");
  ASSERT_GT(rows.size(), 20u);
  for (const auto& row : rows) {
    SCOPED_TRACE(row.file);
    auto r = io::loadModel(*testing::corpusDir() + "/" + row.file);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->report.fileNodes, row.nodes);
    EXPECT_EQ(r->report.fileNodesInclSubgraphs, row.nodesInclSubgraphs);
    // The IR holds every node unless a repair removed a duplicate definition.
    size_t inIr = r->model.graph().nodeCountRecursive();
    bool removedDuplicates = false;
    for (const auto& rep : r->report.repairs)
      removedDuplicates |= rep.find("two Constant nodes") != std::string::npos;
    if (removedDuplicates)
      EXPECT_LT(inIr, row.nodesInclSubgraphs);
    else
      EXPECT_EQ(inIr, row.nodesInclSubgraphs);
  }
}

TEST(Manifest, SummaryOfEveryModel) {
  PASSLAB_REQUIRE_CORPUS();
  for (const auto& path : testing::corpusModels()) {
    SCOPED_TRACE(path);
    auto r = io::loadModel(path);
    ASSERT_TRUE(r) << r.error().message();
    analysis::ModelSummary s = analysis::summarize(r->model);
    size_t counted = 0;
    for (const auto& c : s.ops) counted += c.topLevel + c.inSubgraphs;
    EXPECT_EQ(counted, s.nodes + s.nodesInSubgraphs);
    EXPECT_FALSE(s.outputs.empty());
    // winml_squeezenet (opset 7) carries its class labels in a string Constant;
    // Constant accepts strings only from opset 9, so the verifier must say so.
    // Every other corpus model is valid.
    if (path.find("winml_squeezenet") != std::string::npos) {
      ASSERT_EQ(s.verifierErrors.size(), 1u);
      EXPECT_NE(s.verifierErrors[0].find("'ClassLabels' has type tensor(string), not allowed"),
                std::string::npos)
          << s.verifierErrors[0];
    } else {
      EXPECT_TRUE(s.verifierErrors.empty()) << s.verifierErrors.front();
    }
  }
}

}  // namespace
}  // namespace passlab
