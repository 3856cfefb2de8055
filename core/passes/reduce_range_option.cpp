#include "core/passes/reduce_range_option.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "core/support/cpu_isa.h"

namespace passlab::passes {

namespace {

std::string lowerCase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// "this CPU", with the cap when PASSLAB_MAX_ISA lowers what it has.
Text thisCpu() {
  if (cpu_isa::maxIsa() == cpu_isa::IsaLevel::kAvx512) return Text("this CPU");
  return Text::of("this CPU (PASSLAB_MAX_ISA=%1)",
                  std::string(cpu_isa::isaName(cpu_isa::maxIsa())));
}

}  // namespace

bool exactInt8DotProductsOnThisCpu() {
  return cpu_isa::hasAvx512Vnni() || cpu_isa::hasAvxVnni();
}

Expected<WeightRange> readWeightRange(const PassContext& ctx, std::string_view passId) {
  return parseWeightRange(ctx.option("reduce_range"), passId);
}

Expected<WeightRange> parseWeightRange(const std::string& given, std::string_view passId) {
  const std::string value = lowerCase(given);
  if (value == "auto") return WeightRange{!exactInt8DotProductsOnThisCpu(), true};
  if (value == "true" || value == "1" || value == "yes" || value == "on")
    return WeightRange{true, false};
  if (value == "false" || value == "0" || value == "no" || value == "off")
    return WeightRange{false, false};
  return invalidArgument(Text::of("%1: option 'reduce_range' takes auto, true or false, not '%2'",
                                  std::string(passId), given));
}

std::string recordedWeightRange(const std::string& given) {
  auto range = parseWeightRange(given, "");
  if (!range || !range->automatic) return given;
  return range->reduced ? "true" : "false";
}

Text weightRangeNote(const WeightRange& range) {
  if (!range.automatic) return Text();
  if (range.reduced)
    return Text::of(
        "weights in 7 bits ([-64, 64], reduce_range=auto): %1 has no AVX-512 VNNI or AVX-VNNI "
        "(exact int8 dot products), where only such weights run on int8 kernels exactly; "
        "reduce_range=false for the full range",
        thisCpu());
  return Text::of(
      "weights in the full int8 range (reduce_range=auto): %1 has %2 (exact int8 dot "
      "products); reduce_range=true for 7 bits ([-64, 64]), the file for CPUs without VNNI",
      thisCpu(), std::string(cpu_isa::hasAvx512Vnni() ? "AVX-512 VNNI" : "AVX-VNNI"));
}

}  // namespace passlab::passes
