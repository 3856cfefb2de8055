#include "core/support/cpu_isa.h"

#include <cstdlib>
#include <string_view>

#include "core/support/log.h"

namespace passlab::cpu_isa {

namespace {

IsaLevel readCap() {
  const char* value = std::getenv("PASSLAB_MAX_ISA");
  if (value == nullptr || *value == '\0') return IsaLevel::kAvx512;
  std::string_view name(value);
  if (name == "avx512") return IsaLevel::kAvx512;
  if (name == "avx512core") return IsaLevel::kAvx512Core;
  if (name == "avx2vnni") return IsaLevel::kAvx2Vnni;
  if (name == "avx2") return IsaLevel::kAvx2;
  if (name == "sse2") return IsaLevel::kSse2;
  log::logger().warn(
      "PASSLAB_MAX_ISA='{}' is not avx512, avx512core, avx2vnni, avx2 or sse2; ignored", name);
  return IsaLevel::kAvx512;
}

bool allowed(IsaLevel level) {
  return static_cast<int>(maxIsa()) >= static_cast<int>(level);
}

}  // namespace

IsaLevel maxIsa() {
  static const IsaLevel cap = readCap();
  return cap;
}

const char* isaName(IsaLevel level) {
  switch (level) {
    case IsaLevel::kAvx512:
      return "avx512";
    case IsaLevel::kAvx512Core:
      return "avx512core";
    case IsaLevel::kAvx2Vnni:
      return "avx2vnni";
    case IsaLevel::kAvx2:
      return "avx2";
    case IsaLevel::kSse2:
      break;
  }
  return "sse2";
}

#if defined(__x86_64__) || defined(__i386__)
bool hasAvx512f() {
  static const bool yes = allowed(IsaLevel::kAvx512Core) && __builtin_cpu_supports("avx512f");
  return yes;
}

bool hasAvx512BwVl() {
  static const bool yes =
      hasAvx512f() && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  return yes;
}

bool hasAvx512Vbmi() {
  static const bool yes = allowed(IsaLevel::kAvx512) && hasAvx512f() &&
                          __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vbmi");
  return yes;
}

bool hasAvx512Vnni() {
  static const bool yes =
      allowed(IsaLevel::kAvx512) && hasAvx512BwVl() && __builtin_cpu_supports("avx512vnni");
  return yes;
}

bool hasAvx2Fma() {
  static const bool yes =
      allowed(IsaLevel::kAvx2) && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
}

// Not under avx512core: Skylake-SP, the CPU that cap stands for, has no AVX-VNNI.
bool hasAvxVnni() {
  static const bool yes = allowed(IsaLevel::kAvx2Vnni) && maxIsa() != IsaLevel::kAvx512Core &&
                          hasAvx2Fma() && __builtin_cpu_supports("avxvnni");
  return yes;
}

bool hasF16c() {
  static const bool yes =
      allowed(IsaLevel::kAvx2) && __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
  return yes;
}
#else
bool hasAvx512f() {
  return false;
}
bool hasAvx512BwVl() {
  return false;
}
bool hasAvx512Vnni() {
  return false;
}
bool hasAvx512Vbmi() {
  return false;
}
bool hasAvx2Fma() {
  return false;
}
bool hasAvxVnni() {
  return false;
}
bool hasF16c() {
  return false;
}
#endif

}  // namespace passlab::cpu_isa
