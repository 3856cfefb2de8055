#include "core/support/text.h"

namespace passlab {

std::string Text::str() const {
  if (args_.empty()) return std::string(templ());
  std::string out;
  out.reserve(templ().size() + 16 * args_.size());
  appendTo(out);
  return out;
}

bool Text::empty() const {
  const std::string_view t = templ();
  if (t.empty()) return true;
  if (args_.empty()) return false;
  // Non-empty unless the template is placeholders alone, each filled with "".
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] != '%' || i + 1 >= t.size() || t[i + 1] < '0' || t[i + 1] > '9') return false;
    size_t n = 0;
    while (i + 1 < t.size() && t[i + 1] >= '0' && t[i + 1] <= '9')
      n = n * 10 + static_cast<size_t>(t[++i] - '0');
    if (n == 0 || n > args_.size()) return false;  // kept as written: not empty
    if (!args_[n - 1].empty()) return false;
  }
  return true;
}

Text Text::join(std::vector<Text> parts, std::string_view separator) {
  Text t;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) t.owned_ += separator;
    t.owned_ += "%" + std::to_string(i + 1);
  }
  t.args_ = std::move(parts);
  return t;
}

void Text::appendTo(std::string& out) const {
  if (args_.empty()) {
    out += templ();
    return;
  }
  substitutePlaceholders(
      templ(), args_, [](const Text& arg, std::string& o) { arg.appendTo(o); }, out);
}

}  // namespace passlab
