// Keeps protobuf fields this version of the format does not describe, so a
// newer file loses nothing through a load/save cycle.
#pragma once

#include <google/protobuf/message.h>
#include <google/protobuf/unknown_field_set.h>

#include <string>

namespace passlab::io {

inline std::string unknownFieldsOf(const google::protobuf::Message& m) {
  const auto& set = m.GetReflection()->GetUnknownFields(m);
  if (set.empty()) return {};
  std::string out;
  set.SerializeToString(&out);
  return out;
}

inline void restoreUnknownFields(google::protobuf::Message& m, const std::string& bytes) {
  if (bytes.empty()) return;
  m.GetReflection()->MutableUnknownFields(&m)->ParseFromArray(bytes.data(),
                                                              static_cast<int>(bytes.size()));
}

}  // namespace passlab::io
