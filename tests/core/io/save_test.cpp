// Saving: atomic replacement, external data written and mapped back, automatic
// externalisation past the protobuf limit.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/io/model_io.h"
#include "core/io/text_format.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;

namespace passlab::io {
namespace {

ir::Model modelWithWeights(int64_t n, float step = 0.5f) {
  ir::Model m = testing::parse("main (float[N] x) => (float[N] y) { y = Relu(x) }");
  std::vector<float> w(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) w[static_cast<size_t>(i)] = static_cast<float>(i) * step;
  auto& g = m.graph();
  ir::Value* wv = g.addInitializer("w", ir::Tensor::fromVector(ir::DataType::kFloat, {n}, w));
  ir::Value* small =
      g.addInitializer("b", ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2}, {1, 2}));
  ir::Node* add = g.addNode("Add", "", {g.findValue("y"), wv}, {"z"});
  ir::Node* add2 = g.addNode("Add", "", {add->output(0), small}, {"z2"});
  g.addOutput(add2->output(0));
  return m;
}

std::vector<std::string> filesIn(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Save, ExternalDataRoundTripIsMapped) {
  std::string dir = testing::tempDir();
  ir::Model m = modelWithWeights(1000);
  SaveOptions o;
  o.external = SaveOptions::External::kAll;
  o.externalThreshold = 1024;
  ASSERT_TRUE(saveModel(m, dir + "/m.onnx", o));
  EXPECT_EQ(filesIn(dir),
            (std::vector<std::string>{"m.onnx", "m.onnx.data"}));  // no temp files left
  auto r = loadModel(dir + "/m.onnx");
  ASSERT_TRUE(r) << r.error().message();
  const ir::Tensor* w = r->model.graph().findValue("w")->initializer();
  EXPECT_TRUE(w->buffer()->isMapped());
  EXPECT_EQ(w->data<float>()[999], 499.5f);
  const ir::Tensor* b = r->model.graph().findValue("b")->initializer();
  EXPECT_FALSE(b->buffer()->isMapped());  // below the threshold: inline

  // Saving again over the same files, while their data is mapped, keeps the values.
  ASSERT_TRUE(saveModel(r->model, dir + "/m.onnx"));
  auto again = loadModel(dir + "/m.onnx");
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_EQ(again->model.graph().findValue("w")->initializer()->data<float>()[999], 499.5f);
}

TEST(Save, GoesExternalAutomaticallyPastTheLimit) {
  std::string dir = testing::tempDir();
  ir::Model m = modelWithWeights(4096);
  SaveOptions o;
  o.autoExternalLimitBytes = 8000;  // stands in for protobuf's 2 GiB
  ASSERT_TRUE(saveModel(m, dir + "/big.onnx", o));
  EXPECT_TRUE(fs::exists(dir + "/big.onnx.data"));
  EXPECT_LT(fs::file_size(dir + "/big.onnx"), 4096u);
  auto r = loadModel(dir + "/big.onnx");
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->model.graph().findValue("w")->initializer()->data<float>()[4095], 2047.5f);
}

TEST(Save, FailedSaveLeavesTheTargetUntouched) {
  std::string dir = testing::tempDir();
  std::string target = dir + "/keep.onnx";
  std::ofstream(target) << "original";
  ir::Model m = modelWithWeights(10);
  SaveOptions o;
  o.external = SaveOptions::External::kNone;
  o.autoExternalOver2GiB = false;
  // Saving into a folder that does not exist fails cleanly.
  EXPECT_FALSE(saveModel(m, dir + "/missing/sub/m.onnx", o));
  // A successful save replaces the file atomically; no temp files remain.
  ASSERT_TRUE(saveModel(m, target, o));
  EXPECT_EQ(filesIn(dir), (std::vector<std::string>{"keep.onnx"}));
  EXPECT_TRUE(loadModel(target));
}

// The weights of the model at `path` are all i * step (false if it does not
// load or any weight differs).
bool holdsWeights(const std::string& path, int64_t n, float step) {
  auto r = loadModel(path);
  if (!r) return false;
  const ir::Value* w = r->model.graph().findValue("w");
  if (!w || !w->initializer() || w->initializer()->numel() != n) return false;
  auto data = w->initializer()->data<float>();
  for (int64_t i = 0; i < n; ++i)
    if (data[static_cast<size_t>(i)] != static_cast<float>(i) * step) return false;
  return true;
}

// Saves `m` to `path` in a child process that kills itself with SIGKILL
// right after `stage` (or, with an empty stage, is killed by the parent
// after `delay`). True when the child died by SIGKILL.
bool saveKilledAt(const ir::Model& m, const std::string& path, SaveOptions o,
                  const std::string& stage, std::chrono::microseconds delay = {}) {
  pid_t child = fork();
  if (child == 0) {
    o.onStage = [&](std::string_view s) {
      if (s == stage) ::raise(SIGKILL);
    };
    for (;;) (void)saveModel(m, path, o);  // saves until killed
  }
  if (stage.empty()) {
    std::this_thread::sleep_for(delay);
    ::kill(child, SIGKILL);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

TEST(Save, ASaveKilledAtAnyStageLeavesThePreviousModelAndItsData) {
  std::string dir = testing::tempDir();
  std::string target = dir + "/m.onnx";
  const int64_t n = 4096;
  SaveOptions o;
  o.external = SaveOptions::External::kAll;
  ASSERT_TRUE(saveModel(modelWithWeights(n, 0.5f), target, o));
  ir::Model next = modelWithWeights(n, 0.25f);  // the same layout, other values
  for (const char* stage : {"model written", "data committed"}) {
    SCOPED_TRACE(stage);
    ASSERT_TRUE(saveKilledAt(next, target, o, stage));
    EXPECT_TRUE(holdsWeights(target, n, 0.5f));  // the old model with its old data
  }
  // Killed after the new model is in place: the new model with its new data.
  ASSERT_TRUE(saveKilledAt(next, target, o, "model committed"));
  EXPECT_TRUE(holdsWeights(target, n, 0.25f));
  // Saves alternate between two data files; the one no longer read goes.
  ASSERT_TRUE(saveModel(modelWithWeights(n, 0.5f), target, o));
  ASSERT_TRUE(saveModel(next, target, o));
  EXPECT_TRUE(holdsWeights(target, n, 0.25f));
  // Left: the model and the data it reads (and the temporary files of the
  // killed saves: another process may still be writing such a file, so no
  // save removes them).
  std::vector<std::string> kept;
  for (const std::string& f : filesIn(dir))
    if (f.find(".tmp-") == std::string::npos) kept.push_back(f);
  EXPECT_EQ(kept, (std::vector<std::string>{"m.onnx", "m.onnx.1.data"}));
}

TEST(Save, AnInlineSaveKilledAtRandomTimesLeavesAWholeModel) {
  std::string dir = testing::tempDir();
  std::string target = dir + "/inline.onnx";
  const int64_t n = 1 << 21;  // 8 MiB of weights: the write takes a while
  SaveOptions o;
  o.external = SaveOptions::External::kNone;
  ASSERT_TRUE(saveModel(modelWithWeights(n, 0.5f), target, o));
  ir::Model next = modelWithWeights(n, 0.25f);
  int old = 0, fresh = 0;
  for (int k = 0; k < 8; ++k) {
    ASSERT_TRUE(saveKilledAt(next, target, o, "", std::chrono::microseconds(2000 + 3000 * k)));
    const bool isOld = holdsWeights(target, n, 0.5f);
    const bool isNew = !isOld && holdsWeights(target, n, 0.25f);
    EXPECT_TRUE(isOld || isNew) << "kill " << k << " left a broken model";
    old += isOld;
    fresh += isNew;
  }
  std::printf("killed saves: %d left the old model, %d the new one\n", old, fresh);
}

TEST(Save, SerializeMatchesFileAndKeepsMetadata) {
  ir::Model m = modelWithWeights(4);
  m.producerName = "passlab-test";
  m.metadata.emplace_back("author", "me");
  m.docString = "doc";
  auto bytes = serializeModel(m);
  ASSERT_TRUE(bytes);
  auto r = loadModelFromBytes(*bytes, "", "memory");
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->model.producerName, "passlab-test");
  EXPECT_EQ(r->model.metadata, m.metadata);
  EXPECT_EQ(r->model.docString, "doc");
}

}  // namespace
}  // namespace passlab::io
