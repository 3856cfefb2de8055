#include "core/exec/cpu/onednn_util.h"

#include <cstdlib>

#include "core/support/cpu_isa.h"
#include "core/support/log.h"

namespace passlab::exec::cpu::onednn {

namespace {

// PASSLAB_MAX_ISA caps oneDNN's kernels too (avx512core -> AVX512_CORE,
// without VNNI; avx2vnni -> AVX2_VNNI; SSE4.1 is oneDNN's lowest), unless ONEDNN_MAX_CPU_ISA is
// set. Before oneDNN's first look at the CPU, which fixes its choice: the engine's creation, or
// get_effective_cpu_isa().
bool capIsa() {
  if (std::getenv("ONEDNN_MAX_CPU_ISA") != nullptr) return false;
  cpu_isa::IsaLevel cap = cpu_isa::maxIsa();
  if (cap == cpu_isa::IsaLevel::kAvx512) return false;
  try {
    dnnl::set_max_cpu_isa(cap == cpu_isa::IsaLevel::kAvx512Core ? dnnl::cpu_isa::avx512_core
                          : cap == cpu_isa::IsaLevel::kAvx2Vnni ? dnnl::cpu_isa::avx2_vnni
                          : cap == cpu_isa::IsaLevel::kAvx2     ? dnnl::cpu_isa::avx2
                                                                : dnnl::cpu_isa::sse41);
    return true;
  } catch (const dnnl::error& e) {
    log::logger().warn("oneDNN not capped at PASSLAB_MAX_ISA={}: {}", cpu_isa::isaName(cap),
                       e.what());
    return false;
  }
}

}  // namespace

dnnl::engine& engine() {
  static const bool capped = capIsa();
  (void)capped;
  static dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  return eng;
}

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

dnnl::memory::format_tag plainTag(size_t rank) {
  using tag = dnnl::memory::format_tag;
  switch (rank) {
    case 0:
    case 1:
      return tag::a;
    case 2:
      return tag::ab;
    case 3:
      return tag::abc;
    case 4:
      return tag::abcd;
    case 5:
      return tag::abcde;
    case 6:
      return tag::abcdef;
    default:
      return tag::undef;
  }
}

}  // namespace passlab::exec::cpu::onednn
