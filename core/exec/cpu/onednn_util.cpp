#include "core/exec/cpu/onednn_util.h"

namespace passlab::exec::cpu::onednn {

dnnl::engine& engine() {
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
