// Calibration data: input sets read from a folder (checked against the
// model's inputs, with errors that name the set, the input and what the model
// expects), synthesized sets, and the evaluator that runs the model on them
// and hands over the values a pass asked for, one set at a time.
#include "core/pipeline/calibration.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/io/npy.h"
#include "core/io/text_format.h"

namespace passlab::pipeline {
namespace {

namespace fs = std::filesystem;

const char* kModel = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3] x, float[N,2] s) => (float[1,3] y) {
    r = Relu(x)
    y = Neg(r) })";

ir::Model parse(const char* text) {
  auto m = io::parseModelText(text);
  EXPECT_TRUE(m) << m.error().message();
  return std::move(m.value());
}

ir::Tensor floats(std::vector<int64_t> dims, std::vector<float> v) {
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, std::move(dims), v);
}

class CalibrationData : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("passlab_calibration_" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& set, const std::string& file, const ir::Tensor& t) {
    fs::create_directories(dir_ / set);
    ASSERT_TRUE(io::writeNpy((dir_ / set / file).string(), t).isOk());
  }

  fs::path dir_;
};

TEST_F(CalibrationData, SubfoldersAreSetsInNameOrder) {
  write("b", "input_0.npy", floats({1, 3}, {4, 5, 6}));
  write("b", "input_1.npy", floats({2, 2}, {0, 0, 0, 0}));
  write("a", "input_0.npy", floats({1, 3}, {1, 2, 3}));
  write("a", "input_1.npy", floats({5, 2}, std::vector<float>(10, 1)));  // N = 5: symbolic
  ir::Model m = parse(kModel);
  auto sets = readCalibrationSets(m, dir_.string());
  ASSERT_TRUE(sets) << sets.error().message();
  ASSERT_EQ(sets->size(), 2u);
  EXPECT_EQ((*sets)[0][0].first, "x");
  EXPECT_EQ((*sets)[0][0].second.tensor().data<float>()[0], 1);
  EXPECT_EQ((*sets)[1][0].second.tensor().data<float>()[0], 4);
  EXPECT_EQ((*sets)[0][1].first, "s");
}

TEST_F(CalibrationData, AFolderWithInputFilesIsOneSet) {
  write(".", "input_0.npy", floats({1, 3}, {1, 2, 3}));
  write(".", "input_1.npy", floats({1, 2}, {1, 2}));
  auto sets = readCalibrationSets(parse(kModel), dir_.string());
  ASSERT_TRUE(sets) << sets.error().message();
  EXPECT_EQ(sets->size(), 1u);
}

TEST_F(CalibrationData, AWrongShapeNamesTheInputAndWhatTheModelExpects) {
  write("a", "input_0.npy", floats({1, 4}, {1, 2, 3, 4}));
  write("a", "input_1.npy", floats({1, 2}, {1, 2}));
  auto sets = readCalibrationSets(parse(kModel), dir_.string());
  ASSERT_FALSE(sets);
  const std::string msg = sets.error().message();
  EXPECT_NE(msg.find("input 'x' is float[1,4]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expects float[1,3]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("input_0.npy"), std::string::npos) << msg;
}

TEST_F(CalibrationData, AWrongElementTypeIsRefused) {
  write("a", "input_0.npy",
        ir::Tensor::fromVector<int64_t>(ir::DataType::kInt64, {1, 3}, {1, 2, 3}));
  write("a", "input_1.npy", floats({1, 2}, {1, 2}));
  auto sets = readCalibrationSets(parse(kModel), dir_.string());
  ASSERT_FALSE(sets);
  EXPECT_NE(sets.error().message().find("int64[1,3]"), std::string::npos) << sets.error().message();
}

TEST_F(CalibrationData, AMissingOrExtraInputIsRefused) {
  write("a", "input_0.npy", floats({1, 3}, {1, 2, 3}));
  auto missing = readCalibrationSets(parse(kModel), dir_.string());
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("no input_1.pb or .npy for input 's'"),
            std::string::npos)
      << missing.error().message();
  write("a", "input_1.npy", floats({1, 2}, {1, 2}));
  write("a", "input_2.npy", floats({1, 2}, {1, 2}));
  auto extra = readCalibrationSets(parse(kModel), dir_.string());
  ASSERT_FALSE(extra);
  EXPECT_NE(extra.error().message().find("the model has 2 inputs"), std::string::npos)
      << extra.error().message();
}

TEST_F(CalibrationData, AnEmptyOrAbsentFolderIsRefused) {
  auto empty = readCalibrationSets(parse(kModel), dir_.string());
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message().find("holds no input set"), std::string::npos);
  auto absent = readCalibrationSets(parse(kModel), (dir_ / "nothing").string());
  ASSERT_FALSE(absent);
  EXPECT_NE(absent.error().message().find("is not a folder"), std::string::npos);
}

TEST(CalibratingEvaluator, HandsOverEachAskedValueOnceForEverySet) {
  ir::Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3] x) => (float[1,3] y) {
    r = Relu(x)
    y = Neg(r) })");
  std::vector<exec::NamedInputs> sets;
  sets.push_back({{"x", exec::Value(floats({1, 3}, {-1, 2, 3}))}});
  sets.push_back({{"x", exec::Value(floats({1, 3}, {4, -5, 6}))}});
  CalibratingEvaluator eval(std::move(sets));
  EXPECT_EQ(eval.calibrationSets(), 2u);
  std::vector<std::pair<size_t, float>> seen;
  Status s = eval.observeValues(
      m, {"r", "y"},
      [&](size_t k, const ir::Tensor& t) {
        seen.emplace_back(k, t.data<float>()[0] + t.data<float>()[1] + t.data<float>()[2]);
        return Status::ok();
      },
      nullptr);
  ASSERT_TRUE(s.isOk()) << s.message();
  ASSERT_EQ(seen.size(), 4u);
  std::vector<std::pair<size_t, float>> want{{0, 5}, {1, -5}, {0, 10}, {1, -10}};
  std::sort(seen.begin(), seen.end(), [](auto& a, auto& b) { return a.second < b.second; });
  std::sort(want.begin(), want.end(), [](auto& a, auto& b) { return a.second < b.second; });
  EXPECT_EQ(seen, want);
  // The model itself is not changed (the values are exposed on a copy).
  EXPECT_EQ(m.graph().outputs().size(), 1u);
}

TEST(CalibratingEvaluator, AnUnknownValueOrAFailingObserverStopsWithItsError) {
  ir::Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3] x) => (float[1,3] y) { y = Relu(x) })");
  CalibratingEvaluator eval(
      [](const ir::Model& model) { return synthesizedCalibrationSets(model, InputSpec{}, 3); }, 3);
  Status unknown = eval.observeValues(
      m, {"nope"}, [](size_t, const ir::Tensor&) { return Status::ok(); }, nullptr);
  ASSERT_FALSE(unknown.isOk());
  EXPECT_NE(unknown.message().find("no value 'nope'"), std::string::npos) << unknown.message();
  int calls = 0;
  Status stopped = eval.observeValues(
      m, {"y"},
      [&](size_t, const ir::Tensor&) -> Status {
        ++calls;
        return invalidArgument("enough");
      },
      nullptr);
  EXPECT_FALSE(stopped.isOk());
  EXPECT_EQ(calls, 1);
}

TEST(CalibratingEvaluator, SynthesizedSetsDifferFromEachOther) {
  ir::Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,8] x) => (float[1,8] y) { y = Relu(x) })");
  auto sets = synthesizedCalibrationSets(m, InputSpec{}, 2);
  ASSERT_TRUE(sets) << sets.error().message();
  ASSERT_EQ(sets->size(), 2u);
  const float* a = (*sets)[0][0].second.tensor().data<float>();
  const float* b = (*sets)[1][0].second.tensor().data<float>();
  EXPECT_NE(std::vector<float>(a, a + 8), std::vector<float>(b, b + 8));
}

TEST(CalibratingEvaluator, WithoutSetsItSaysSo) {
  rewrite::Evaluator* plain = nullptr;
  ExecEvaluator constants;
  plain = &constants;
  EXPECT_EQ(plain->calibrationSets(), 0u);
  ir::Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3] x) => (float[1,3] y) { y = Relu(x) })");
  Status s = plain->observeValues(
      m, {"y"}, [](size_t, const ir::Tensor&) { return Status::ok(); }, nullptr);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("no calibration data"), std::string::npos);
}

}  // namespace
}  // namespace passlab::pipeline
