// Einsum over any number of operands. Each operand first loses its repeated
// letters (a diagonal) and the letters no one else needs (summed). Operands
// are then folded left to right, each pair as a batched matrix product: the
// letters both share and keep are the batch, the letters only one keeps are M
// and N, the shared letters no one needs later are K, with [batch, M, K] and
// [batch, K, N] packed contiguous so the inner loop runs along N. The result
// is permuted to the output's letter order. Arithmetic in the compute type
// (float for float16/bfloat16).
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

#include "core/exec/cpu/einsum_equation.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// A dense row-major tensor whose dims are named by letter ids.
template <class C>
struct Lettered {
  std::vector<int> letters;
  Dims dims;
  std::vector<C> data;
};

std::vector<int64_t> stridesOf(const Dims& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

// Position of `letter` in `letters`, or -1.
int find(const std::vector<int>& letters, int letter) {
  auto it = std::find(letters.begin(), letters.end(), letter);
  return it == letters.end() ? -1 : static_cast<int>(it - letters.begin());
}

// Iterates the multi-index of `dims` (row-major), calling f(flatIndex, index).
template <class F>
void forEachIndex(const Dims& dims, F&& f) {
  const int64_t n = numelOf(dims);
  std::vector<int64_t> idx(dims.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    f(i, idx);
    for (size_t d = dims.size(); d-- > 0;) {
      if (++idx[d] < dims[d]) break;
      idx[d] = 0;
    }
  }
}

// `t` re-laid as `letters` (each of t's letters once; a letter t lacks, or has
// with size 1, broadcasts to `letterDims`). Repeated letters in t read the
// diagonal; letters of t not in `letters` are summed.
template <class C>
Lettered<C> relayout(const Lettered<C>& t, const std::vector<int>& letters,
                     const std::vector<int64_t>& letterDims) {
  Lettered<C> out;
  out.letters = letters;
  for (int l : letters) out.dims.push_back(letterDims[static_cast<size_t>(l)]);
  if (t.letters == letters && t.dims == out.dims) return t;  // already laid out
  // Stride of each output letter in t (sum over repeats = the diagonal), and t's other letters.
  const std::vector<int64_t> ts = stridesOf(t.dims);
  std::vector<int64_t> outStride(letters.size(), 0);
  std::vector<int> summed;
  Dims summedDims;
  std::vector<int64_t> summedStride;
  for (size_t d = 0; d < t.letters.size(); ++d) {
    const int l = t.letters[d];
    const int pos = find(letters, l);
    if (pos >= 0) {
      if (t.dims[d] != 1) outStride[static_cast<size_t>(pos)] += ts[d];
      continue;
    }
    const int sp = find(summed, l);
    if (sp >= 0) {
      summedStride[static_cast<size_t>(sp)] += ts[d];
    } else {
      summed.push_back(l);
      summedDims.push_back(t.dims[d]);
      summedStride.push_back(ts[d]);
    }
  }
  std::vector<int64_t> sumOffsets;
  forEachIndex(summedDims, [&](int64_t, const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * summedStride[d];
    sumOffsets.push_back(off);
  });
  out.data.assign(static_cast<size_t>(numelOf(out.dims)), C(0));
  forEachIndex(out.dims, [&](int64_t i, const std::vector<int64_t>& idx) {
    int64_t base = 0;
    for (size_t d = 0; d < idx.size(); ++d) base += idx[d] * outStride[d];
    C acc = C(0);
    for (int64_t off : sumOffsets) acc += t.data[static_cast<size_t>(base + off)];
    out.data[static_cast<size_t>(i)] = acc;
  });
  return out;
}

// Letter lists joined.
std::vector<int> joined(std::initializer_list<const std::vector<int>*> parts) {
  std::vector<int> all;
  for (const std::vector<int>* p : parts) all.insert(all.end(), p->begin(), p->end());
  return all;
}

// Whether t is stored densely as `order` (its letters in that order, no broadcast dim).
template <class C>
bool storedAs(const Lettered<C>& t, const std::vector<int>& order,
              const std::vector<int64_t>& letterDims) {
  if (t.letters != order) return false;
  for (size_t d = 0; d < order.size(); ++d)
    if (t.dims[d] != letterDims[static_cast<size_t>(order[d])]) return false;
  return true;
}

// y[B, M, N] = a * b by oneDNN's sgemm, one call per batch, when a is stored
// as [batch, M, K] or [batch, K, M] and b as [batch, K, N] or [batch, N, K]
// (the batched matrix products of attention written as Einsum); false
// (nothing written) for any other layout.
bool gemmInPlace(const Lettered<float>& a, const Lettered<float>& b, const std::vector<int>& batch,
                 const std::vector<int>& m, const std::vector<int>& n, const std::vector<int>& k,
                 const std::vector<int64_t>& letterDims, float* y, int threads) {
  const bool aPlain = storedAs(a, joined({&batch, &m, &k}), letterDims);
  if (!aPlain && !storedAs(a, joined({&batch, &k, &m}), letterDims)) return false;
  const bool bPlain = storedAs(b, joined({&batch, &k, &n}), letterDims);
  if (!bPlain && !storedAs(b, joined({&batch, &n, &k}), letterDims)) return false;
  auto size = [&](const std::vector<int>& ls) {
    int64_t s = 1;
    for (int l : ls) s *= letterDims[static_cast<size_t>(l)];
    return s;
  };
  const int64_t B = size(batch), M = size(m), N = size(n), K = size(k);
  if (M == 0 || N == 0 || K == 0 || M * K > INT32_MAX || K * N > INT32_MAX) return false;
  onednn::engine();  // oneDNN capped at PASSLAB_MAX_ISA before dnnl_sgemm looks at the CPU
  std::atomic<bool> ok{true};
  parallelFor(B, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t bt = begin; bt < end; ++bt)
      if (dnnl_sgemm(aPlain ? 'N' : 'T', bPlain ? 'N' : 'T', M, N, K, 1.0f,
                     a.data.data() + bt * M * K, aPlain ? K : M, b.data.data() + bt * K * N,
                     bPlain ? N : K, 0.0f, y + bt * M * N, N) != dnnl_success)
        ok = false;
  });
  return ok;
}

// The product of a and b summed over the letters in neither `keep`:
// result letters = batch, then a's own kept letters, then b's.
template <class C>
Lettered<C> contract(const Lettered<C>& a, const Lettered<C>& b, const std::vector<bool>& keep,
                     const std::vector<int64_t>& letterDims, int threads) {
  std::vector<int> batch, m, n, k;
  for (int l : a.letters) {
    const bool inB = find(b.letters, l) >= 0;
    if (keep[static_cast<size_t>(l)])
      (inB ? batch : m).push_back(l);
    else if (inB)
      k.push_back(l);
    else
      k.push_back(l);  // only in a and unused later: summed (with b broadcast along it)
  }
  for (int l : b.letters)
    if (find(a.letters, l) < 0) (keep[static_cast<size_t>(l)] ? n : k).push_back(l);
  auto size = [&](const std::vector<int>& ls) {
    int64_t s = 1;
    for (int l : ls) s *= letterDims[static_cast<size_t>(l)];
    return s;
  };
  const int64_t B = size(batch), M = size(m), N = size(n), K = size(k);
  std::vector<int> aOrder = batch, bOrder = batch;
  aOrder.insert(aOrder.end(), m.begin(), m.end());
  aOrder.insert(aOrder.end(), k.begin(), k.end());
  bOrder.insert(bOrder.end(), k.begin(), k.end());
  bOrder.insert(bOrder.end(), n.begin(), n.end());
  Lettered<C> out;
  out.letters = batch;
  out.letters.insert(out.letters.end(), m.begin(), m.end());
  out.letters.insert(out.letters.end(), n.begin(), n.end());
  for (int l : out.letters) out.dims.push_back(letterDims[static_cast<size_t>(l)]);
  out.data.assign(static_cast<size_t>(B * M * N), C(0));
  if constexpr (std::is_same_v<C, float>) {
    if (gemmInPlace(a, b, batch, m, n, k, letterDims, out.data.data(), threads)) return out;
  }
  const Lettered<C> ap = relayout(a, aOrder, letterDims);  // [B, M, K]
  const Lettered<C> bp = relayout(b, bOrder, letterDims);  // [B, K, N]
  const C* A = ap.data.data();
  const C* Bm = bp.data.data();
  C* Y = out.data.data();
  parallelFor(B * M, threads, std::max<int64_t>(1, 16384 / (K * N + 1)),
              [&](int64_t begin, int64_t end) {
                for (int64_t row = begin; row < end; ++row) {
                  const int64_t bt = row / M;
                  const C* arow = A + row * K;
                  C* yrow = Y + row * N;
                  for (int64_t kk = 0; kk < K; ++kk) {
                    const C av = arow[kk];
                    const C* brow = Bm + (bt * K + kk) * N;
                    for (int64_t j = 0; j < N; ++j) yrow[j] += av * brow[j];
                  }
                }
              });
  return out;
}

class Einsum final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    if (!b.node().hasAttr("equation")) return invalidArgument("the equation attribute is required");
    return std::unique_ptr<Kernel>(new Einsum(b.node().attrString("equation", "")));
  }

  Status run(KernelContext& ctx) override {
    std::vector<const Tensor*> xs;
    std::vector<const Dims*> dims;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
      if (!ctx.has(i)) return invalidArgument("input " + std::to_string(i) + " is missing");
      xs.push_back(&ctx.input(i));
      dims.push_back(&xs.back()->dims());
    }
    if (xs.empty()) return invalidArgument("Einsum needs at least one input");
    for (const Tensor* x : xs)
      if (x->dtype() != xs[0]->dtype())
        return invalidArgument("inputs have different element types (" + xs[0]->describe() +
                               " and " + x->describe() + ")");
    PASSLAB_ASSIGN_OR_RETURN(EinsumEquation eq, parseEinsum(equation_, dims));
    return dispatch<types::kNumeric>(xs[0]->dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      const size_t letterCount = eq.letterDims.size();
      // Which operands (and the output) use each letter.
      auto usedAfter = [&](size_t k) {
        std::vector<bool> keep(letterCount, false);
        for (int l : eq.output) keep[static_cast<size_t>(l)] = true;
        for (size_t j = k + 1; j < eq.inputs.size(); ++j)
          for (int l : eq.inputs[j]) keep[static_cast<size_t>(l)] = true;
        return keep;
      };
      // Load each operand, dropping repeats and letters no one else uses.
      std::vector<Lettered<C>> ops;
      for (size_t k = 0; k < xs.size(); ++k) {
        Lettered<C> t;
        t.letters = eq.inputs[k];
        t.dims = xs[k]->dims();
        t.data.resize(static_cast<size_t>(xs[k]->numel()));
        const S* in = xs[k]->data<S>();
        for (int64_t i = 0; i < xs[k]->numel(); ++i) t.data[static_cast<size_t>(i)] = load(in[i]);
        std::vector<bool> needed(letterCount, false);
        for (int l : eq.output) needed[static_cast<size_t>(l)] = true;
        for (size_t j = 0; j < eq.inputs.size(); ++j)
          if (j != k)
            for (int l : eq.inputs[j]) needed[static_cast<size_t>(l)] = true;
        std::vector<int> own;
        for (int l : t.letters)
          if (needed[static_cast<size_t>(l)] && find(own, l) < 0) own.push_back(l);
        // Keep each letter at its own size here; broadcasting happens in contract.
        std::vector<int64_t> localDims = eq.letterDims;
        for (size_t d = 0; d < t.letters.size(); ++d)
          localDims[static_cast<size_t>(t.letters[d])] = t.dims[d];
        if (own.size() != t.letters.size()) t = relayout(t, own, localDims);
        ops.push_back(std::move(t));
      }
      Lettered<C> acc = std::move(ops[0]);
      for (size_t k = 1; k < ops.size(); ++k)
        acc = contract(acc, ops[k], usedAfter(k), eq.letterDims, ctx.threads());
      // To the output's letter order (summing what is left over, broadcasting size-1 dims).
      acc = relayout(acc, eq.output, eq.letterDims);
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, xs[0]->dtype(), acc.dims));
      S* out = y->mutableData<S>();
      for (size_t i = 0; i < acc.data.size(); ++i) out[i] = store<S>(acc.data[i]);
      return Status::ok();
    });
  }

 private:
  explicit Einsum(std::string equation) : equation_(std::move(equation)) {}
  std::string equation_;
};

const KernelDef kRows[] = {
    {"", "Einsum", 12, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.Einsum",
     makeKernel<Einsum>},
};

}  // namespace

std::span<const KernelDef> einsumKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
