#include "app/cli/per_layer_result.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <utility>

#include "core/io/atomic_file.h"
#include "core/io/model_io.h"
#include "core/pipeline/recipe.h"

namespace passlab::cli {

namespace {

Status writeRecipe(const std::string& path, const pipeline::Recipe& recipe) {
  io::AtomicFile file(path);
  Status s = file.open();
  if (s.isOk()) s = file.write(pipeline::recipeToJson(recipe));
  if (s.isOk()) s = file.commit();
  return s;
}

}  // namespace

std::string snrText(double snr) {
  if (std::isinf(snr)) return snr > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", snr);
  return buf;
}

void printWorstTogether(const pipeline::NumericCheck& check) {
  if (!check.ran) return;
  if (const pipeline::OutputAccuracy* w = pipeline::worstOutput(check.accuracy))
    std::printf("together: worst output '%s' SNR %s dB, cosine %.6f\n", w->output.c_str(),
                snrText(w->snrDb).c_str(), w->cosine);
}

int saveLayerResult(const ir::Model& result, const std::string& out, const std::string& recipePath,
                    int checkSets, const pipeline::AccuracyBudget& budget,
                    std::vector<pipeline::PassSpec> steps) {
  if (out.empty()) return 0;
  if (Status saved = io::saveModel(result, out, {}); !saved) {
    std::cerr << "error: " << saved.message() << "\n";
    return 1;
  }
  std::printf("saved %s\n", out.c_str());
  if (recipePath.empty()) return 0;
  pipeline::Recipe recipe;
  recipe.checkInputSets = checkSets;
  recipe.budget = budget;
  recipe.passes = std::move(steps);
  if (Status s = writeRecipe(recipePath, recipe); !s.isOk()) {
    std::cerr << "error: cannot write the recipe to " << recipePath << ": " << s.message() << "\n";
    return 1;
  }
  std::printf("recipe saved to %s\n", recipePath.c_str());
  return 0;
}

}  // namespace passlab::cli
