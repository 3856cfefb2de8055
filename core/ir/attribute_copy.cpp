#include "core/ir/attribute_copy.h"

namespace passlab::ir {

void copyAttributeData(const Attribute& src, Attribute& dst) {
  dst.setRefAttrName(src.refAttrName());
  dst.setDocString(src.docString());
  dst.f = src.f;
  dst.i = src.i;
  dst.s = src.s;
  dst.t = src.t;
  dst.sparse = src.sparse;
  dst.tp = src.tp;
  dst.floats = src.floats;
  dst.ints = src.ints;
  dst.strings = src.strings;
  dst.tensors = src.tensors;
  dst.sparseTensors = src.sparseTensors;
  dst.typeProtos = src.typeProtos;
}

std::optional<Attribute> copyAttribute(const Attribute& a) {
  if (a.g || !a.graphs.empty()) return std::nullopt;
  Attribute c(a.name(), a.type());
  copyAttributeData(a, c);
  return c;
}

}  // namespace passlab::ir
