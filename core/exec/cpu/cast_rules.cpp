#include "core/exec/cpu/cast_rules.h"

#include <cctype>
#include <string>

namespace passlab::exec::cpu {

Expected<ir::DataType> castTargetType(const ir::Node& n) {
  const ir::Attribute* to = n.attr("to");
  if (!to) return invalidArgument("Cast needs the `to` attribute");
  if (to->type() == ir::AttrType::kString) {  // Cast-1 names the type: "FLOAT"
    std::string name = to->s;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto dt = ir::dtypeFromName(name);
    if (!dt) return invalidArgument("`to` names no element type: \"" + to->s + "\"");
    return *dt;
  }
  if (!ir::isKnownDtype(static_cast<int32_t>(to->i)))
    return invalidArgument("`to` is not an element type: " + std::to_string(to->i));
  return static_cast<ir::DataType>(to->i);
}

}  // namespace passlab::exec::cpu
