// Signal processing: DFT (forward and inverse, one-sided, real or complex
// input, any axis), STFT, the Hann, Hamming and Blackman windows and
// MelWeightMatrix. Complex values are a trailing dim of 2 (real, imaginary);
// real signals have a trailing dim of 1. Transforms are computed in double.
#include <cmath>
#include <complex>
#include <numbers>
#include <string>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

using Complex = std::complex<double>;

Expected<int64_t> readScalarInt(const Tensor& t, const char* what) {
  if (t.numel() != 1)
    return invalidArgument(std::string(what) + " must be a scalar, got " + t.describe());
  PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> v, readInts(t, what));
  return v[0];
}

template <class S>
std::vector<double> doublesOf(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(load(t.data<S>()[i]));
  return v;
}

// out[k] = sum_j in[j] e^(-+2 pi i jk/n) over the first min(len, n) inputs;
// the inverse divides by n.
void dft(const std::vector<Complex>& in, int64_t n, bool inverse, std::vector<Complex>& out) {
  out.assign(static_cast<size_t>(n), Complex(0, 0));
  const int64_t len = std::min<int64_t>(static_cast<int64_t>(in.size()), n);
  const double sign = inverse ? 1.0 : -1.0;
  for (int64_t k = 0; k < n; ++k) {
    Complex acc(0, 0);
    for (int64_t j = 0; j < len; ++j) {
      // (j * k) mod n keeps the angle small and exact.
      const double ang =
          sign * 2 * std::numbers::pi * static_cast<double>((j * k) % n) / static_cast<double>(n);
      acc += in[static_cast<size_t>(j)] * Complex(std::cos(ang), std::sin(ang));
    }
    out[static_cast<size_t>(k)] = inverse ? acc / static_cast<double>(n) : acc;
  }
}

class Dft final : public Kernel {
 public:
  explicit Dft(const KernelBuild& b)
      : opset_(b.opset()),
        axis_(b.node().attrInt("axis", 1)),
        inverse_(b.node().attrInt("inverse", 0) != 0),
        onesided_(b.node().attrInt("onesided", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2 || (x.dim(x.rank() - 1) != 1 && x.dim(x.rank() - 1) != 2))
      return invalidArgument("input must end in a dim of 1 (real) or 2 (complex), got " +
                             x.describe());
    int64_t axisValue = opset_ >= 20 ? -2 : axis_;
    if (opset_ >= 20 && ctx.has(2)) {
      PASSLAB_ASSIGN_OR_RETURN(axisValue, readScalarInt(ctx.input(2), "axis"));
    }
    const auto rank = static_cast<int64_t>(x.rank());
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axisValue, rank));
    if (axis == rank - 1) return invalidArgument("axis must not be the last (complex) dim");
    const int64_t len = x.dim(static_cast<size_t>(axis));
    int64_t n = inverse_ && onesided_ ? 2 * (len - 1) : len;
    if (ctx.has(1)) {
      PASSLAB_ASSIGN_OR_RETURN(n, readScalarInt(ctx.input(1), "dft_length"));
    }
    if (n < 1) return invalidArgument("dft_length must be positive, got " + std::to_string(n));
    const bool complexIn = x.dim(x.rank() - 1) == 2;
    const bool realOut = inverse_ && onesided_;
    const int64_t bins = !inverse_ && onesided_ ? n / 2 + 1 : n;
    Dims out = x.dims();
    out[static_cast<size_t>(axis)] = bins;
    out.back() = realOut ? 1 : 2;
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
      const std::vector<double> X = doublesOf<S>(x);
      int64_t outer = 1, inner = 1;
      for (int64_t d = 0; d < axis; ++d) outer *= x.dim(static_cast<size_t>(d));
      for (int64_t d = axis + 1; d < rank - 1; ++d) inner *= x.dim(static_cast<size_t>(d));
      const int64_t cIn = x.dim(x.rank() - 1), cOut = out.back();
      S* Y = y->mutableData<S>();
      parallelFor(outer * inner, ctx.threads(), 1, [&](int64_t b, int64_t e) {
        std::vector<Complex> sig, res;
        for (int64_t j = b; j < e; ++j) {
          const int64_t o = j / inner, in = j % inner;
          sig.resize(static_cast<size_t>(len));
          for (int64_t t = 0; t < len; ++t) {
            const double* p = X.data() + ((o * len + t) * inner + in) * cIn;
            sig[static_cast<size_t>(t)] = Complex(p[0], complexIn ? p[1] : 0.0);
          }
          if (realOut) {
            // Inverse of a one-sided spectrum: rebuild the Hermitian full spectrum.
            std::vector<Complex> full(static_cast<size_t>(n));
            for (int64_t k = 0; k <= n / 2; ++k)
              full[static_cast<size_t>(k)] = k < len ? sig[static_cast<size_t>(k)] : Complex(0, 0);
            full[0] = Complex(full[0].real(), 0);
            if (n % 2 == 0)
              full[static_cast<size_t>(n / 2)] =
                  Complex(full[static_cast<size_t>(n / 2)].real(), 0);
            for (int64_t k = n / 2 + 1; k < n; ++k)
              full[static_cast<size_t>(k)] = std::conj(full[static_cast<size_t>(n - k)]);
            dft(full, n, true, res);
          } else {
            dft(sig, n, inverse_, res);
          }
          for (int64_t k = 0; k < bins; ++k) {
            S* q = Y + ((o * bins + k) * inner + in) * cOut;
            q[0] = store<S>(static_cast<ComputeT<S>>(res[static_cast<size_t>(k)].real()));
            if (cOut == 2)
              q[1] = store<S>(static_cast<ComputeT<S>>(res[static_cast<size_t>(k)].imag()));
          }
        }
      });
      return Status::ok();
    });
  }

 private:
  int64_t opset_, axis_;
  bool inverse_, onesided_;
};

class Stft final : public Kernel {
 public:
  explicit Stft(const KernelBuild& b) : onesided_(b.node().attrInt("onesided", 1) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 3 || (x.dim(2) != 1 && x.dim(2) != 2))
      return invalidArgument("signal must be [batch, length, 1 or 2], got " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(int64_t step, readScalarInt(ctx.input(1), "frame_step"));
    if (step < 1)
      return invalidArgument("frame_step must be positive, got " + std::to_string(step));
    const Tensor* window = ctx.has(2) ? &ctx.input(2) : nullptr;
    if (window && (window->rank() != 1 || window->dtype() != x.dtype()))
      return invalidArgument("window must be 1-D of the signal's type, got " + window->describe());
    const int64_t B = x.dim(0), L = x.dim(1), C = x.dim(2);
    int64_t frameLength = window ? window->dim(0) : L;
    if (ctx.has(3)) {
      PASSLAB_ASSIGN_OR_RETURN(frameLength, readScalarInt(ctx.input(3), "frame_length"));
    }
    const int64_t windowSize = window ? window->dim(0) : frameLength;
    if (frameLength < 1 || frameLength > L)
      return invalidArgument("frame_length " + std::to_string(frameLength) + " must be in [1, " +
                             std::to_string(L) + "]");
    const int64_t frames = 1 + (L - frameLength) / step;
    const int64_t bins = onesided_ ? frameLength / 2 + 1 : frameLength;
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const std::vector<double> X = doublesOf<S>(x);
      const std::vector<double> W = window
                                        ? doublesOf<S>(*window)
                                        : std::vector<double>(static_cast<size_t>(windowSize), 1.0);
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), {B, frames, bins, 2}));
      S* Y = y->mutableData<S>();
      parallelFor(B * frames, ctx.threads(), 1, [&](int64_t begin, int64_t end) {
        std::vector<Complex> sig, res;
        for (int64_t j = begin; j < end; ++j) {
          const int64_t b = j / frames, f = j % frames;
          sig.assign(static_cast<size_t>(windowSize), Complex(0, 0));
          for (int64_t t = 0; t < windowSize; ++t) {
            const int64_t at = f * step + t;
            if (at >= L) break;
            const double* p = X.data() + (b * L + at) * C;
            sig[static_cast<size_t>(t)] =
                Complex(p[0], C == 2 ? p[1] : 0.0) * W[static_cast<size_t>(t)];
          }
          dft(sig, frameLength, false, res);
          for (int64_t k = 0; k < bins; ++k) {
            S* q = Y + (j * bins + k) * 2;
            q[0] = store<S>(static_cast<ComputeT<S>>(res[static_cast<size_t>(k)].real()));
            q[1] = store<S>(static_cast<ComputeT<S>>(res[static_cast<size_t>(k)].imag()));
          }
        }
      });
      return Status::ok();
    });
  }

 private:
  bool onesided_;
};

// Writes doubles as `dtype` (floats rounded, integers truncated toward zero).
Status writeAs(KernelContext& ctx, ir::DataType dtype, const Dims& dims,
               const std::vector<double>& v) {
  PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dtype, dims));
  return dispatch<types::kNumeric>(dtype, [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    S* p = y->mutableData<S>();
    for (size_t i = 0; i < v.size(); ++i) p[i] = store<S>(static_cast<ComputeT<S>>(v[i]));
    return Status::ok();
  });
}

enum class Window { kHann, kHamming, kBlackman };

template <Window kWindow>
class WindowKernel final : public Kernel {
 public:
  explicit WindowKernel(const KernelBuild& b)
      : dtype_(static_cast<ir::DataType>(b.node().attrInt("output_datatype", 1))),
        periodic_(b.node().attrInt("periodic", 1) != 0) {}

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(int64_t size, readScalarInt(ctx.input(0), "size"));
    if (size < 0) return invalidArgument("size must not be negative, got " + std::to_string(size));
    const double N = static_cast<double>(periodic_ ? size : size - 1);
    const double pi = std::numbers::pi;
    std::vector<double> w(static_cast<size_t>(size));
    for (int64_t i = 0; i < size; ++i) {
      const double n = static_cast<double>(i);
      switch (kWindow) {
        case Window::kHann:
          w[static_cast<size_t>(i)] = std::pow(std::sin(n * pi / N), 2);
          break;
        case Window::kHamming:
          w[static_cast<size_t>(i)] = 25.0 / 46.0 - std::cos(n * pi * 2 / N) * (21.0 / 46.0);
          break;
        case Window::kBlackman:
          w[static_cast<size_t>(i)] =
              0.42 - 0.5 * std::cos(n * pi * 2 / N) + 0.08 * std::cos(n * pi * 4 / N);
          break;
      }
    }
    return writeAs(ctx, dtype_, {size}, w);
  }

 private:
  ir::DataType dtype_;
  bool periodic_;
};

class MelWeightMatrix final : public Kernel {
 public:
  explicit MelWeightMatrix(const KernelBuild& b)
      : dtype_(static_cast<ir::DataType>(b.node().attrInt("output_datatype", 1))) {}

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(int64_t mels, readScalarInt(ctx.input(0), "num_mel_bins"));
    PASSLAB_ASSIGN_OR_RETURN(int64_t dftLength, readScalarInt(ctx.input(1), "dft_length"));
    PASSLAB_ASSIGN_OR_RETURN(int64_t rate, readScalarInt(ctx.input(2), "sample_rate"));
    if (mels < 1 || dftLength < 1 || rate < 1)
      return invalidArgument("num_mel_bins, dft_length and sample_rate must be positive");
    double lo = 0, hi = 0;
    PASSLAB_RETURN_IF_ERROR(readHertz(ctx.input(3), lo));
    PASSLAB_RETURN_IF_ERROR(readHertz(ctx.input(4), hi));
    const int64_t specBins = dftLength / 2 + 1;
    // The mel edges in float, then the bins in double, as the ONNX reference does.
    auto toMel = [](double hz) {
      float l = std::log1p(static_cast<float>(hz) / 700.0f);
      return static_cast<double>(2595.0f * l) / std::log(10.0);
    };
    const double loMel = toMel(lo), hiMel = toMel(hi);
    const double step = (hiMel - loMel) / static_cast<double>(mels + 2);
    std::vector<int64_t> bins(static_cast<size_t>(mels + 2));
    for (int64_t i = 0; i < mels + 2; ++i) {
      double hz = 700 * std::expm1((static_cast<double>(i) * step + loMel) / 2595 * std::log(10.0));
      bins[static_cast<size_t>(i)] = static_cast<int64_t>(
          std::floor(static_cast<double>(dftLength + 1) * hz / static_cast<double>(rate)));
    }
    std::vector<double> w(static_cast<size_t>(specBins * mels), 0.0);
    auto at = [&](int64_t j, int64_t i) -> Status {
      if (j < 0 || j >= specBins)
        return invalidArgument("the mel edges reach frequency bin " + std::to_string(j) +
                               ", outside [0, " + std::to_string(specBins) +
                               "): the edge frequencies do not fit the sample rate");
      return Status::ok();
    };
    for (int64_t i = 0; i < mels; ++i) {
      const int64_t l = bins[static_cast<size_t>(i)], c = bins[static_cast<size_t>(i + 1)],
                    r = bins[static_cast<size_t>(i + 2)];
      if (c - l == 0) {
        PASSLAB_RETURN_IF_ERROR(at(c, i));
        w[static_cast<size_t>(c * mels + i)] = 1;
      } else {
        for (int64_t j = l; j <= c; ++j) {
          PASSLAB_RETURN_IF_ERROR(at(j, i));
          w[static_cast<size_t>(j * mels + i)] =
              static_cast<double>(j - l) / static_cast<double>(c - l);
        }
      }
      if (r - c > 0)
        for (int64_t j = c; j < r; ++j) {
          PASSLAB_RETURN_IF_ERROR(at(j, i));
          w[static_cast<size_t>(j * mels + i)] =
              static_cast<double>(r - j) / static_cast<double>(r - c);
        }
    }
    return writeAs(ctx, dtype_, {specBins, mels}, w);
  }

 private:
  static Status readHertz(const Tensor& t, double& out) {
    if (t.numel() != 1)
      return invalidArgument("edge frequencies must be scalars, got " + t.describe());
    return dispatch<types::kFloats>(t.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      out = static_cast<double>(load(t.data<S>()[0]));
      return Status::ok();
    });
  }
  ir::DataType dtype_;
};

constexpr TypeSet kIndexTypes{ir::DataType::kInt32, ir::DataType::kInt64};

const KernelDef kRows[] = {
    {"", "DFT", 17, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.DFT", makeKernel<Dft>},
    {"", "STFT", 17, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.STFT", makeKernel<Stft>},
    {"", "HannWindow", 17, kOpsetMax, kIndexTypes, 0, Tier::kReference, "cpu.HannWindow",
     makeKernel<WindowKernel<Window::kHann>>},
    {"", "HammingWindow", 17, kOpsetMax, kIndexTypes, 0, Tier::kReference, "cpu.HammingWindow",
     makeKernel<WindowKernel<Window::kHamming>>},
    {"", "BlackmanWindow", 17, kOpsetMax, kIndexTypes, 0, Tier::kReference, "cpu.BlackmanWindow",
     makeKernel<WindowKernel<Window::kBlackman>>},
    {"", "MelWeightMatrix", 17, kOpsetMax, kIndexTypes, 0, Tier::kReference, "cpu.MelWeightMatrix",
     makeKernel<MelWeightMatrix>},
};

}  // namespace

std::span<const KernelDef> signalKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
