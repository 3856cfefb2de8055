// Calibration data: input sets read from a folder (checked against the
// model's inputs, with errors that name the set, the input and what the model
// expects), synthesized sets, and the evaluator that runs the model on them
// and hands over the values a pass asked for, one set at a time.
#include "core/pipeline/calibration.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>

#include "core/analysis/shape_inference.h"
#include "core/io/npy.h"
#include "core/io/text_format.h"
#include "core/pipeline/pass_manager.h"

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

// A source of `count` sets of a float[1,3] x, each in a buffer of its own,
// that counts how many of the sets it made are still alive when it makes one.
struct CountingSource {
  std::vector<std::weak_ptr<const ir::Buffer>> made;
  size_t mostAlive = 0;  // sets alive at once, the one being made included

  CalibrationSetSource source(size_t count) {
    CalibrationSetSource s;
    s.count = count;
    s.make = [this](const ir::Model&, size_t i) -> Expected<exec::NamedInputs> {
      size_t alive = 1;
      for (const auto& w : made) alive += !w.expired();
      mostAlive = std::max(mostAlive, alive);
      const float v = static_cast<float>(i + 1);
      ir::Tensor t = floats({1, 3}, {v, -v, 2 * v});
      made.push_back(t.buffer());
      return exec::NamedInputs{{"x", exec::Value(t)}};
    };
    return s;
  }
};

TEST(CalibratingEvaluator, MakesTheSetsOfItsSourceOneAtATime) {
  ir::Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3] x) => (float[1,3] y) {
    r = Relu(x)
    y = Neg(r) })");
  CountingSource counting;
  CalibratingEvaluator eval(counting.source(50));
  EXPECT_EQ(eval.calibrationSets(), 50u);
  double sumOfR = 0;
  size_t runs = 0;
  Status s = eval.observeValues(
      m, {"r"},
      [&](size_t, const ir::Tensor& t) {
        ++runs;
        for (int i = 0; i < 3; ++i) sumOfR += t.data<float>()[i];
        return Status::ok();
      },
      nullptr);
  ASSERT_TRUE(s.isOk()) << s.message();
  ASSERT_EQ(counting.made.size(), 50u);
  EXPECT_EQ(runs, 50u);
  EXPECT_EQ(sumOfR, 3.0 * (50 * 51 / 2));  // Relu(i, -i, 2i) summed over i = 1..50
  // Each set was dropped before the next was made: memory does not grow
  // with the count of sets.
  EXPECT_EQ(counting.mostAlive, 1u);
  for (const auto& w : counting.made) EXPECT_TRUE(w.expired());
}

TEST(CalibratingEvaluator, ASetTheSourceCannotMakeStopsWithItsError) {
  ir::Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3] x) => (float[1,3] y) { y = Relu(x) })");
  CalibrationSetSource source;
  source.count = 4;
  source.make = [](const ir::Model&, size_t i) -> Expected<exec::NamedInputs> {
    if (i == 2) return invalidArgument("set 2 is unreadable");
    return exec::NamedInputs{{"x", exec::Value(floats({1, 3}, {1, 2, 3}))}};
  };
  CalibratingEvaluator eval(std::move(source));
  int calls = 0;
  Status s = eval.observeValues(
      m, {"y"},
      [&](size_t, const ir::Tensor&) {
        ++calls;
        return Status::ok();
      },
      nullptr);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("set 2 is unreadable"), std::string::npos) << s.message();
  EXPECT_EQ(calls, 2);
}

TEST_F(CalibrationData, AFolderIsCheckedWholeUpFrontAndReadOneSetAtATime) {
  write("a", "input_0.npy", floats({1, 3}, {1, 2, 3}));
  write("a", "input_1.npy", floats({1, 2}, {0, 0}));
  write("b", "input_0.npy", floats({1, 3}, {4, 5, 6}));
  write("b", "input_1.npy", floats({1, 2}, {0, 0}));
  ir::Model m = parse(kModel);
  auto source = calibrationFolder(m, dir_.string());
  ASSERT_TRUE(source) << source.error().message();
  ASSERT_EQ(source->count, 2u);
  // A set is read when it is asked for, not held since the folder was listed.
  write("b", "input_0.npy", floats({1, 3}, {7, 8, 9}));
  auto b = source->make(m, 1);
  ASSERT_TRUE(b) << b.error().message();
  EXPECT_EQ((*b)[0].second.tensor().data<float>()[0], 7.0f);
  // A bad set anywhere is found when the folder is listed (before any pass
  // runs), named with what the model expects.
  write("c", "input_0.npy", floats({1, 3}, {1, 2, 3}));
  write("c", "input_1.npy", floats({2, 3}, {0, 0, 0, 0, 0, 0}));
  auto bad = calibrationFolder(m, dir_.string());
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("input_1.npy"), std::string::npos) << bad.error().message();
  EXPECT_NE(bad.error().message().find("the model expects float[N,2]"), std::string::npos)
      << bad.error().message();
}

// The quantized model (its scales and zero points) after quantize_static
// calibrated through `eval`.
ir::Model quantized(const char* text, CalibratingEvaluator& eval) {
  ir::Model m = parse(text);
  analysis::inferShapes(m);
  PassManager pm(m);
  pm.setEvaluator(&eval);
  Status s = pm.runAll({PassSpec{"quantize_static", {}, {}}});
  EXPECT_TRUE(s.isOk()) << s.message();
  return m;
}

// Every initializer, by name, as bytes.
std::map<std::string, std::vector<std::byte>> initializerBytes(const ir::Model& m) {
  std::map<std::string, std::vector<std::byte>> out;
  for (const ir::Value* v : m.graph().initializers()) {
    auto b = v->initializer()->bytes();
    out[v->name()] = std::vector<std::byte>(b.begin(), b.end());
  }
  return out;
}

const char* kQuantizable = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y)
    <float[4,4] w1 = {0.5, -0.25, 0.1, 0.7, -0.3, 0.5, 0.25, 0.05, 0.9, -0.1, 0.5, 0.25, 0.25, 0.3, -0.6, 0.5},
     float[4,4] w2 = {1.5, 0.2, -0.4, 0.1, 0.3, -1.1, 0.6, 0.2, -0.2, 0.4, 0.8, -0.7, 0.1, 0.9, 0.05, 1.2}> {
    h1 = MatMul(x, w1)
    r1 = Relu(h1)
    y = MatMul(r1, w2) })";

TEST(CalibratingEvaluator, SetsMadeOneAtATimeQuantizeAsSetsHeldTogether) {
  ir::Model m = parse(kQuantizable);
  auto held = synthesizedCalibrationSets(m, InputSpec{}, 7);
  ASSERT_TRUE(held) << held.error().message();
  CalibratingEvaluator together(std::move(held.value()));
  CalibratingEvaluator oneAtATime(synthesizedCalibration(InputSpec{}, 7));
  const ir::Model a = quantized(kQuantizable, together);
  const ir::Model b = quantized(kQuantizable, oneAtATime);
  const auto bytesA = initializerBytes(a);
  ASSERT_GT(bytesA.size(), initializerBytes(m).size()) << "quantize_static added no scales";
  EXPECT_EQ(bytesA, initializerBytes(b));
  // And the sets matter: calibrated on 2 of them, the scales differ.
  CalibratingEvaluator fewer(synthesizedCalibration(InputSpec{}, 2));
  EXPECT_NE(bytesA, initializerBytes(quantized(kQuantizable, fewer)));
}

TEST_F(CalibrationData, AFolderReadOneSetAtATimeQuantizesAsReadWhole) {
  for (int i = 0; i < 5; ++i) {
    const float k = 0.5f + i;
    write("set" + std::to_string(i), "input_0.npy",
          floats({2, 4}, {k, -k, 0.3f * k, 1, -0.2f, k * k, 0.1f, -1}));
  }
  ir::Model m = parse(kQuantizable);
  auto whole = readCalibrationSets(m, dir_.string());
  ASSERT_TRUE(whole) << whole.error().message();
  ASSERT_EQ(whole->size(), 5u);
  auto source = calibrationFolder(m, dir_.string());
  ASSERT_TRUE(source) << source.error().message();
  CalibratingEvaluator together(std::move(whole.value()));
  CalibratingEvaluator oneAtATime(std::move(source.value()));
  EXPECT_EQ(initializerBytes(quantized(kQuantizable, together)),
            initializerBytes(quantized(kQuantizable, oneAtATime)));
}

// Calibration data holding NaN: quantize_static's error names the input and
// the file that holds it (the tensor it saw no finite value of is deep inside
// the model), and the model is left as it was. NaN made inside the model from
// finite inputs keeps the plain message.
Status quantizeStatus(ir::Model& m, CalibratingEvaluator& eval) {
  analysis::inferShapes(m);
  PassManager pm(m);
  pm.setEvaluator(&eval);
  return pm.runAll({PassSpec{"quantize_static", {}, {}}});
}

TEST_F(CalibrationData, NanInTheDataNamesTheInputAndItsFile) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // One NaN (or infinity) in each row: x keeps finite values, h1 = x w1 has none.
  write("a", "input_0.npy", floats({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}));
  write("b", "input_0.npy", floats({2, 4}, {nan, 1, 2, 3, 4, 5, -inf, 6}));
  ir::Model finite = parse(kQuantizable);
  auto fine = calibrationFolder(finite, dir_.string());
  ASSERT_TRUE(fine) << fine.error().message();
  CalibratingEvaluator fineEval(std::move(fine.value()));
  EXPECT_EQ(fineEval.firstNonFiniteInput(finite).str(),
            "input 'x' in " + (dir_ / "b" / "input_0.npy").string());
  // Set a is finite: calibration saw finite values of every tensor, no error.
  EXPECT_TRUE(quantizeStatus(finite, fineEval).isOk());

  write("a", "input_0.npy", floats({2, 4}, {1, inf, 3, 4, 5, 6, 7, nan}));
  ir::Model m = parse(kQuantizable);
  analysis::inferShapes(m);
  const std::string before = io::printModelText(m);
  auto source = calibrationFolder(m, dir_.string());
  ASSERT_TRUE(source) << source.error().message();
  CalibratingEvaluator eval(std::move(source.value()));
  const Status s = quantizeStatus(m, eval);
  ASSERT_FALSE(s.isOk());
  const std::string msg = s.message();
  EXPECT_NE(msg.find("calibration saw no finite value of '"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("no finite value of 'x'"), std::string::npos) << msg;  // x has finite values
  EXPECT_NE(msg.find("holds NaN or infinite values (input 'x' in " +
                     (dir_ / "a" / "input_0.npy").string() + ")"),
            std::string::npos)
      << msg;
  EXPECT_EQ(io::printModelText(m), before) << "the model was changed";
}

// Only some calibration values NaN or infinite: calibration goes on with the
// finite ones (TensorStats::add), and the step's note says how many sets held
// such values, in which input and file, and how many values.
struct NoteRun {
  ir::Model model;
  Status status;
  std::string note;
};

NoteRun quantizeWithNote(const char* text, CalibratingEvaluator& eval,
                         passes::Options options = {{"method", "minmax"}}) {
  NoteRun out{parse(text), Status::ok(), ""};
  analysis::inferShapes(out.model);
  PassManager pm(out.model);
  pm.setEvaluator(&eval);
  auto step = pm.run({"quantize_static", std::move(options), {}});
  if (!step) {
    out.status = step.error();
    return out;
  }
  if ((*step)->rolledBack) out.status = invalidArgument((*step)->error);
  out.note = (*step)->note.str();
  return out;
}

TEST_F(CalibrationData, SomeNanSetsCalibrateOnTheFiniteValuesAndTheNoteSaysWhere) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // b's row 0: a NaN, then values of row 1 (its finite values are within
  // row 1's range); its NaN makes row 0 of every tensor after x NaN. Row 1
  // reaches beyond set a's range, so b's finite values matter.
  write("a", "input_0.npy", floats({2, 4}, {1, 2, 3, 4, -1, 0.5f, 2, 1}));
  write("b", "input_0.npy", floats({2, 4}, {nan, -10, 11, 12, 9, -10, 11, 12}));
  write("c", "input_0.npy", floats({2, 4}, {0.5f, 1, 1.5f, 2, 2, 1, 0.5f, 0}));
  ir::Model m = parse(kQuantizable);
  auto source = calibrationFolder(m, dir_.string());
  ASSERT_TRUE(source) << source.error().message();
  CalibratingEvaluator eval(std::move(source.value()));
  const NoteRun run = quantizeWithNote(kQuantizable, eval);
  ASSERT_TRUE(run.status.isOk()) << run.status.message();
  const std::string file = (dir_ / "b" / "input_0.npy").string();
  EXPECT_NE(
      run.note.find("calibration: 1 of 3 input sets hold NaN or infinite values (input "
                    "'x' in " +
                    file + ": 1 NaN of its 8 values): the ranges come from the finite values only"),
      std::string::npos)
      << run.note;
  EXPECT_NE(run.note.find("ops quantized to int8"), std::string::npos) << run.note;
  EXPECT_EQ(eval.takeNonFiniteNote(), "") << "the pass manager took it";

  // The same scales as with b's NaN row replaced by its finite row 1: the
  // NaN row gave nothing, the finite values of b everything they hold.
  write("b", "input_0.npy", floats({2, 4}, {9, -10, 11, 12, 9, -10, 11, 12}));
  auto finiteSource = calibrationFolder(m, dir_.string());
  ASSERT_TRUE(finiteSource) << finiteSource.error().message();
  CalibratingEvaluator finiteEval(std::move(finiteSource.value()));
  const NoteRun finite = quantizeWithNote(kQuantizable, finiteEval);
  ASSERT_TRUE(finite.status.isOk()) << finite.status.message();
  EXPECT_EQ(finite.note.find("calibration:"), std::string::npos) << finite.note;
  EXPECT_EQ(initializerBytes(run.model), initializerBytes(finite.model));
  // And b counts: without it the scales differ.
  fs::remove_all(dir_ / "b");
  auto withoutB = calibrationFolder(m, dir_.string());
  ASSERT_TRUE(withoutB) << withoutB.error().message();
  CalibratingEvaluator withoutBEval(std::move(withoutB.value()));
  EXPECT_NE(initializerBytes(run.model),
            initializerBytes(quantizeWithNote(kQuantizable, withoutBEval).model));

  // Infinities are counted apart from NaN; every set non-finite somewhere.
  write("a", "input_0.npy", floats({2, 4}, {inf, 2, 3, 4, -1, 0.5f, 2, 1}));
  write("b", "input_0.npy", floats({2, 4}, {1, 2, 3, 4, -inf, nan, 2, inf}));
  write("c", "input_0.npy", floats({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}));
  auto mixed = calibrationFolder(m, dir_.string());
  ASSERT_TRUE(mixed) << mixed.error().message();
  CalibratingEvaluator mixedEval(std::move(mixed.value()));
  const NoteRun mixedRun = quantizeWithNote(kQuantizable, mixedEval);
  ASSERT_TRUE(mixedRun.status.isOk()) << mixedRun.status.message();
  EXPECT_NE(mixedRun.note.find("calibration: 2 of 3 input sets hold NaN or infinite values (input "
                               "'x' in " +
                               (dir_ / "a" / "input_0.npy").string() +
                               ": 1 infinite of its 8 values; input 'x' in " +
                               (dir_ / "b" / "input_0.npy").string() +
                               ": 1 NaN and 2 infinite of its 8 values)"),
            std::string::npos)
      << mixedRun.note;
}

TEST_F(CalibrationData, ARolledBackStepKeepsTheNoteOnItsData) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Every row of every set NaN somewhere: no finite value of h1, an error.
  write("a", "input_0.npy", floats({2, 4}, {nan, 2, 3, 4, 5, nan, 7, 8}));
  ir::Model m = parse(kQuantizable);
  auto source = calibrationFolder(m, dir_.string());
  ASSERT_TRUE(source) << source.error().message();
  CalibratingEvaluator eval(std::move(source.value()));
  const NoteRun run = quantizeWithNote(kQuantizable, eval);
  ASSERT_FALSE(run.status.isOk());
  EXPECT_NE(run.status.message().find("calibration saw no finite value"), std::string::npos)
      << run.status.message();
  EXPECT_EQ(run.note, "calibration: 1 of 1 input sets hold NaN or infinite values (input 'x' in " +
                          (dir_ / "a" / "input_0.npy").string() +
                          ": 2 NaN of its 8 values): the ranges come from the finite values only");
}

TEST(CalibratingEvaluator, TheNoteCountsEachSetOnceListsThreeAndIsTakenOnce) {
  ir::Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3] x, int64[2] k) => (float[1,3] y) { y = Relu(x) })");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<exec::NamedInputs> sets;
  for (int i = 0; i < 6; ++i) {
    const float v = i == 0 ? 1.0f : nan;  // set 0 finite, 1..5 one NaN each
    sets.push_back(
        {{"x", exec::Value(floats({1, 3}, {v, 2, 3}))},
         {"k", exec::Value(ir::Tensor::fromVector<int64_t>(ir::DataType::kInt64, {2}, {1, 2}))}});
  }
  CalibratingEvaluator eval(std::move(sets));
  EXPECT_EQ(eval.takeNonFiniteNote(), "") << "nothing observed yet";
  auto observe = [&] {
    size_t seen = 0;
    Status s = eval.observeValues(
        m, {"y"},
        [&](size_t, const ir::Tensor&) {
          ++seen;
          return Status::ok();
        },
        nullptr);
    EXPECT_TRUE(s.isOk()) << s.message();
    EXPECT_EQ(seen, 6u);
  };
  observe();
  observe();  // the same sets again: counted once
  EXPECT_EQ(eval.takeNonFiniteNote(),
            "calibration: 5 of 6 input sets hold NaN or infinite values (input 'x' in calibration "
            "set 1: 1 NaN of its 3 values; input 'x' in calibration set 2: 1 NaN of its 3 values; "
            "input 'x' in calibration set 3: 1 NaN of its 3 values; and 2 more): the ranges come "
            "from the finite values only");
  EXPECT_EQ(eval.takeNonFiniteNote(), "");
}

TEST(CalibratingEvaluator, NanMadeInsideTheModelKeepsThePlainMessage) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y)
    <float[4,4] w = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}> {
    r = Sqrt(x)
    y = MatMul(r, w) })";
  ir::Model m = parse(text);
  CalibratingEvaluator eval(std::vector<exec::NamedInputs>{
      {{"x", exec::Value(floats({2, 4}, {-1, -2, -3, -4, -5, -6, -7, -8}))}}});
  EXPECT_EQ(eval.firstNonFiniteInput(m), "");
  const Status s = quantizeStatus(m, eval);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("calibration saw no finite value of 'r'"), std::string::npos)
      << s.message();
  EXPECT_EQ(s.message().find("NaN"), std::string::npos) << s.message();
  // Held sets (not read from files) are named by their number.
  CalibratingEvaluator held(std::vector<exec::NamedInputs>{
      {{"x", exec::Value(floats({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}))}},
      {{"x", exec::Value(
                 floats({2, 4}, {1, 2, 3, std::numeric_limits<float>::infinity(), 5, 6, 7, 8}))}}});
  EXPECT_EQ(held.firstNonFiniteInput(m), "input 'x' in calibration set 1");
}

TEST(CalibratingEvaluator, FirstSetsAreTheSourcesFirst) {
  ir::Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3] x) => (float[1,3] y) { y = Relu(x) })");
  CountingSource counting;
  const CalibrationSetSource source = counting.source(20);
  auto first = firstCalibrationSets(source, m, 16);
  ASSERT_TRUE(first) << first.error().message();
  ASSERT_EQ(first->size(), 16u);
  EXPECT_EQ((*first)[15][0].second.tensor().data<float>()[0], 16.0f);
  EXPECT_EQ(counting.made.size(), 16u);  // the other 4 are never made
  auto all = firstCalibrationSets(source, m, 100);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 20u);
}

}  // namespace
}  // namespace passlab::pipeline
