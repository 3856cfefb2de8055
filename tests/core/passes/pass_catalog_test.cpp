// The pass catalog (core/passes/pass_catalog.json): every registered pass has
// one entry and every entry a pass; each pass's taxonomy category is pinned;
// the reader round-trips the format and names the entry and field it refuses.
#include "core/passes/pass_catalog.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/passes/registry.h"

namespace passlab::passes {
namespace {

TEST(PassCatalog, EveryPassHasOneEntryAndEveryEntryAPass) {
  std::set<std::string> registered;
  for (const Pass* p : allPasses()) registered.insert(p->info().id);
  std::set<std::string> listed;
  for (const PassInfo& info : passCatalog()) {
    EXPECT_TRUE(listed.insert(info.id).second) << "listed twice: " << info.id;
    EXPECT_TRUE(registered.count(info.id)) << "catalog entry without a pass: " << info.id;
  }
  for (const std::string& id : registered)
    EXPECT_TRUE(listed.count(id)) << "pass without a catalog entry: " << id;
}

// The taxonomy PassLab teaches: folding, elimination, CSE, fusion,
// substitution and hoisting are structural; FP16/BF16, INT8, sparsity and low
// rank are precision; writing one computation as another op that shares it
// (AveragePool <-> depthwise Conv) is algorithm; layout and memory planning
// are read/write. A pass changing category must change this table too.
TEST(PassCatalog, CategoriesFollowTheTaxonomy) {
  const std::map<std::string, Category> kPinned = {
      {"eliminate_dead_nodes", Category::kStructural},
      {"eliminate_identity_ops", Category::kStructural},
      {"eliminate_noop_ops", Category::kStructural},
      {"eliminate_inverse_pairs", Category::kStructural},
      {"simplify_op_chains", Category::kStructural},
      {"eliminate_common_subexpressions", Category::kStructural},
      {"deduplicate_initializers", Category::kStructural},
      {"fold_constants", Category::kStructural},
      {"freeze_initializer_inputs", Category::kStructural},
      {"fuse_pad_into_conv_pool", Category::kStructural},
      {"fuse_conv_batchnorm", Category::kStructural},
      {"fuse_conv_add_mul", Category::kStructural},
      {"fuse_batchnorm_add_mul", Category::kStructural},
      {"fuse_gemm_batchnorm", Category::kStructural},
      {"fuse_matmul_add_into_gemm", Category::kStructural},
      {"fuse_transpose_into_gemm", Category::kStructural},
      {"fuse_consecutive_transposes", Category::kStructural},
      {"merge_consecutive_slices", Category::kStructural},
      {"fuse_log_softmax", Category::kStructural},
      {"fuse_reduce_unsqueeze", Category::kStructural},
      {"fuse_layer_normalization", Category::kStructural},
      {"fuse_gelu", Category::kStructural},
      {"fuse_hard_swish", Category::kStructural},
      {"fuse_shared_input_matmuls", Category::kStructural},
      {"replace_with_cheaper_ops", Category::kStructural},
      {"replace_div_by_constant", Category::kStructural},
      {"reassociate_constant_chains", Category::kStructural},
      {"replace_batchnorm_with_mul_add", Category::kStructural},
      {"replace_reduce_mean_with_global_pool", Category::kStructural},
      {"replace_einsum_with_matmul", Category::kStructural},
      {"replace_conv1x1_and_gemm", Category::kStructural},
      {"replace_avgpool_and_depthwise_conv", Category::kAlgorithm},
      {"hoist_slice_gather", Category::kStructural},
      {"hoist_reduce_scale", Category::kStructural},
      {"push_transposes", Category::kStructural},
      {"hoist_cast_reshape", Category::kStructural},
      {"share_symbolic_dim_reads", Category::kStructural},
      {"replace_computed_reshape_shapes", Category::kStructural},
      {"hoist_selection_through_shuffle", Category::kStructural},
      {"fuse_conv_activation", Category::kStructural},
      {"fuse_conv_integer_epilogue", Category::kStructural},
      {"fuse_qdq_conv_integer", Category::kStructural},
      {"fuse_gemm_activation", Category::kStructural},
      {"fuse_elementwise_chains", Category::kStructural},
      {"convert_to_blocked_layout", Category::kReadWrite},
      {"fuse_passlab_attention", Category::kStructural},
      {"fuse_passlab_layer_norm", Category::kStructural},
      {"fuse_passlab_softmax", Category::kStructural},
      {"fuse_ort_layer_norm", Category::kStructural},
      {"fuse_ort_skip_layer_norm", Category::kStructural},
      {"fuse_ort_embed_layer_norm", Category::kStructural},
      {"fuse_ort_gelu", Category::kStructural},
      {"fuse_ort_attention", Category::kStructural},
      {"convert_to_float16", Category::kPrecision},
      {"convert_to_bfloat16", Category::kPrecision},
      {"quantize_dynamic", Category::kPrecision},
      {"quantize_static", Category::kPrecision},
      {"fuse_qdq_into_qlinear", Category::kPrecision},
      {"fold_qdq_unary_into_lookup", Category::kPrecision},
      {"fuse_qdq_squeeze_excite", Category::kPrecision},
      {"fuse_qdq_squeeze_excite_exact", Category::kPrecision},
      {"convert_int8_to_channels_last", Category::kReadWrite},
      {"convert_dynamic_int8_to_channels_last", Category::kReadWrite},
      {"raise_opset", Category::kStructural},
      {"factorize_low_rank", Category::kPrecision},
      {"prune_magnitude", Category::kPrecision},
      {"remove_dead_channels", Category::kPrecision},
      {"merge_linear_convolutions", Category::kAlgorithm},
      {"fuse_dynamic_quantize_range", Category::kStructural},
      {"fuse_dynamic_quantize_into_conv", Category::kStructural},
  };
  for (const Pass* p : allPasses()) {
    const PassInfo& info = p->info();
    auto pinned = kPinned.find(info.id);
    ASSERT_NE(pinned, kPinned.end()) << info.id << " has no pinned category in this test";
    EXPECT_EQ(categoryName(info.category), categoryName(pinned->second)) << info.id;
  }
  EXPECT_EQ(kPinned.size(), allPasses().size());
}

TEST(PassCatalog, RoundTripsItsFormat) {
  PassInfo info{.id = "demo_pass",
                .category = Category::kReadWrite,
                .kind = "memory: planning",
                .summaryEn = "Demo",
                .summaryZh = "演示",
                .options = {{"limit", "3", "how many", OptionKind::kCount, 1},
                            {"flag", "", "a flag", OptionKind::kBool}},
                .minOpset = 7,
                .maxOpset = 21,
                .lossy = true,
                .mayEmitNonStandard = true};
  auto back = parsePassCatalog(passCatalogJson({info}));
  ASSERT_TRUE(back) << back.error().message();
  ASSERT_EQ(back->size(), 1u);
  const PassInfo& b = back->front();
  EXPECT_EQ(b.id, "demo_pass");
  EXPECT_EQ(b.category, Category::kReadWrite);
  EXPECT_EQ(b.kind, "memory: planning");
  EXPECT_EQ(b.summaryZh, "演示");
  ASSERT_EQ(b.options.size(), 2u);
  EXPECT_EQ(b.options[0].kind, OptionKind::kCount);
  EXPECT_EQ(b.options[0].minimum, 1);
  EXPECT_EQ(b.options[1].defaultValue, "");
  EXPECT_EQ(b.minOpset, 7);
  EXPECT_EQ(b.maxOpset, 21);
  EXPECT_TRUE(b.lossy);
  EXPECT_TRUE(b.mayEmitNonStandard);
  EXPECT_FALSE(b.changesNumerics);
  EXPECT_FALSE(b.byNameOnly);
}

// The error a catalog text gets ("" when it parses).
std::string errorOf(const std::string& json) {
  auto r = parsePassCatalog(json);
  return r ? "" : r.error().message();
}

const char* kEntryHead = R"({"passes": [{"id": "p", "category": "structural", "kind": "k", )";

TEST(PassCatalog, RefusesWhatIsWrongNamingEntryAndField) {
  EXPECT_EQ(errorOf(std::string(kEntryHead) + R"("summary": {"en": "a", "zh": "b"}}]})"), "");
  EXPECT_EQ(errorOf("{"), "the pass catalog is not valid JSON");
  EXPECT_EQ(errorOf("[]"), "the pass catalog has no array 'passes'");
  EXPECT_EQ(errorOf(R"({"passes": [{"category": "structural"}]})"),
            "pass catalog entry 1: the field 'id' is missing");
  EXPECT_EQ(errorOf(std::string(kEntryHead) + R"("summary": {"en": "a"}}]})"),
            "pass catalog entry 1 (p) summary: the field 'zh' is missing");
  EXPECT_EQ(errorOf(R"({"passes": [{"id": "p", "category": "speed", "kind": "k"}]})"),
            "pass catalog entry 1 (p) category: 'speed' is not one of structural, precision, "
            "algorithm, read/write");
  EXPECT_EQ(
      errorOf(std::string(kEntryHead) + R"("summary": {"en": "a", "zh": "b"}, "opsets": [1]}]})"),
      "pass catalog entry 1 (p): the field 'opsets' is not [lowest, highest]");
  EXPECT_EQ(errorOf(std::string(kEntryHead) +
                    R"("summary": {"en": "a", "zh": "b"}, "flags": ["fast"]}]})"),
            "pass catalog entry 1 (p): unknown flag \"fast\" (changes_numerics, lossy, "
            "exact_per_unit, by_name_only, may_emit_nonstandard)");
  EXPECT_EQ(errorOf(std::string(kEntryHead) + R"("summary": {"en": "a", "zh": "b"}, )" +
                    R"("options": [{"name": "o", "kind": "count", "help": 3}]}]})"),
            "pass catalog entry 1 (p) option o: the field 'help' is not a string");
  std::string entry = std::string(kEntryHead) + R"("summary": {"en": "a", "zh": "b"}})";
  EXPECT_EQ(errorOf(R"({"passes": [)" + entry.substr(std::string(R"({"passes": [)").size()) + ", " +
                    entry.substr(std::string(R"({"passes": [)").size()) + "]}"),
            "the pass catalog lists 'p' twice");
}

}  // namespace
}  // namespace passlab::passes
