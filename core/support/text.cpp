#include "core/support/text.h"

namespace passlab {

std::string Text::str() const {
  if (args_.empty()) return templ_;
  std::string out;
  out.reserve(templ_.size() + 16 * args_.size());
  appendTo(out);
  return out;
}

bool Text::empty() const {
  if (templ_.empty()) return true;
  if (args_.empty()) return false;
  // Non-empty unless the template is placeholders alone, each filled with "".
  for (size_t i = 0; i < templ_.size(); ++i) {
    if (templ_[i] != '%' || i + 1 >= templ_.size() || templ_[i + 1] < '0' || templ_[i + 1] > '9')
      return false;
    size_t n = 0;
    while (i + 1 < templ_.size() && templ_[i + 1] >= '0' && templ_[i + 1] <= '9')
      n = n * 10 + static_cast<size_t>(templ_[++i] - '0');
    if (n == 0 || n > args_.size()) return false;  // kept as written: not empty
    if (!args_[n - 1].empty()) return false;
  }
  return true;
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
