// Fuzz target: recipe JSON -> pipeline::recipeFromJson (which validates pass
// ids and options against the registry); a recipe that loads must survive a
// round trip through recipeToJson unchanged (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/pipeline/recipe.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto recipe = passlab::pipeline::recipeFromJson(text);
  if (!recipe) return 0;
  std::string json = passlab::pipeline::recipeToJson(*recipe);
  auto again = passlab::pipeline::recipeFromJson(json);
  if (!again || passlab::pipeline::recipeToJson(*again) != json) {
    std::fprintf(stderr, "recipe round trip changed the recipe:\n%s\n", json.c_str());
    std::abort();
  }
  return 0;
}
