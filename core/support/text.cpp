#include "core/support/text.h"

namespace passlab {

std::string Text::str() const {
  if (args_.empty()) return templ_;
  std::string out;
  out.reserve(templ_.size() + 16 * args_.size());
  appendTo(out);
  return out;
}

Text Text::join(std::vector<Text> parts, std::string_view separator) {
  Text t;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) t.templ_ += separator;
    t.templ_ += "%" + std::to_string(i + 1);
  }
  t.args_ = std::move(parts);
  return t;
}

void Text::appendTo(std::string& out) const {
  if (args_.empty()) {
    out += templ_;
    return;
  }
  substitutePlaceholders(
      templ_, args_, [](const Text& arg, std::string& o) { arg.appendTo(o); }, out);
}

}  // namespace passlab
