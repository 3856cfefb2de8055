// Recurrent layers: RNN, GRU and LSTM (every opset): forward, reverse and
// bidirectional, the activation functions with their alpha/beta, clip,
// sequence_lens (steps past a batch entry's length leave its state alone and
// write zeros), layout 0 (time-major) and 1 (batch-major), GRU's
// linear_before_reset, LSTM's peepholes and input_forget. Computed in float
// (double for double inputs). A float LSTM with the default activations runs
// its steps on lstm_cell_float.h (R packed once, vectorized cell). An
// invariant R held packed for every direction serves every later run (a
// larger batch reads R unpacked from it), so the kernel says
// KernelContext::holdsOwnCopy for R and the executor may free it; likewise
// for an invariant float16 or bfloat16 W, held converted to float (a float
// W is read as stored, a double layer reads W and R as stored).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <string>
#include <type_traits>

#include <oneapi/dnnl/dnnl.h>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/gru_cell_float.h"
#include "core/exec/cpu/lstm_cell_float.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

enum class Cell { kRnn, kGru, kLstm };

struct Activation {
  enum Kind {
    kRelu,
    kTanh,
    kSigmoid,
    kAffine,
    kLeakyRelu,
    kThresholdedRelu,
    kScaledTanh,
    kHardSigmoid,
    kElu,
    kSoftsign,
    kSoftplus
  };
  Kind kind = kTanh;
  float alpha = 0, beta = 0;

  template <class C>
  C operator()(C x) const {
    const C a = static_cast<C>(alpha), b = static_cast<C>(beta);
    switch (kind) {
      case kRelu:
        return x > 0 ? x : C(0);
      case kTanh:
        return std::tanh(x);
      case kSigmoid:
        return x >= 0 ? C(1) / (C(1) + std::exp(-x)) : std::exp(x) / (C(1) + std::exp(x));
      case kAffine:
        return a * x + b;
      case kLeakyRelu:
        return x >= 0 ? x : a * x;
      case kThresholdedRelu:
        return x > a ? x : C(0);
      case kScaledTanh:
        return a * std::tanh(b * x);
      case kHardSigmoid:
        return std::clamp(a * x + b, C(0), C(1));
      case kElu:
        return x >= 0 ? x : a * (std::exp(x) - C(1));
      case kSoftsign:
        return x / (C(1) + std::fabs(x));
      case kSoftplus:
        return std::log1p(std::exp(-std::fabs(x))) + std::max(x, C(0));
    }
    return x;
  }
};

// The activations of every direction, taking alpha/beta values in order from
// the attribute lists for the functions that use them (defaults otherwise).
Expected<std::vector<Activation>> parseActivations(const ir::Node& n, size_t perDir, size_t dirs,
                                                   const std::vector<std::string>& defaults) {
  std::vector<std::string> names;
  if (const ir::Attribute* a = n.attr("activations")) names = a->strings;
  if (names.empty())
    for (size_t d = 0; d < dirs; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
  if (names.size() == perDir && dirs == 2) {
    const std::vector<std::string> once = names;  // (inserting names into itself is undefined)
    names.insert(names.end(), once.begin(), once.end());
  }
  if (names.size() != perDir * dirs)
    return invalidModel("activations lists " + std::to_string(names.size()) + " functions, " +
                        std::to_string(perDir * dirs) + " are needed");
  std::vector<float> alphas = n.attrFloats("activation_alpha");
  std::vector<float> betas = n.attrFloats("activation_beta");
  size_t ai = 0, bi = 0;
  auto alpha = [&](float dflt) { return ai < alphas.size() ? alphas[ai++] : dflt; };
  auto beta = [&](float dflt) { return bi < betas.size() ? betas[bi++] : dflt; };
  std::vector<Activation> out;
  for (std::string name : names) {
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    Activation act;
    if (lower == "relu") {
      act.kind = Activation::kRelu;
    } else if (lower == "tanh") {
      act.kind = Activation::kTanh;
    } else if (lower == "sigmoid") {
      act.kind = Activation::kSigmoid;
    } else if (lower == "affine") {
      act = {Activation::kAffine, alpha(1.0f), beta(0.0f)};
    } else if (lower == "leakyrelu") {
      act = {Activation::kLeakyRelu, alpha(0.01f), 0};
    } else if (lower == "thresholdedrelu") {
      act = {Activation::kThresholdedRelu, alpha(1.0f), 0};
    } else if (lower == "scaledtanh") {
      act = {Activation::kScaledTanh, alpha(1.0f), beta(1.0f)};
    } else if (lower == "hardsigmoid") {
      act = {Activation::kHardSigmoid, alpha(0.2f), beta(0.5f)};
    } else if (lower == "elu") {
      act = {Activation::kElu, alpha(1.0f), 0};
    } else if (lower == "softsign") {
      act.kind = Activation::kSoftsign;
    } else if (lower == "softplus") {
      act.kind = Activation::kSoftplus;
    } else {
      return invalidModel("unknown activation function '" + name + "'");
    }
    out.push_back(act);
  }
  return out;
}

// C[m][n] (+)= sum_k A[m][k] * B[n][k]: rows of A against rows of B. float
// goes to oneDNN's sgemm (the recurrence is a chain of small products; the
// plain loop does not vectorize its reductions); double stays a loop.
template <class C>
void gemmNT(int64_t M, int64_t N, int64_t K, const C* A, const C* B, C* out, bool accumulate,
            int threads) {
  if constexpr (std::is_same_v<C, float>) {
    if (M > 0 && N > 0 && K > 0 &&
        dnnl_sgemm('N', 'T', M, N, K, 1.0f, A, K, B, K, accumulate ? 1.0f : 0.0f, out, N) ==
            dnnl_success)
      return;
  }
  parallelFor(M, threads, std::max<int64_t>(1, 16384 / (N * K + 1)), [&](int64_t b, int64_t e) {
    for (int64_t m = b; m < e; ++m) {
      const C* a = A + m * K;
      C* o = out + m * N;
      for (int64_t n = 0; n < N; ++n) {
        const C* r = B + n * K;
        C acc = 0;
        for (int64_t k = 0; k < K; ++k) acc += a[k] * r[k];
        o[n] = accumulate ? o[n] + acc : acc;
      }
    }
  });
}

template <class S, class C>
std::vector<C> toCompute(const Tensor& t) {
  std::vector<C> v(static_cast<size_t>(t.numel()));
  const S* p = t.data<S>();
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<C>(load(p[i]));
  return v;
}

// t's values as C: t's own data when it already holds C, else a converted
// copy kept in `store`.
template <class S, class C>
const C* computeData(const Tensor& t, std::vector<C>& store) {
  if constexpr (std::is_same_v<S, C>) {
    return t.data<C>();
  } else {
    store = toCompute<S, C>(t);
    return store.data();
  }
}

// Batches up to this size multiply h by the packed R one entry at a time;
// larger ones go through one sgemm per step.
constexpr int64_t kPackedBatch = 4;

class Recurrent final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b, Cell cell) {
    const ir::Node& n = b.node();
    auto k = std::unique_ptr<Recurrent>(new Recurrent());
    k->cell_ = cell;
    k->gates_ = cell == Cell::kRnn ? 1 : cell == Cell::kGru ? 3 : 4;
    std::string dir = n.attrString("direction", "forward");
    if (dir == "forward") {
      k->dirs_ = 1;
    } else if (dir == "reverse") {
      k->dirs_ = 1;
      k->reverse_ = true;
    } else if (dir == "bidirectional") {
      k->dirs_ = 2;
    } else {
      return invalidModel("unknown direction '" + dir + "'");
    }
    k->hidden_ = n.attrInt("hidden_size", 0);
    if (const ir::Attribute* c = n.attr("clip")) {
      k->clip_ = c->f;
      if (!(k->clip_ > 0)) return invalidModel("clip must be positive");
    }
    k->layout_ = n.attrInt("layout", 0);
    if (k->layout_ != 0 && k->layout_ != 1) return invalidModel("layout must be 0 or 1");
    k->linearBeforeReset_ = n.attrInt("linear_before_reset", 0) != 0;
    k->inputForget_ = n.attrInt("input_forget", 0) != 0;
    std::vector<std::string> defaults;
    switch (cell) {
      case Cell::kRnn:
        defaults = {"Tanh"};
        break;
      case Cell::kGru:
        defaults = {"Sigmoid", "Tanh"};
        break;
      case Cell::kLstm:
        defaults = {"Sigmoid", "Tanh", "Tanh"};
        break;
    }
    auto acts = parseActivations(n, defaults.size(), static_cast<size_t>(k->dirs_), defaults);
    if (!acts) return acts.error();
    k->acts_ = std::move(acts).value();
    k->perDir_ = defaults.size();
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = std::conditional_t<std::is_same_v<S, double>, double, float>;
      return runTyped<S, C>(ctx);
    });
  }

 private:
  Recurrent() = default;

  template <class C>
  C clip(C v) const {
    return clip_ > 0 ? std::clamp(v, static_cast<C>(-clip_), static_cast<C>(clip_)) : v;
  }

  template <class S, class C>
  Status runTyped(KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Tensor& r = ctx.input(2);
    if (x.rank() != 3) return invalidArgument("X must have rank 3, got " + x.describe());
    const int64_t T = x.dim(layout_ == 0 ? 0 : 1), N = x.dim(layout_ == 0 ? 1 : 0);
    const int64_t I = x.dim(2), D = dirs_, G = gates_;
    int64_t H = hidden_;
    if (w.rank() == 3 && H == 0) H = w.dim(1) / G;
    if (H <= 0) return invalidModel("hidden_size is required");
    const Dims wWant = {D, G * H, I}, rWant = {D, G * H, H};
    if (w.dims() != wWant || w.dtype() != x.dtype())
      return invalidArgument("W is " + w.describe() + ", expected " + dimsToString(wWant));
    if (r.dims() != rWant || r.dtype() != x.dtype())
      return invalidArgument("R is " + r.describe() + ", expected " + dimsToString(rWant));
    auto checkInput = [&](size_t i, const Dims& want, const char* what) -> Status {
      if (ctx.has(i) && (ctx.input(i).dims() != want || ctx.input(i).dtype() != x.dtype()))
        return invalidArgument(std::string(what) + " is " + ctx.input(i).describe() +
                               ", expected " + dimsToString(want));
      return Status::ok();
    };
    const Dims stateDims = layout_ == 0 ? Dims{D, N, H} : Dims{N, D, H};
    PASSLAB_RETURN_IF_ERROR(checkInput(3, {D, 2 * G * H}, "B"));
    PASSLAB_RETURN_IF_ERROR(checkInput(5, stateDims, "initial_h"));
    if (cell_ == Cell::kLstm) {
      PASSLAB_RETURN_IF_ERROR(checkInput(6, stateDims, "initial_c"));
      PASSLAB_RETURN_IF_ERROR(checkInput(7, {D, 3 * H}, "P"));
    }
    std::vector<int64_t> lens(static_cast<size_t>(N), T);
    if (ctx.has(4)) {
      PASSLAB_ASSIGN_OR_RETURN(lens, readInts(ctx.input(4), "sequence_lens"));
      if (static_cast<int64_t>(lens.size()) != N)
        return invalidArgument("sequence_lens has " + std::to_string(lens.size()) +
                               " values for a batch of " + std::to_string(N));
      for (int64_t l : lens)
        if (l < 0 || l > T)
          return invalidArgument("sequence length " + std::to_string(l) + " is out of range [0, " +
                                 std::to_string(T) + "]");
    }
    // X time-major as [T][N][I]: the input itself when it already is.
    std::vector<C> xStore;
    const C* X = nullptr;
    if (layout_ == 0) {
      X = computeData<S, C>(x, xStore);
    } else {
      xStore.resize(static_cast<size_t>(T * N * I));
      const S* xp = x.data<S>();
      for (int64_t t = 0; t < T; ++t)
        for (int64_t b = 0; b < N; ++b) {
          const S* src = xp + (b * T + t) * I;
          C* dst = xStore.data() + (t * N + b) * I;
          for (int64_t i = 0; i < I; ++i) dst[i] = static_cast<C>(load(src[i]));
        }
      X = xStore.data();
    }
    std::vector<C> wStore, rStore, bStore, pStore;
    PASSLAB_ASSIGN_OR_RETURN(const C* W, (weightsW<S, C>(ctx, w, wStore)));
    const C* R = nullptr;
    bool rFreed = false;
    if constexpr (std::is_same_v<C, float>) {
      // R freed once held packed (packedR; float16 and bfloat16 R too, packed
      // as float): the packed path reads no R; a run off it reads R as
      // stored, unpacked for this run.
      if (r.dataFreed()) {
        if (!holdsR(D, H)) return internalError("R was freed and the kernel holds no copy of it");
        rFreed = true;
        if (readsStoredR(N, D)) {
          unpackedR(D, H, rStore);
          R = rStore.data();
        }
      }
    }
    if (!rFreed) R = computeData<S, C>(r, rStore);
    const C* B = nullptr;
    if (ctx.has(3)) {
      B = computeData<S, C>(ctx.input(3), bStore);
    } else {
      bStore.assign(static_cast<size_t>(D * 2 * G * H), C(0));
      B = bStore.data();
    }
    const bool peepholes = cell_ == Cell::kLstm && ctx.has(7);
    const C* P = nullptr;
    if (peepholes) {
      P = computeData<S, C>(ctx.input(7), pStore);
    } else {
      pStore.assign(static_cast<size_t>(D * 3 * H), C(0));
      P = pStore.data();
    }
    auto initial = [&](size_t i) {
      std::vector<C> v(static_cast<size_t>(D * N * H), C(0));
      if (!ctx.has(i)) return v;
      std::vector<C> raw = toCompute<S, C>(ctx.input(i));
      for (int64_t d = 0; d < D; ++d)
        for (int64_t b = 0; b < N; ++b)
          for (int64_t h = 0; h < H; ++h)
            v[static_cast<size_t>((d * N + b) * H + h)] =
                raw[static_cast<size_t>((layout_ == 0 ? (d * N + b) : (b * D + d)) * H + h)];
      return v;
    };
    std::vector<C> hState = initial(5);
    std::vector<C> cState = cell_ == Cell::kLstm ? initial(6) : std::vector<C>();
    // Y as [T][D][N][H], zero where a batch entry's sequence has ended.
    std::vector<C> Y(static_cast<size_t>(T * D * N * H), C(0));

    const int64_t GH = G * H;
    const float* packedAll = nullptr;  // packedR(), the float LSTM path
    if constexpr (std::is_same_v<C, float>) {
      bool packed = false;
      for (int64_t d = 0; d < D; ++d)
        packed = packed || defaultFloatActivations(acts_.data() + static_cast<size_t>(d) * perDir_);
      if (cell_ != Cell::kRnn && N <= kPackedBatch && packed) packedAll = packedR(ctx, R, D, H);
      // Every direction of R is held packed: a later run reads no R.
      if (holdsR(D, H)) ctx.holdsOwnCopy(2);
    }
    const Operands<C> ops{.X = X,
                          .W = W,
                          .R = R,
                          .B = B,
                          .P = P,
                          .peepholes = peepholes,
                          .h = hState.data(),
                          .c = cState.data(),
                          .Y = Y.data(),
                          .packedR = packedAll};
    const Dims4 dims{T, N, I, H, D};
    if (D == 2 && ctx.threads() >= 2) {
      // The directions are independent: one per thread, each on one thread.
      // A bidirectional layer's steps are too small to split well (at 2
      // threads tract_nnsplit_bidi_lstm's two LSTMs took 0.23 ms each,
      // against 0.20 and 0.15 at 1).
#pragma omp parallel num_threads(2)
      {
        omp_set_num_threads(1);  // oneDNN's sgemm in this thread
        if (omp_get_num_threads() == 2) {
          runDirection<C>(ops, dims, omp_get_thread_num(), lens, 1);
        } else {  // the runtime gave one thread
          for (int64_t d = 0; d < 2; ++d) runDirection<C>(ops, dims, d, lens, 1);
        }
      }
    } else {
      for (int64_t d = 0; d < D; ++d) {
        if (ctx.cancelled()) return Error(ErrorCode::kCancelled, "run cancelled in a recurrent op");
        runDirection<C>(ops, dims, d, lens, ctx.threads());
      }
    }
    return writeOutputs<S, C>(ctx, Y, hState, cState, T, N, H);
  }

  template <class C>
  struct Operands {
    const C* X;  // time-major [T][N][I]
    const C *W, *R, *B, *P;
    bool peepholes;
    C *h, *c;              // [D][N][H] each (c: LSTM only)
    C* Y;                  // [T][D][N][H]
    const float* packedR;  // packedR() of every direction, or null
  };
  struct Dims4 {
    int64_t T, N, I, H, D;
  };

  // Direction d of the layer, on `threads` threads.
  template <class C>
  void runDirection(const Operands<C>& o, const Dims4& dims, int64_t d,
                    const std::vector<int64_t>& lens, int threads) const {
    const int64_t T = dims.T, N = dims.N, I = dims.I, H = dims.H, D = dims.D;
    const int64_t GH = gates_ * H;
    // X·W^T of every step, h·R^T of one, the GRU's scratch: not initialized
    // (each is written before it is read).
    std::unique_ptr<C[]> work(new C[static_cast<size_t>(T * N * GH + N * GH + 4 * H)]);
    C* xproj = work.get();
    C* hproj = xproj + T * N * GH;
    C* scratch = hproj + N * GH;
    const bool backward = reverse_ || d == 1;
    const C* Wd = o.W + d * GH * I;
    const C* Rd = o.R != nullptr ? o.R + d * GH * H : nullptr;  // null: packed path only
    const C* Wb = o.B + d * 2 * GH;
    const C* Rb = Wb + GH;
    const C* Pd = o.P + d * 3 * H;
    const Activation* act = acts_.data() + static_cast<size_t>(d) * perDir_;
    gemmNT<C>(T * N, GH, I, o.X, Wd, xproj, false, threads);
    C* hd = o.h + d * N * H;
    C* cd = cell_ == Cell::kLstm ? o.c + d * N * H : nullptr;
    if constexpr (std::is_same_v<C, float>) {
      if (cell_ == Cell::kGru && o.packedR && defaultFloatActivations(act)) {
        FloatDirection run{.xproj = xproj,
                           .Wb = Wb,
                           .Rb = Rb,
                           .R = Rd,
                           .packedR = o.packedR + d * packedDirectionSize(H),
                           .P = nullptr,
                           .backward = backward,
                           .h = hd,
                           .c = nullptr,
                           .Y = o.Y + d * N * H,
                           .yStep = D * N * H,
                           .threads = threads};
        gruDirectionFloat(run, lens, T, N, H);
        return;
      }
      if (cell_ == Cell::kLstm && defaultFloatActivations(act)) {
        FloatDirection run{.xproj = xproj,
                           .Wb = Wb,
                           .Rb = Rb,
                           .R = Rd,
                           .packedR = o.packedR ? o.packedR + d * packedDirectionSize(H) : nullptr,
                           .P = o.peepholes ? Pd : nullptr,
                           .backward = backward,
                           .h = hd,
                           .c = cd,
                           .Y = o.Y + d * N * H,
                           .yStep = D * N * H,
                           .threads = threads};
        lstmDirectionFloat(run, lens, T, N, H);
        return;
      }
    }
    for (int64_t s = 0; s < T; ++s) {
      gemmNT<C>(N, GH, H, hd, Rd, hproj, false, threads);
      for (int64_t b = 0; b < N; ++b) {
        const int64_t len = lens[static_cast<size_t>(b)];
        if (s >= len) continue;
        const int64_t t = backward ? len - 1 - s : s;
        const C* xg = xproj + (t * N + b) * GH;
        const C* hg = hproj + b * GH;
        C* h = hd + b * H;
        C* out = o.Y + ((t * D + d) * N + b) * H;
        switch (cell_) {
          case Cell::kRnn:
            for (int64_t j = 0; j < H; ++j) h[j] = act[0](clip(xg[j] + hg[j] + Wb[j] + Rb[j]));
            break;
          case Cell::kGru:
            gruStep(xg, hg, Wb, Rb, Rd, act, h, scratch, H);
            break;
          case Cell::kLstm:
            lstmStep(xg, hg, Wb, Rb, Pd, act, h, cd + b * H, H);
            break;
        }
        std::copy(h, h + H, out);
      }
    }
  }

  // LSTM's sigmoid, tanh, tanh; GRU's sigmoid, tanh.
  bool defaultFloatActivations(const Activation* act) const {
    return act[0].kind == Activation::kSigmoid && act[1].kind == Activation::kTanh &&
           (cell_ != Cell::kLstm || act[2].kind == Activation::kTanh);
  }

  // One float LSTM or GRU direction's operands; xproj holds X·W^T without biases.
  struct FloatDirection {
    float* xproj;          // [T][N][4H]
    const float *Wb, *Rb;  // 4H each
    const float* R;        // [4H][H] as stored
    const float* packedR;  // packedR()'s direction, for batches of up to kPackedBatch
    const float* P;        // peepholes (3H) or null
    bool backward;
    float *h, *c;  // [N][H] each
    float* Y;      // step t's rows at Y + t * yStep, [N][H]
    int64_t yStep;
    int threads;
  };

  static int64_t packedSize(int64_t GH, int64_t H) {
    return (GH + kPackedColumns - 1) / kPackedColumns * kPackedColumns * H;
  }

  // One direction of packedR(): LSTM's 4H rows; GRU's z and r rows, then its h rows.
  int64_t packedDirectionSize(int64_t H) const {
    return cell_ == Cell::kGru ? packedSize(2 * H, H) + packedSize(H, H) : packedSize(4 * H, H);
  }

  // R of every direction packed for addRowTimesPacked, kept for the next runs
  // while R is invariant.
  const float* packedR(KernelContext& ctx, const float* R, int64_t D, int64_t H) {
    const bool invariant = ctx.invariantInput(2);
    const size_t size = static_cast<size_t>(D * packedDirectionSize(H));
    if (!(invariant && packedKept_ && packedR_.size() == size)) {
      packedR_.clear();
      const int64_t GH = gates_ * H;
      auto append = [&](const float* rows, int64_t n) {
        std::vector<float> one = packForRowTimes(rows, n, H);
        packedR_.insert(packedR_.end(), one.begin(), one.end());
      };
      for (int64_t d = 0; d < D; ++d) {
        const float* Rd = R + d * GH * H;
        if (cell_ == Cell::kGru) {
          append(Rd, 2 * H);
          append(Rd + 2 * H * H, H);
        } else {
          append(Rd, GH);
        }
      }
      packedKept_ = invariant;
    }
    return packedR_.data();
  }

  // W as C for this run. A float16 or bfloat16 W that is invariant is
  // converted to float once and held for the later runs (the kernel then
  // says holdsOwnCopy and the executor may free the original); otherwise W
  // as stored (converted for this run where it is not C).
  template <class S, class C>
  Expected<const C*> weightsW(KernelContext& ctx, const Tensor& w, std::vector<C>& store) {
    if constexpr (!std::is_same_v<S, C> && std::is_same_v<C, float>) {
      if (ctx.invariantInput(1)) {
        if (heldW_.size() != static_cast<size_t>(w.numel())) {
          if (w.dataFreed()) return internalError("W was freed and the kernel holds no copy of it");
          heldW_ = toCompute<S, C>(w);
        }
        ctx.holdsOwnCopy(1);
        return heldW_.data();
      }
    }
    if (w.dataFreed()) return internalError("W was freed and the kernel holds no copy of it");
    return computeData<S, C>(w, store);
  }

  // Whether a run of batch N reads R as stored rather than packedR(): an RNN
  // cell, a batch above kPackedBatch, a direction with other activations.
  bool readsStoredR(int64_t N, int64_t D) const {
    if (cell_ == Cell::kRnn || N > kPackedBatch) return true;
    for (int64_t d = 0; d < D; ++d)
      if (!defaultFloatActivations(acts_.data() + static_cast<size_t>(d) * perDir_)) return true;
    return false;
  }

  // Whether packedR_ holds the invariant R of every direction (D, H).
  bool holdsR(int64_t D, int64_t H) const {
    return packedKept_ && packedR_.size() == static_cast<size_t>(D * packedDirectionSize(H));
  }

  // R [D][gates * H][H] as stored, from packedR_ (holdsR).
  void unpackedR(int64_t D, int64_t H, std::vector<float>& r) const {
    r.clear();
    const float* at = packedR_.data();
    for (int64_t d = 0; d < D; ++d) {
      if (cell_ == Cell::kGru) {
        unpackRowTimes(at, 2 * H, H, r);
        unpackRowTimes(at + packedSize(2 * H, H), H, H, r);
      } else {
        unpackRowTimes(at, gates_ * H, H, r);
      }
      at += packedDirectionSize(H);
    }
  }

  // The biases added to every step's projection once; then per step the
  // entries still inside their sequence gather their rows, add h·R^T (packed
  // R per entry for small batches, one sgemm over the batch otherwise), and
  // run the vectorized cell.
  void lstmDirectionFloat(const FloatDirection& run, const std::vector<int64_t>& lens, int64_t T,
                          int64_t N, int64_t H) const {
    const int64_t GH = 4 * H;
    std::vector<float> bias(static_cast<size_t>(GH));
    for (int64_t j = 0; j < GH; ++j) bias[static_cast<size_t>(j)] = run.Wb[j] + run.Rb[j];
    for (int64_t row = 0; row < T * N; ++row) {
      float* xr = run.xproj + row * GH;
      for (int64_t j = 0; j < GH; ++j) xr[j] += bias[static_cast<size_t>(j)];
    }
    const LstmCellOptions options{run.P, clip_, inputForget_};
    std::vector<float> gates(static_cast<size_t>(N * GH));
    for (int64_t s = 0; s < T; ++s) {
      for (int64_t b = 0; b < N; ++b) {
        const int64_t len = lens[static_cast<size_t>(b)];
        if (s >= len) continue;
        const int64_t t = run.backward ? len - 1 - s : s;
        std::copy_n(run.xproj + (t * N + b) * GH, GH, gates.data() + b * GH);
      }
      if (run.packedR) {
        for (int64_t b = 0; b < N; ++b)
          if (s < lens[static_cast<size_t>(b)])
            addRowTimesPacked(run.h + b * H, run.packedR, H, GH, gates.data() + b * GH);
      } else {
        gemmNT<float>(N, GH, H, run.h, run.R, gates.data(), true, run.threads);
      }
      for (int64_t b = 0; b < N; ++b) {
        const int64_t len = lens[static_cast<size_t>(b)];
        if (s >= len) continue;
        const int64_t t = run.backward ? len - 1 - s : s;
        float* h = run.h + b * H;
        lstmCell(gates.data() + b * GH, options, run.c + b * H, h, H);
        std::copy_n(h, H, run.Y + t * run.yStep + b * H);
      }
    }
  }

  // The biases added to every step's projection once (Rb's hidden gate only
  // without linear_before_reset); then per step the entries still inside
  // their sequence gather their rows, add h·R^T of z and r (packed), and run
  // the vectorized cell.
  void gruDirectionFloat(const FloatDirection& run, const std::vector<int64_t>& lens, int64_t T,
                         int64_t N, int64_t H) const {
    const int64_t GH = 3 * H;
    std::vector<float> bias(static_cast<size_t>(GH));
    for (int64_t j = 0; j < GH; ++j)
      bias[static_cast<size_t>(j)] = run.Wb[j] + (j < 2 * H || !linearBeforeReset_ ? run.Rb[j] : 0);
    for (int64_t row = 0; row < T * N; ++row) {
      float* xr = run.xproj + row * GH;
      for (int64_t j = 0; j < GH; ++j) xr[j] += bias[static_cast<size_t>(j)];
    }
    const GruCellOptions options{clip_, linearBeforeReset_ != 0, run.Rb + 2 * H};
    const float* packedZr = run.packedR;
    const float* packedRh = run.packedR + packedSize(2 * H, H);
    std::vector<float> gates(static_cast<size_t>(GH)), scratch(static_cast<size_t>(H));
    for (int64_t s = 0; s < T; ++s) {
      for (int64_t b = 0; b < N; ++b) {
        const int64_t len = lens[static_cast<size_t>(b)];
        if (s >= len) continue;
        const int64_t t = run.backward ? len - 1 - s : s;
        float* h = run.h + b * H;
        std::copy_n(run.xproj + (t * N + b) * GH, GH, gates.data());
        addRowTimesPacked(h, packedZr, H, 2 * H, gates.data());
        gruCell(gates.data(), packedRh, options, h, H, scratch.data());
        std::copy_n(h, H, run.Y + t * run.yStep + b * H);
      }
    }
  }

  // zt, rt, ht in the order z, r, h; `hg` is h_prev·R^T without bias.
  template <class C>
  void gruStep(const C* xg, const C* hg, const C* Wb, const C* Rb, const C* Rd,
               const Activation* act, C* h, C* tmp, int64_t H) const {
    C* z = tmp;
    C* rg = tmp + H;
    C* rh = tmp + 2 * H;
    for (int64_t j = 0; j < H; ++j) {
      z[j] = act[0](clip(xg[j] + hg[j] + Wb[j] + Rb[j]));
      rg[j] = act[0](clip(xg[H + j] + hg[H + j] + Wb[H + j] + Rb[H + j]));
    }
    if (linearBeforeReset_) {
      for (int64_t j = 0; j < H; ++j) {
        C n = act[1](clip(xg[2 * H + j] + Wb[2 * H + j] + rg[j] * (hg[2 * H + j] + Rb[2 * H + j])));
        rh[j] = n;
      }
    } else {
      // (r ⊙ h_prev) · Rh^T
      C* rprev = tmp + 3 * H;
      for (int64_t j = 0; j < H; ++j) rprev[j] = rg[j] * h[j];
      const C* Rh = Rd + 2 * H * H;
      for (int64_t j = 0; j < H; ++j) {
        C acc = 0;
        for (int64_t k = 0; k < H; ++k) acc += rprev[k] * Rh[j * H + k];
        rh[j] = act[1](clip(xg[2 * H + j] + Wb[2 * H + j] + acc + Rb[2 * H + j]));
      }
    }
    for (int64_t j = 0; j < H; ++j) h[j] = (C(1) - z[j]) * rh[j] + z[j] * h[j];
  }

  // Gates in the order i, o, f, c; peepholes P in the order i, o, f.
  template <class C>
  void lstmStep(const C* xg, const C* hg, const C* Wb, const C* Rb, const C* P,
                const Activation* act, C* h, C* c, int64_t H) const {
    for (int64_t j = 0; j < H; ++j) {
      auto pre = [&](int64_t g) {
        return xg[g * H + j] + hg[g * H + j] + Wb[g * H + j] + Rb[g * H + j];
      };
      const C cPrev = c[j];
      C i = act[0](clip(pre(0) + P[j] * cPrev));
      C f = inputForget_ ? C(1) - i : act[0](clip(pre(2) + P[2 * H + j] * cPrev));
      C g = act[1](clip(pre(3)));
      C cNew = f * cPrev + i * g;
      C o = act[0](clip(pre(1) + P[H + j] * cNew));
      c[j] = cNew;
      h[j] = o * act[2](cNew);
    }
  }

  template <class S, class C>
  Status writeOutputs(KernelContext& ctx, const std::vector<C>& Y, const std::vector<C>& hState,
                      const std::vector<C>& cState, int64_t T, int64_t N, int64_t H) {
    const int64_t D = dirs_;
    if (ctx.wantsOutput(0)) {
      Dims dims = layout_ == 0 ? Dims{T, D, N, H} : Dims{N, T, D, H};
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dtypeOf<S>(), dims));
      S* out = y->mutableData<S>();
      for (int64_t t = 0; t < T; ++t)
        for (int64_t d = 0; d < D; ++d)
          for (int64_t b = 0; b < N; ++b) {
            const C* src = Y.data() + ((t * D + d) * N + b) * H;
            S* dst = out + (layout_ == 0 ? ((t * D + d) * N + b) : ((b * T + t) * D + d)) * H;
            for (int64_t j = 0; j < H; ++j) dst[j] = store<S>(static_cast<ComputeT<S>>(src[j]));
          }
    }
    auto writeState = [&](size_t o, const std::vector<C>& st) -> Status {
      if (o >= ctx.outputCount() || !ctx.wantsOutput(o)) return Status::ok();
      Dims dims = layout_ == 0 ? Dims{D, N, H} : Dims{N, D, H};
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(o, dtypeOf<S>(), dims));
      S* out = y->mutableData<S>();
      for (int64_t d = 0; d < D; ++d)
        for (int64_t b = 0; b < N; ++b) {
          const C* src = st.data() + (d * N + b) * H;
          S* dst = out + (layout_ == 0 ? (d * N + b) : (b * D + d)) * H;
          for (int64_t j = 0; j < H; ++j) dst[j] = store<S>(static_cast<ComputeT<S>>(src[j]));
        }
      return Status::ok();
    };
    PASSLAB_RETURN_IF_ERROR(writeState(1, hState));
    if (cell_ == Cell::kLstm) PASSLAB_RETURN_IF_ERROR(writeState(2, cState));
    return Status::ok();
  }

  Cell cell_ = Cell::kRnn;
  int64_t gates_ = 1, dirs_ = 1, hidden_ = 0, layout_ = 0;
  bool reverse_ = false, linearBeforeReset_ = false, inputForget_ = false;
  float clip_ = 0;
  std::vector<Activation> acts_;
  size_t perDir_ = 1;
  std::vector<float> packedR_;  // packedR()
  bool packedKept_ = false;
  std::vector<float> heldW_;  // weightsW(): a float16 or bfloat16 W as float
};

template <Cell kCell>
Expected<std::unique_ptr<Kernel>> makeRecurrent(const KernelBuild& b) {
  onednn::engine();  // oneDNN capped at PASSLAB_MAX_ISA before dnnl_sgemm looks at the CPU
  return Recurrent::create(b, kCell);
}

const KernelDef kRows[] = {
    {"", "RNN", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.RNN",
     makeRecurrent<Cell::kRnn>},
    {"", "GRU", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.GRU",
     makeRecurrent<Cell::kGru>},
    {"", "LSTM", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.LSTM",
     makeRecurrent<Cell::kLstm>},
};

}  // namespace

std::span<const KernelDef> rnnKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
