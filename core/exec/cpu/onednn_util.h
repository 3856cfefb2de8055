// oneDNN plumbing shared by the oneDNN kernels: the engine, a stream per
// thread, dims and plain layouts, memory objects over tensors.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include "core/exec/tensor.h"

namespace passlab::exec::cpu::onednn {

dnnl::engine& engine();
dnnl::stream& stream();  // one per calling thread

inline dnnl::memory::dims toDims(const Dims& d) {
  return dnnl::memory::dims(d.begin(), d.end());
}
// The row-major tag for a rank (a, ab, abc, ...).
dnnl::memory::format_tag plainTag(size_t rank);
// A plain f32 descriptor for dims.
inline dnnl::memory::desc plainDesc(const Dims& d) {
  return dnnl::memory::desc(toDims(d), dnnl::memory::data_type::f32, plainTag(d.size()));
}
// A memory object over a tensor's elements (read-only tensors are only read).
inline dnnl::memory over(const dnnl::memory::desc& md, const Tensor& t) {
  return dnnl::memory(md, engine(), const_cast<void*>(t.raw()));
}

}  // namespace passlab::exec::cpu::onednn
