// The corpus models that need the recurrent, quantized, contrib, classical-ML
// and control-flow kernels run end to end on seeded random inputs, with
// finite float outputs of the declared shapes.
#include <gtest/gtest.h>

#include <cmath>

#include "core/exec/executor.h"
#include "core/io/model_io.h"
#include "core/pipeline/numeric_check.h"
#include "tests/support/test_support.h"

namespace passlab::exec {
namespace {

struct Case {
  const char* model;
  // Inputs that random values would make meaningless, set by name.
  std::vector<std::pair<std::string, ir::Tensor>> fixed;
  std::map<std::string, int64_t> dims;
};

std::vector<Case> cases() {
  return {
      // 512 samples at 16 kHz: the branch the model was exported for.
      {"silero_vad_v4", {{"sr", ir::Tensor::scalarInt64(16000)}}, {{"sequence", 512}}},
      {"tract_nnsplit_bidi_lstm", {}, {}},
      {"tract_snips_qlstm", {}, {}},
      {"tract_lgbm_classifier", {}, {}},
      {"ort_gpt2_megatron", {}, {{"seq_len", 3}, {"past_seq_len", 2}, {"batch_size", 2}}},
      {"ort_gpt2_megatron_opt_skiplayernorm",
       {},
       {{"seq_len", 3}, {"past_seq_len", 2}, {"batch_size", 2}}},
      {"ort_gpt2_megatron_opt_no_skiplayernorm",
       {},
       {{"seq_len", 3}, {"past_seq_len", 2}, {"batch_size", 2}}},
      {"ort_gpt2_past", {}, {}},
      {"ort_gpt2_past_mask_one_layer", {}, {}},
      {"ort_qdq_multi_consumer_dq", {}, {}},
      {"ort_qdq_multi_consumer_dq_fixed", {}, {}},
      {"ppocr_cls_mobile_v2",
       {},
       {{"p2o.DynamicDimension.0", 1},
        {"p2o.DynamicDimension.1", 48},
        {"p2o.DynamicDimension.2", 192}}},
      {"winml_squeezenet", {}, {}},
  };
}

class SequenceModel : public ::testing::TestWithParam<size_t> {};

TEST_P(SequenceModel, RunsOnSeededRandomInputs) {
  PASSLAB_REQUIRE_CORPUS();
  const Case c = cases()[GetParam()];
  std::string path = *testing::corpusDir() + "/models/" + c.model + ".onnx";
  auto loaded = io::loadModel(path);
  ASSERT_TRUE(loaded) << loaded.error().message();
  pipeline::InputSpec spec;
  spec.seed = 42;
  spec.dims = c.dims;
  auto inputs = pipeline::makeInputs(loaded->model, spec);
  ASSERT_TRUE(inputs) << inputs.error().message();
  for (auto& [name, value] : *inputs)
    for (const auto& [fixedName, tensor] : c.fixed)
      if (name == fixedName) value = Value(tensor);
  auto ex = Executor::create(loaded->model, {});
  ASSERT_TRUE(ex) << ex.error().message();
  auto r = (*ex)->run(*inputs);
  ASSERT_TRUE(r) << r.error().message();
  ASSERT_FALSE(r->values.empty());
  for (size_t i = 0; i < r->outputs.size(); ++i) {
    const ir::Tensor& t = r->outputs[i];
    if (t.dtype() != ir::DataType::kFloat) continue;
    for (double v : t.toDoubleVector()) ASSERT_TRUE(std::isfinite(v)) << r->outputNames[i];
  }
  // A second run on the same executor gives the same outputs.
  auto again = (*ex)->run(*inputs);
  ASSERT_TRUE(again) << again.error().message();
  for (size_t i = 0; i < r->outputs.size(); ++i)
    if (r->outputs[i].dtype() == ir::DataType::kFloat)
      EXPECT_EQ(r->outputs[i].toDoubleVector(), again->outputs[i].toDoubleVector())
          << r->outputNames[i];
}

INSTANTIATE_TEST_SUITE_P(Corpus, SequenceModel, ::testing::Range<size_t>(0, cases().size()),
                         [](const auto& info) { return std::string(cases()[info.param].model); });

// BeamSearch around the tiny GPT-2 decoder gives ONNX Runtime's sequences
// (generated with onnxruntime 1.32 on these inputs), including a batch entry
// that starts with the pad token and a repetition penalty.
Expected<std::vector<int32_t>> beamSearch(const std::vector<int32_t>& ids, int64_t batch,
                                          int32_t maxLength, int32_t minLength, int32_t beams,
                                          int32_t returns, float lengthPenalty,
                                          float repetitionPenalty) {
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/ort_tiny_gpt2_beamsearch.onnx");
  if (!loaded) return loaded.error();
  auto ex = Executor::create(loaded->model, {});
  if (!ex) return ex.error();
  auto i32 = [](std::vector<int32_t> v) {
    return Value(ir::Tensor::fromVector<int32_t>(ir::DataType::kInt32, {1}, v));
  };
  auto f32 = [](float v) {
    return Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1}, {v}));
  };
  NamedInputs in = {{"input_ids", Value(ir::Tensor::fromVector<int32_t>(
                                      ir::DataType::kInt32,
                                      {batch, static_cast<int64_t>(ids.size()) / batch}, ids))},
                    {"max_length", i32({maxLength})},
                    {"min_length", i32({minLength})},
                    {"num_beams", i32({beams})},
                    {"num_return_sequences", i32({returns})},
                    {"length_penalty", f32(lengthPenalty)},
                    {"repetition_penalty", f32(repetitionPenalty)}};
  auto r = (*ex)->run(in);
  if (!r) return r.error();
  auto d = r->outputs[0].data<int32_t>();
  return std::vector<int32_t>(d.begin(), d.end());
}

TEST(CorpusBeamSearch, MatchesOnnxRuntime) {
  PASSLAB_REQUIRE_CORPUS();
  auto a = beamSearch({1, 5, 7}, 1, 8, 1, 4, 2, 1.0f, 1.0f);
  ASSERT_TRUE(a) << a.error().message();
  EXPECT_EQ(
      *a, (std::vector<int32_t>{1, 5, 7, 443, 443, 443, 443, 443, 1, 5, 7, 9, 443, 443, 443, 443}));
  auto b = beamSearch({1, 5, 7, 98, 3, 4}, 2, 9, 5, 3, 3, 0.7f, 1.3f);
  ASSERT_TRUE(b) << b.error().message();
  EXPECT_EQ(*b,
            (std::vector<int32_t>{
                1,  5, 7, 9,   443, 433, 518, 980, 860, 1,  5, 7, 9,   443, 433, 518, 980, 530,
                1,  5, 7, 9,   443, 433, 362, 711, 991, 98, 3, 4, 292, 612, 51,  669, 39,  128,
                98, 3, 4, 738, 51,  710, 666, 762, 980, 98, 3, 4, 738, 51,  710, 666, 957, 860}));
  auto c = beamSearch({10, 20}, 1, 12, 1, 2, 1, 1.0f, 1.0f);
  ASSERT_TRUE(c) << c.error().message();
  EXPECT_EQ(*c, (std::vector<int32_t>{10, 20, 641, 612, 612, 612, 255, 255, 255, 438, 438, 438}));
  auto bad = beamSearch({1, 5, 7}, 1, 8, 1, 2, 3, 1.0f, 1.0f);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("num_return_sequences 3 must be in [1, num_beams = 2]"),
            std::string::npos)
      << bad.error().message();
}

// The model's declared input is [1,1,8] but its constant mask has three
// positions: it cannot run (ONNX Runtime fails the same way); the error names
// the node and the shapes.
TEST(CorpusDistilbert, DeclaredShapeCannotRunAndSaysWhy) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/ort_attention_distilbert.onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  auto inputs = pipeline::makeInputs(loaded->model, {});
  ASSERT_TRUE(inputs) << inputs.error().message();
  auto ex = Executor::create(loaded->model, {});
  ASSERT_TRUE(ex) << ex.error().message();
  auto r = (*ex)->run(*inputs);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("reshape_x"), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("bool[1,3]"), std::string::npos) << r.error().message();
}

}  // namespace
}  // namespace passlab::exec
