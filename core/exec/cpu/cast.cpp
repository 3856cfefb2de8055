// Cast and CastLike between every ONNX element type PassLab stores: the
// numbers, bool, strings, the float8 formats (saturate), float8e8m0
// (round_mode), float4e2m1 and the packed int4/uint4/int2/uint2.
//
// Floats become integers by truncation toward zero and then wrap to the
// target's width (NaN gives 0); numbers become bool as x != 0. Strings parse
// as integer or float literals ("+INF", "inf", "-INF", "NaN" in any case);
// numbers print as numpy does ("0.5", "1e-05", "NaN", "INF", "-INF"), the
// shortest text that reads back to the same value.
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "core/exec/cpu/cast_rules.h"
#include "core/exec/cpu/elementwise.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/half_convert_exact.h"
#include "core/exec/kernel.h"
#include "core/exec/minifloat.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

struct CastParams {
  bool saturate = true;
  E8M0Rounding rounding = E8M0Rounding::kUp;
};

// ---- the direct path between the standard types ----

// Truncates a float toward zero into 64 bits (NaN and values beyond 64 bits give 0).
inline uint64_t truncBits(double v) {
  if (!(std::fabs(v) < 18446744073709551616.0)) return 0;
  double t = std::trunc(v);
  if (t >= 9223372036854775808.0) return static_cast<uint64_t>(t);
  return static_cast<uint64_t>(static_cast<int64_t>(t));
}

template <class S, class D>
inline D convert(S v) {
  auto c = load(v);
  if constexpr (std::is_same_v<D, bool>) {
    return c != 0;
  } else if constexpr (std::is_integral_v<D>) {
    if constexpr (std::is_floating_point_v<decltype(c)>) {
      return static_cast<D>(truncBits(static_cast<double>(c)));
    } else {
      return static_cast<D>(c);
    }
  } else {
    return store<D>(static_cast<ComputeT<D>>(c));
  }
}

// out[i] = convert(in[i]) for n elements; float <-> float16 on the bulk
// conversions (the same bits as convert's, NaNs included), float/double to
// integers on a 32-bit truncation where it gives convert's result.
template <class S, class D>
void convertRange(const S* in, D* out, int64_t n) {
  if constexpr (std::is_same_v<S, float> && std::is_same_v<D, Half>) {
    floatToHalfExactN(in, reinterpret_cast<uint16_t*>(out), n);
  } else if constexpr (std::is_same_v<S, Half> && std::is_same_v<D, float>) {
    halfToFloatExactN(reinterpret_cast<const uint16_t*>(in), out, n);
  } else if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D> &&
                       !std::is_same_v<D, bool>) {
    // Inside int32's range truncation in 32 bits gives convert's low bits;
    // NaN and larger values take convert's path.
    for (int64_t i = 0; i < n; ++i) {
      const S v = in[i];
      out[i] = v > S(-2147483648.0) && v < S(2147483648.0) ? static_cast<D>(static_cast<int32_t>(v))
                                                           : convert<S, D>(v);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = convert<S, D>(in[i]);
  }
}

// ---- the general path: a number in flight ----

struct Scalar {
  enum class Kind : uint8_t { kFloat, kDouble, kSigned, kUnsigned, kBool };
  double f = 0;   // the value (exact for every float; integers beyond 2^53 rounded)
  int64_t i = 0;  // integers: the exact value (uint64 as its bits)
  Kind kind = Kind::kFloat;
  bool integral() const { return kind != Kind::kFloat && kind != Kind::kDouble; }
  uint64_t bits() const { return integral() ? static_cast<uint64_t>(i) : truncBits(f); }
};

inline Scalar fromFloat(double v, bool isDouble = false) {
  return {v, 0, isDouble ? Scalar::Kind::kDouble : Scalar::Kind::kFloat};
}
inline Scalar fromSigned(int64_t v) {
  return {static_cast<double>(v), v, Scalar::Kind::kSigned};
}
inline Scalar fromUnsigned(uint64_t v) {
  return {static_cast<double>(v), static_cast<int64_t>(v), Scalar::Kind::kUnsigned};
}

// A standard storage type.
template <class S>
struct StdCodec {
  static constexpr DataType kType = dtypeOf<S>();
  static constexpr int kBits = 8 * static_cast<int>(sizeof(S));
  static Scalar get(const void* p, int64_t k) {
    S v = static_cast<const S*>(p)[k];
    if constexpr (std::is_same_v<S, bool>) {
      return {v ? 1.0 : 0.0, v ? 1 : 0, Scalar::Kind::kBool};
    } else if constexpr (std::is_same_v<S, double>) {
      return fromFloat(v, true);
    } else if constexpr (std::is_floating_point_v<ComputeT<S>>) {
      return fromFloat(load(v));
    } else if constexpr (std::is_signed_v<S>) {
      return fromSigned(v);
    } else {
      return fromUnsigned(v);
    }
  }
  static void set(void* p, int64_t k, const Scalar& s, const CastParams&) {
    S& out = static_cast<S*>(p)[k];
    if constexpr (std::is_same_v<S, bool>) {
      out = s.integral() ? s.i != 0 : s.f != 0;
    } else if constexpr (std::is_integral_v<S>) {
      out = static_cast<S>(s.bits());
    } else {
      out = store<S>(static_cast<ComputeT<S>>(s.f));
    }
  }
};

// float8 and float4 formats (float4 packs two to a byte, low nibble first).
template <DataType T>
struct MiniCodec {
  static constexpr DataType kType = T;
  static constexpr int kBits = T == DataType::kFloat4E2M1 ? 4 : 8;
  static constexpr const MiniFloatFormat& format() {
    if constexpr (T == DataType::kFloat8E4M3FN) return kE4M3FN;
    if constexpr (T == DataType::kFloat8E4M3FNUZ) return kE4M3FNUZ;
    if constexpr (T == DataType::kFloat8E5M2) return kE5M2;
    if constexpr (T == DataType::kFloat8E5M2FNUZ) return kE5M2FNUZ;
    if constexpr (T == DataType::kFloat4E2M1) return kE2M1;
  }
  static Scalar get(const void* p, int64_t k) {
    const auto* b = static_cast<const uint8_t*>(p);
    uint8_t code = kBits == 8 ? b[k] : static_cast<uint8_t>((b[k / 2] >> (4 * (k % 2))) & 0xF);
    return fromFloat(miniFloatToFloat(code, format()));
  }
  static void set(void* p, int64_t k, const Scalar& s, const CastParams& prm) {
    auto* b = static_cast<uint8_t*>(p);
    uint8_t code = floatToMiniFloat(s.f, format(), prm.saturate);
    if constexpr (kBits == 8) {
      b[k] = code;
    } else {
      int shift = 4 * static_cast<int>(k % 2);
      b[k / 2] = static_cast<uint8_t>((b[k / 2] & ~(0xF << shift)) | (code << shift));
    }
  }
};

struct E8M0Codec {
  static constexpr DataType kType = DataType::kFloat8E8M0;
  static constexpr int kBits = 8;
  static Scalar get(const void* p, int64_t k) {
    return fromFloat(e8m0ToFloat(static_cast<const uint8_t*>(p)[k]));
  }
  static void set(void* p, int64_t k, const Scalar& s, const CastParams& prm) {
    static_cast<uint8_t*>(p)[k] = floatToE8M0(static_cast<float>(s.f), prm.saturate, prm.rounding);
  }
};

// int4, uint4, int2, uint2: packed low bits first; values wrap to the width.
template <DataType T, int kWidth, bool kSigned>
struct PackedIntCodec {
  static constexpr DataType kType = T;
  static constexpr int kBits = kWidth;
  static constexpr int kPerByte = 8 / kWidth;
  static constexpr uint8_t kMask = (1u << kWidth) - 1;
  static Scalar get(const void* p, int64_t k) {
    const auto* b = static_cast<const uint8_t*>(p);
    int shift = kWidth * static_cast<int>(k % kPerByte);
    int v = (b[k / kPerByte] >> shift) & kMask;
    if (kSigned && (v & (1 << (kWidth - 1)))) v -= (1 << kWidth);
    return kSigned ? fromSigned(v) : fromUnsigned(static_cast<uint64_t>(v));
  }
  static void set(void* p, int64_t k, const Scalar& s, const CastParams&) {
    auto* b = static_cast<uint8_t*>(p);
    int shift = kWidth * static_cast<int>(k % kPerByte);
    auto code = static_cast<uint8_t>(s.bits() & kMask);
    uint8_t& byte = b[k / kPerByte];
    byte = static_cast<uint8_t>((byte & ~(kMask << shift)) | (code << shift));
  }
};

// Calls f(TypeTag<Codec>{}) for the codec of `t` (not strings); false when none.
template <class F>
bool withCodec(DataType t, F&& f) {
  switch (t) {
#define PASSLAB_STD(DT, S)     \
  case DataType::DT:           \
    f(TypeTag<StdCodec<S>>{}); \
    return true;
    PASSLAB_STD(kFloat, float)
    PASSLAB_STD(kDouble, double)
    PASSLAB_STD(kFloat16, Half)
    PASSLAB_STD(kBFloat16, BFloat16)
    PASSLAB_STD(kInt8, int8_t)
    PASSLAB_STD(kUInt8, uint8_t)
    PASSLAB_STD(kInt16, int16_t)
    PASSLAB_STD(kUInt16, uint16_t)
    PASSLAB_STD(kInt32, int32_t)
    PASSLAB_STD(kUInt32, uint32_t)
    PASSLAB_STD(kInt64, int64_t)
    PASSLAB_STD(kUInt64, uint64_t)
    PASSLAB_STD(kBool, bool)
#undef PASSLAB_STD
    case DataType::kFloat8E4M3FN:
      f(TypeTag<MiniCodec<DataType::kFloat8E4M3FN>>{});
      return true;
    case DataType::kFloat8E4M3FNUZ:
      f(TypeTag<MiniCodec<DataType::kFloat8E4M3FNUZ>>{});
      return true;
    case DataType::kFloat8E5M2:
      f(TypeTag<MiniCodec<DataType::kFloat8E5M2>>{});
      return true;
    case DataType::kFloat8E5M2FNUZ:
      f(TypeTag<MiniCodec<DataType::kFloat8E5M2FNUZ>>{});
      return true;
    case DataType::kFloat4E2M1:
      f(TypeTag<MiniCodec<DataType::kFloat4E2M1>>{});
      return true;
    case DataType::kFloat8E8M0:
      f(TypeTag<E8M0Codec>{});
      return true;
    case DataType::kInt4:
      f(TypeTag<PackedIntCodec<DataType::kInt4, 4, true>>{});
      return true;
    case DataType::kUInt4:
      f(TypeTag<PackedIntCodec<DataType::kUInt4, 4, false>>{});
      return true;
    case DataType::kInt2:
      f(TypeTag<PackedIntCodec<DataType::kInt2, 2, true>>{});
      return true;
    case DataType::kUInt2:
      f(TypeTag<PackedIntCodec<DataType::kUInt2, 2, false>>{});
      return true;
    default:
      return false;
  }
}

// ---- strings ----

// numpy's text for a float: positional with at least one decimal ("0.5",
// "3.0") unless the exponent is below -4 or at least 16 ("1e-05", "1.5e+16").
template <class F>
std::string formatFloat(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  char buf[64];
  auto sci = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string s(buf, sci.ptr);
  auto epos = s.find('e');
  int exp = std::atoi(s.c_str() + epos + 1);
  if (v != 0 && (exp < -4 || exp >= 16)) return s;
  auto fix = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed);
  s.assign(buf, fix.ptr);
  if (s.find('.') == std::string::npos) s += ".0";
  return s;
}

std::string formatScalar(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::kBool:
      return s.i ? "True" : "False";
    case Scalar::Kind::kSigned:
      return std::to_string(s.i);
    case Scalar::Kind::kUnsigned:
      return std::to_string(static_cast<uint64_t>(s.i));
    case Scalar::Kind::kDouble:
      return formatFloat(s.f);
    case Scalar::Kind::kFloat:
      return formatFloat(static_cast<float>(s.f));
  }
  return {};
}

bool equalsIgnoreCase(const std::string& a, const char* b) {
  size_t n = std::strlen(b);
  if (a.size() != n) return false;
  for (size_t i = 0; i < n; ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  return true;
}

// Parses an integer or float literal; an error quotes the text.
Expected<Scalar> parseScalar(const std::string& text) {
  size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  std::string t = text.substr(b, e - b);
  if (equalsIgnoreCase(t, "true")) return Scalar{1, 1, Scalar::Kind::kBool};
  if (equalsIgnoreCase(t, "false")) return Scalar{0, 0, Scalar::Kind::kBool};
  if (equalsIgnoreCase(t, "nan") || equalsIgnoreCase(t, "+nan") || equalsIgnoreCase(t, "-nan"))
    return fromFloat(std::nan(""), true);
  if (equalsIgnoreCase(t, "inf") || equalsIgnoreCase(t, "+inf")) return fromFloat(HUGE_VAL, true);
  if (equalsIgnoreCase(t, "-inf")) return fromFloat(-HUGE_VAL, true);
  if (!t.empty()) {
    const char* first = t.data();
    const char* last = t.data() + t.size();
    if (*first == '+') ++first;
    int64_t iv;
    auto r = std::from_chars(first, last, iv);
    if (r.ec == std::errc() && r.ptr == last) return fromSigned(iv);
    uint64_t uv;
    r = std::from_chars(first, last, uv);
    if (r.ec == std::errc() && r.ptr == last) return fromUnsigned(uv);
    double dv;
    r = std::from_chars(first, last, dv);
    if (r.ec == std::errc() && r.ptr == last) return fromFloat(dv, true);
    if (r.ec == std::errc::result_out_of_range && r.ptr == last)
      return fromFloat(t[0] == '-' ? -HUGE_VAL : HUGE_VAL, true);
  }
  return invalidArgument("cannot read \"" + text + "\" as a number");
}

// ---- the kernel ----

class Cast final : public Kernel {
 public:
  // `likeInput`: CastLike, the target type is input 1's.
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b, bool likeInput) {
    const ir::Node& n = b.node();
    auto k = std::unique_ptr<Cast>(new Cast());
    k->likeInput_ = likeInput;
    if (!likeInput) {
      PASSLAB_ASSIGN_OR_RETURN(k->to_, castTargetType(n));
      if (!castable(k->to_)) return unsupported("casting to " + std::string(ir::dtypeName(k->to_)));
    }
    k->params_.saturate = n.attrInt("saturate", 1) != 0;
    std::string mode = n.attrString("round_mode", "up");
    if (mode == "up") {
      k->params_.rounding = E8M0Rounding::kUp;
    } else if (mode == "down") {
      k->params_.rounding = E8M0Rounding::kDown;
    } else if (mode == "nearest") {
      k->params_.rounding = E8M0Rounding::kNearest;
    } else {
      return invalidArgument("round_mode must be \"up\", \"down\" or \"nearest\", got \"" + mode +
                             "\"");
    }
    return std::unique_ptr<Kernel>(std::move(k));
  }

  static bool castable(DataType t) {
    return t == DataType::kString || withCodec(t, [](auto) {});
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    DataType to = likeInput_ ? ctx.input(1).dtype() : to_;
    if (!castable(x.dtype()))
      return unsupported("casting from " + std::string(ir::dtypeName(x.dtype())));
    if (!castable(to)) return unsupported("casting to " + std::string(ir::dtypeName(to)));
    if (to == x.dtype()) {
      ctx.setOutput(0, Value(x));
      return Status::ok();
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, to, x.dims()));
    const int64_t n = x.numel();
    if (x.isString()) return fromStrings(x, *y, n);
    // Y may take X's memory (kInPlace: same byte size). Element i then reads
    // and writes the same bytes, except where the widths differ or Y is packed
    // (cleared first): those (a few elements: int4 to int2, uint8[1] to
    // int4...) read X from a copy.
    if (!y->isString() && sharesBytes(*y, x) &&
        (ir::dtypeStorageBytes(x.dtype(), 8) != ir::dtypeStorageBytes(to, 8) || packedType(to))) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor copy, ctx.scratch(x.dtype(), x.dims()));
      std::memcpy(copy.mutableRaw(), x.raw(), x.byteSize());
      return castInto(copy, *y, n, ctx);
    }
    return castInto(x, *y, n, ctx);
  }

 private:
  Cast() = default;

  static bool packedType(DataType t) {
    bool packed = false;
    withCodec(t, [&](auto codec) { packed = decltype(codec)::type::kBits < 8; });
    return packed;
  }

  // Y = X cast, X not strings.
  Status castInto(const Tensor& x, Tensor& yRef, int64_t n, KernelContext& ctx) const {
    Tensor* y = &yRef;
    const DataType to = y->dtype();
    if (y->isString()) {
      std::string* out = y->mutableData<std::string>();
      withCodec(x.dtype(), [&](auto src) {
        using In = typename decltype(src)::type;
        for (int64_t i = 0; i < n; ++i) out[i] = formatScalar(In::get(x.raw(), i));
      });
      return Status::ok();
    }
    constexpr TypeSet kStd = types::kNumeric | types::kBool;
    if (kStd.contains(x.dtype()) && kStd.contains(to)) {
      return dispatch<kStd>(x.dtype(), [&](auto st) -> Status {
        using S = typename decltype(st)::type;
        return dispatch<kStd>(to, [&](auto dt) -> Status {
          using D = typename decltype(dt)::type;
          const S* in = x.data<S>();
          D* out = y->mutableData<D>();
          parallelFor(n, ctx.threads(), kElementwiseGrain,
                      [&](int64_t b, int64_t e) { convertRange(in + b, out + b, e - b); });
          return Status::ok();
        });
      });
    }
    withCodec(x.dtype(), [&](auto src) {
      using In = typename decltype(src)::type;
      withCodec(to, [&](auto dst) {
        using Out = typename decltype(dst)::type;
        const void* in = x.raw();
        void* out = y->mutableRaw();
        auto body = [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) Out::set(out, i, In::get(in, i), params_);
        };
        // Packed outputs share bytes between neighbours: cleared, then written by one thread.
        if (Out::kBits < 8) {
          std::memset(out, 0, y->byteSize());
          body(0, n);
        } else {
          parallelFor(n, ctx.threads(), kElementwiseGrain, body);
        }
      });
    });
    return Status::ok();
  }

  Status fromStrings(const Tensor& x, Tensor& y, int64_t n) const {
    const std::string* in = x.data<std::string>();
    Status status;
    withCodec(y.dtype(), [&](auto dst) {
      using Out = typename decltype(dst)::type;
      void* out = y.mutableRaw();
      if (Out::kBits < 8) std::memset(out, 0, y.byteSize());
      for (int64_t i = 0; i < n && status.isOk(); ++i) {
        auto s = parseScalar(in[i]);
        if (!s) {
          status = s.error();
          break;
        }
        Out::set(out, i, s.value(), params_);
      }
    });
    return status;
  }

  bool likeInput_ = false;
  DataType to_ = DataType::kUndefined;
  CastParams params_;
};

Expected<std::unique_ptr<Kernel>> makeCast(const KernelBuild& b) {
  return Cast::create(b, false);
}
Expected<std::unique_ptr<Kernel>> makeCastLike(const KernelBuild& b) {
  return Cast::create(b, true);
}

// Every castable type, as a row's type set.
constexpr TypeSet kCastTypes =
    types::kAll | TypeSet{DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ,
                          DataType::kFloat8E5M2,   DataType::kFloat8E5M2FNUZ,
                          DataType::kFloat8E8M0,   DataType::kFloat4E2M1,
                          DataType::kInt4,         DataType::kUInt4,
                          DataType::kInt2,         DataType::kUInt2};

const KernelDef kRows[] = {
    // Element i of Y from element i of X; over X's memory when the widths
    // match, through a copy otherwise (Cast::run): in place (kInPlace).
    {"", "Cast", 1, kOpsetMax, kCastTypes, 0, Tier::kReference, "cpu.Cast", makeCast, kInPlace},
    {"", "CastLike", 15, kOpsetMax, kCastTypes, 0, Tier::kReference, "cpu.CastLike", makeCastLike},
};

}  // namespace

std::span<const KernelDef> castKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
