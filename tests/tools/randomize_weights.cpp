// randomize_weights IN.onnx OUT.onnx [--seed N] [--initializers] [--no-scale]
//                   [--keep-values] [--swap-conv-channels K]
// Writes IN with its ConstantOfShape weight fills (and with --initializers its
// float weight initializers) replaced by seeded random weights scaled on the
// data (tests/tools/weight_randomizer.h), so outputs depend on the input.
// --keep-values spells the fills out as initializers of their own value
// instead (the same model). --swap-conv-channels K then swaps output channels
// 0 and 1 of the K-th Conv: a planted channel mix-up, for showing that a check
// can fail (#26).
// Exit 0 written, 1 bad input or a failure (never writes over IN).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/io/model_io.h"
#include "tests/tools/weight_randomizer.h"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: randomize_weights IN.onnx OUT.onnx [--seed N] [--initializers] "
               "[--no-scale] [--keep-values] [--swap-conv-channels K]\n");
  return 1;
}

bool parseUnsigned(const char* s, unsigned long long& out) {
  if (s == nullptr || *s == '\0' || *s == '-') return false;
  char* end = nullptr;
  out = std::strtoull(s, &end, 10);
  return end != nullptr && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string in = argv[1], out = argv[2];
  passlab::testtools::RandomizeOptions options;
  long long swapIndex = -1;
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    unsigned long long value = 0;
    if (arg == "--initializers") {
      options.initializers = true;
    } else if (arg == "--keep-values") {
      options.random = false;
    } else if (arg == "--no-scale") {
      options.scaleLastLayers = false;
    } else if ((arg == "--seed" || arg == "--swap-conv-channels") && i + 1 < argc &&
               parseUnsigned(argv[i + 1], value)) {
      ++i;
      if (arg == "--seed") options.seed = value;
      if (arg == "--swap-conv-channels") swapIndex = static_cast<long long>(value);
    } else {
      std::fprintf(stderr, "randomize_weights: bad argument %s\n", arg.c_str());
      return usage();
    }
  }
  std::error_code ec;
  if (std::filesystem::exists(out, ec) && std::filesystem::equivalent(in, out, ec)) {
    std::fprintf(stderr, "randomize_weights: %s is the input; not writing over it\n", out.c_str());
    return 1;
  }
  auto loaded = passlab::io::loadModel(in);
  if (!loaded.isOk()) {
    std::fprintf(stderr, "%s\n", loaded.error().message().c_str());
    return 1;
  }
  passlab::ir::Model& model = loaded->model;
  auto report = passlab::testtools::randomizeWeights(model, options);
  if (!report.isOk()) {
    std::fprintf(stderr, "%s: %s\n", in.c_str(), report.error().message().c_str());
    return 1;
  }
  if (options.random)
    std::printf(
        "%s: %zu fills and %zu initializers randomized (seed %llu); %zu last layers "
        "scaled on the data\n",
        in.c_str(), report->fillsReplaced, report->initializersReplaced,
        static_cast<unsigned long long>(options.seed), report->layersScaled);
  else
    std::printf("%s: %zu fills spelled out as initializers of their value\n", in.c_str(),
                report->fillsReplaced);
  if (swapIndex >= 0) {
    auto conv = passlab::testtools::swapConvOutputChannels(model, static_cast<size_t>(swapIndex));
    if (!conv.isOk()) {
      std::fprintf(stderr, "%s: %s\n", in.c_str(), conv.error().message().c_str());
      return 1;
    }
    std::printf("planted: output channels 0 and 1 of Conv %s swapped\n", conv->c_str());
  }
  passlab::Status saved = passlab::io::saveModel(model, out);
  if (!saved.isOk()) {
    std::fprintf(stderr, "%s\n", saved.message().c_str());
    return 1;
  }
  return 0;
}
