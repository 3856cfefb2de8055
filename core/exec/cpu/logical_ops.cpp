// Boolean logic (And, Or, Xor, Not) and bit operations on integers
// (BitwiseAnd/Or/Xor/Not, BitShift), elementwise with broadcasting.
#include <limits>
#include <type_traits>

#include "core/exec/cpu/binary_legacy.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

namespace {

struct AndOp {
  static constexpr TypeSet kTypes = types::kBool;
  bool operator()(bool a, bool b) const { return a && b; }
};
struct OrOp {
  static constexpr TypeSet kTypes = types::kBool;
  bool operator()(bool a, bool b) const { return a || b; }
};
struct XorOp {
  static constexpr TypeSet kTypes = types::kBool;
  bool operator()(bool a, bool b) const { return a != b; }
};
struct NotOp {
  static constexpr TypeSet kTypes = types::kBool;
  bool operator()(bool a) const { return !a; }
};

struct BitwiseAndOp {
  static constexpr TypeSet kTypes = types::kInts;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a & b);
  }
};
struct BitwiseOrOp {
  static constexpr TypeSet kTypes = types::kInts;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a | b);
  }
};
struct BitwiseXorOp {
  static constexpr TypeSet kTypes = types::kInts;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a ^ b);
  }
};
struct BitwiseNotOp {
  static constexpr TypeSet kTypes = types::kInts;
  template <class C>
  C operator()(C a) const {
    return static_cast<C>(~a);
  }
};

// z = x << y or x >> y. Shifts by a negative amount or by the bit width or more
// give 0 (a negative x shifted right gives -1); signed right shifts are
// arithmetic and signed left shifts work on the two's complement bits.
struct BitShiftOp {
  static constexpr TypeSet kTypes = types::kInts;
  static Status check(const KernelBuild& b) {
    std::string d = b.node().attrString("direction", "");
    if (d != "LEFT" && d != "RIGHT")
      return invalidArgument("direction must be \"LEFT\" or \"RIGHT\", got \"" + d + "\"");
    if (b.opset() < 28 && b.dtype() != ir::DataType::kUndefined && isSignedInteger(b.dtype()))
      return unsupported("BitShift takes signed integers from opset 28; the model imports opset " +
                         std::to_string(b.opset()));
    return Status::ok();
  }
  explicit BitShiftOp(const KernelBuild& b)
      : left(b.node().attrString("direction", "") == "LEFT") {}
  template <class C>
  C operator()(C x, C y) const {
    using U = std::make_unsigned_t<C>;
    constexpr int kBits = std::numeric_limits<U>::digits;
    bool inRange = static_cast<U>(y) < static_cast<U>(kBits);  // negative y wraps to huge
    if (left) return inRange ? static_cast<C>(static_cast<U>(static_cast<U>(x) << y)) : C(0);
    if (inRange) return static_cast<C>(x >> y);
    if constexpr (std::is_signed_v<C>) {
      if (x < 0) return C(-1);
    }
    return C(0);
  }
  bool left;
};

const KernelDef kRows[] = {
    legacyBinaryRow<AndOp>("And", 1, kOpsetMax, "cpu.And"),
    legacyBinaryRow<OrOp>("Or", 1, kOpsetMax, "cpu.Or"),
    legacyBinaryRow<XorOp>("Xor", 1, kOpsetMax, "cpu.Xor"),
    unaryRow<NotOp>("Not", 1, kOpsetMax, "cpu.Not"),
    legacyBinaryRow<BitwiseAndOp>("BitwiseAnd", 18, kOpsetMax, "cpu.BitwiseAnd"),
    legacyBinaryRow<BitwiseOrOp>("BitwiseOr", 18, kOpsetMax, "cpu.BitwiseOr"),
    legacyBinaryRow<BitwiseXorOp>("BitwiseXor", 18, kOpsetMax, "cpu.BitwiseXor"),
    unaryRow<BitwiseNotOp>("BitwiseNot", 18, kOpsetMax, "cpu.BitwiseNot"),
    legacyBinaryRow<BitShiftOp>("BitShift", 11, kOpsetMax, "cpu.BitShift"),
};

}  // namespace

std::span<const KernelDef> logicalKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
