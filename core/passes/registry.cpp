#include "core/passes/registry.h"

#include <algorithm>
#include <memory>

#include "core/passes/pass_list.h"

namespace passlab::passes {

#define PASSLAB_DECLARE_FACTORY(factory) std::unique_ptr<Pass> factory();
PASSLAB_PASSES(PASSLAB_DECLARE_FACTORY)
#undef PASSLAB_DECLARE_FACTORY

namespace {

const std::vector<std::unique_ptr<Pass>>& owned() {
  static const std::vector<std::unique_ptr<Pass>> passes = [] {
    std::vector<std::unique_ptr<Pass>> v;
#define PASSLAB_MAKE(factory) v.push_back(factory());
    PASSLAB_PASSES(PASSLAB_MAKE)
#undef PASSLAB_MAKE
    return v;
  }();
  return passes;
}

struct Level {
  const char* name;
  std::vector<std::string> passes;
};

// "default" (issue 5): the basic level, then fusion, substitution and hoisting
// into standard ONNX (exact, or differing only in the last bits where weights
// are folded in float64), then the basic cleanup again on what they exposed.
// freeze_initializer_inputs runs first so that weights listed as graph inputs
// count as constants for folding and fusion. Left out on purpose:
// replace_batchnorm_with_mul_add (adds a node; BatchNormalizations that can
// be folded are folded by the fusions), replace_div_by_constant with
// exact_only=false and hoist_reduce_scale with allow_rounding=true (their
// defaults keep to exact cases), and merge_linear_convolutions (its split
// stands a kernel in for its rank-1 product within a tolerance, and whether it
// merges or splits follows rates measured on one machine's executor: by name,
// or in "all").
std::vector<std::string> defaultPasses(const std::vector<std::string>& basic) {
  std::vector<std::string> v{"freeze_initializer_inputs"};
  v.insert(v.end(), basic.begin(), basic.end());
  for (const char* id :
       {"fuse_pad_into_conv_pool", "replace_avgpool_and_depthwise_conv", "fuse_conv_batchnorm",
        "fuse_conv_add_mul", "fuse_batchnorm_add_mul", "fuse_gemm_batchnorm",
        "fuse_transpose_into_gemm", "fuse_matmul_add_into_gemm", "fuse_shared_input_matmuls",
        "replace_einsum_with_matmul", "fuse_log_softmax", "fuse_reduce_unsqueeze",
        "fuse_layer_normalization", "fuse_gelu", "fuse_hard_swish", "replace_with_cheaper_ops",
        "replace_div_by_constant", "replace_reduce_mean_with_global_pool",
        "replace_conv1x1_and_gemm", "merge_consecutive_slices", "hoist_slice_gather",
        "hoist_reduce_scale", "push_transposes", "fuse_consecutive_transposes",
        "hoist_cast_reshape", "replace_computed_reshape_shapes", "share_symbolic_dim_reads",
        "hoist_selection_through_shuffle",
        // Again: constant Reshape shapes and Reshapes for
        // Transposes of unit dims let Transposes through Concats.
        "push_transposes"})
    v.push_back(id);
  v.insert(v.end(), basic.begin(), basic.end());
  // Last: the chains of constant scales the cleanup's folding has exposed.
  v.push_back("reassociate_constant_chains");
  return v;
}

// "fused" (issue 5, non-standard): the default level, then PassLab's fused
// kernels (ai.passlab; passes skipped unless non-standard output is allowed):
// QDQ node units into integer ops first (fuse_qdq_into_qlinear: standard
// ONNX and com.microsoft QGemm/QLinearAdd, exact per node unit, checked unit
// by unit; before the Conv fusions take a unit's Conv and Relu apart), then
// what is left between a DequantizeLinear and a QuantizeLinear as 8-bit
// lookups (fold_qdq_unary_into_lookup, session 35: any elementwise float32
// chain with per-tensor scales, its table the executor's own results, so
// exact; before fuse_elementwise_chains takes the chains), then
// Conv and Gemm/MatMul with their epilogues, so that activations go
// into them rather than into
// elementwise groups, then elementwise groups, then the blocked layout across
// Conv/pool chains (issue #26), the dynamic INT8 convolutions' chains
// channels-last (issue #25: only where a FusedConvInteger is, so float and
// static INT8 models are left as before) with their DynamicQuantizeLinears
// taking the range from the convolution's epilogue and, where they are its
// Y's only reader, done by it (fuse_dynamic_quantize_into_conv, session 35:
// Y written over its int32 sums and quantized there; exact), then the static INT8
// convolution chains channels-last (convert_int8_to_channels_last, session 33:
// oneDNN's int8 kernels work channels-last, and an NCHW QLinearConv reorders
// its input and output; after the dynamic form's exact pass, so that a
// dynamic model's chains are converted as before), then the squeeze-excitation
// blocks between 8-bit tensors on those chains as one exact node
// (fuse_qdq_squeeze_excite_exact, session 36: the executor's arithmetic for
// every step, so the QDQ form's bytes), then the basic cleanup.
std::vector<std::string> fusedPasses(const std::vector<std::string>& def,
                                     const std::vector<std::string>& basic) {
  std::vector<std::string> v = def;
  // Layer norms where the ORT level puts its own: before the substitutions
  // turn their ReduceMeans into GlobalAveragePools.
  auto ln = std::find(v.begin(), v.end(), "fuse_layer_normalization");
  v.insert(ln == v.end() ? ln : ln + 1, "fuse_passlab_layer_norm");
  for (const char* id :
       {"fuse_qdq_into_qlinear", "fold_qdq_unary_into_lookup", "fuse_passlab_attention",
        "fuse_passlab_softmax", "fuse_conv_integer_epilogue", "fuse_conv_activation",
        "fuse_gemm_activation", "fuse_elementwise_chains", "convert_to_blocked_layout",
        "convert_dynamic_int8_to_channels_last", "fuse_dynamic_quantize_range",
        "fuse_dynamic_quantize_into_conv", "convert_int8_to_channels_last",
        "fuse_qdq_squeeze_excite_exact"})
    v.push_back(id);
  v.insert(v.end(), basic.begin(), basic.end());
  return v;
}

// "ort" (issue 5, non-standard): the default level with ONNX Runtime's
// contrib fusions (com.microsoft EmbedLayerNormalization,
// SkipLayerNormalization, FastGelu/BiasGelu/Gelu, Attention; below opset 17
// its LayerNormalization) inserted after the standard layer norm and GELU
// fusions, so that they see the subgraphs before the substitutions rewrite
// them (replace_reduce_mean_with_global_pool turns the layer norms'
// ReduceMeans into GlobalAveragePools). Embed and skip layer norms go before
// the plain one, which takes the rest.
std::vector<std::string> ortPasses(const std::vector<std::string>& def) {
  std::vector<std::string> v;
  for (const std::string& id : def) {
    v.push_back(id);
    if (id == "fuse_gelu")
      for (const char* o : {"fuse_ort_embed_layer_norm", "fuse_ort_skip_layer_norm",
                            "fuse_ort_layer_norm", "fuse_ort_gelu", "fuse_ort_attention"})
        v.push_back(o);
  }
  return v;
}

const std::vector<Level>& levels() {
  static const std::vector<Level> kLevels = [] {
    std::vector<Level> v = {
        // Constants first (they feed the x*1 and shape rules), then the four kinds of
        // redundant node, then merging what became equal, then sweeping what is unused.
        {"basic",
         {"eliminate_identity_ops", "fold_constants", "eliminate_noop_ops",
          "eliminate_inverse_pairs", "simplify_op_chains", "deduplicate_initializers",
          "eliminate_common_subexpressions", "eliminate_dead_nodes"}},
    };
    v.push_back({"default", defaultPasses(v.front().passes)});
    v.push_back({"fused", fusedPasses(v.back().passes, v.front().passes)});
    v.push_back({"ort", ortPasses(v[1].passes)});
    // "fused_gpu" (issue #27, non-standard): the fused level for the CUDA
    // backend: the same fused kernels without the CPU's blocked layout and
    // channels-last int8 chains, whose reorders, blocked pools and
    // channels-last FusedConvInteger have no GPU kernels, nor QLinearLookup.
    std::vector<std::string> gpu;
    for (const std::string& id : v[2].passes)
      if (id != "convert_to_blocked_layout" && id != "convert_dynamic_int8_to_channels_last" &&
          id != "fuse_dynamic_quantize_range" && id != "fuse_dynamic_quantize_into_conv" &&
          id != "convert_int8_to_channels_last" && id != "fold_qdq_unary_into_lookup" &&
          id != "fuse_qdq_squeeze_excite_exact")
        gpu.push_back(id);
    v.push_back({"fused_gpu", gpu});
    return v;
  }();
  return kLevels;
}

}  // namespace

const std::vector<const Pass*>& allPasses() {
  static const std::vector<const Pass*> ptrs = [] {
    std::vector<const Pass*> v;
    for (const auto& p : owned()) v.push_back(p.get());
    return v;
  }();
  return ptrs;
}

const Pass* findPass(std::string_view id) {
  for (const Pass* p : allPasses())
    if (p->info().id == id) return p;
  return nullptr;
}

Expected<std::vector<std::string>> passesForLevel(std::string_view level) {
  if (level == "all") {
    std::vector<std::string> ids;
    for (const Pass* p : allPasses())
      if (!p->info().lossy && !p->info().byNameOnly)
        ids.push_back(p->info().id);  // lossy passes and form changes only by name
    return ids;
  }
  for (const Level& l : levels())
    if (l.name == level) return l.passes;
  std::string known;
  for (const std::string& n : levelNames()) known += (known.empty() ? "" : ", ") + n;
  return invalidArgument(Text::of("unknown level '%1' (known: %2)", std::string(level), known));
}

std::vector<std::string> levelNames() {
  std::vector<std::string> names;
  for (const Level& l : levels()) names.push_back(l.name);
  names.push_back("all");
  return names;
}

}  // namespace passlab::passes
