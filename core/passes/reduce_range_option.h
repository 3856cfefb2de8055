// quantize_static's and quantize_dynamic's `reduce_range`: auto (the
// default), true or false. true puts the int8 weights in [-64, 64] (7 bits,
// ONNX Runtime's reduce_range); false keeps the full range. auto chooses 7
// bits on a CPU without exact int8 dot products (no AVX-512 VNNI or AVX-VNNI),
// where only such weights run on int8 kernels exactly and fast (PassLab's
// executor: core/exec/cpu/int8_dot_exactness.h; ONNX Runtime's int8 fusion
// saturates its 16-bit pair sums otherwise), and the full range on a CPU with
// either. The CPU is asked through core/support/cpu_isa.h, so
// PASSLAB_MAX_ISA=avx2 makes auto choose 7 bits on any x86 CPU. A saved
// recipe holds what auto chose (true or false: recordedWeightRange), so that
// it replays to the same file on another CPU; the step's note says what auto
// resolved to, why, and how to get the other. A test that needs the same
// file on every host sets true or false.
#pragma once

#include <string>
#include <string_view>

#include "core/passes/pass.h"

namespace passlab::passes {

struct WeightRange {
  bool reduced = false;    // int8 weights in [-64, 64]
  bool automatic = false;  // chosen by reduce_range=auto for this CPU
};

// Whether this CPU (within PASSLAB_MAX_ISA) multiplies u8 x s8 into int32
// exactly at any weight: AVX-512 VNNI or AVX-VNNI.
bool exactInt8DotProductsOnThisCpu();

// The option's value (auto; true/false, also 1/0, yes/no, on/off, in any
// case), or an error naming the option and the values it takes.
Expected<WeightRange> readWeightRange(const PassContext& ctx, std::string_view passId);
// The same for a value as written (what a run here would choose: for
// commands that show the choice before their trials, whose notes they do not
// print).
Expected<WeightRange> parseWeightRange(const std::string& value, std::string_view passId);

// The value a saved recipe records for `given`: auto as what it chooses on
// this CPU ("true" or "false"), anything else as given (a recipe is the
// exact run that produced a result: core/pipeline/recipe.h).
std::string recordedWeightRange(const std::string& given);

// For the step's note when auto chose: which range and why, and how to get
// the other; empty when the option was given.
Text weightRangeNote(const WeightRange& range);

}  // namespace passlab::passes
