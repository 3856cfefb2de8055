// A user-visible message of core, kept structured for translation: an English
// template with numbered placeholders (%1, %2, ...) and its arguments, each
// itself a Text (a name, a number, or a nested message). core/ is Qt-free and
// speaks English; the UI translates the template (the template is its id in
// the "core" catalog) and puts the translated arguments back in, so nothing
// is parsed back out of English.
//
//   Text::of("'%1' has %2 consumers", name, std::to_string(n))
//
// A Text made from a plain string is a template without arguments: a literal
// sentence ("the pads are not constant", translated as a whole) or data (a
// name, which the catalog does not know and so stays as it is).
// scripts/dev/gen_core_messages.py collects the templates into the catalog
// and fails when a message in core is built by string concatenation instead.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace passlab {

class Text {
 public:
  Text() = default;
  Text(std::string s) : owned_(std::move(s)) {}  // NOLINT(google-explicit-constructor)
  Text(const char* s) : owned_(s) {}             // NOLINT(google-explicit-constructor)
  Text(std::string_view s) : owned_(s) {}        // NOLINT(google-explicit-constructor)

  // A message from a template and its arguments (anything a Text is made
  // from: strings, names, other Texts).
  template <class... Args>
  static Text of(std::string templ, Args&&... args) {
    Text t(std::move(templ));
    t.addArgs(std::forward<Args>(args)...);
    return t;
  }
  // The same for a template written as a literal (an array of static
  // storage): kept by pointer, not copied. Matchers make a message on every
  // failed match, so this saves an allocation each.
  template <size_t N, class... Args>
  static Text of(const char (&templ)[N], Args&&... args) {
    Text t;
    t.literal_ = templ;
    t.addArgs(std::forward<Args>(args)...);
    return t;
  }

  // The parts one after another, `separator` between them ("%1; %2; %3").
  static Text join(std::vector<Text> parts, std::string_view separator);

  std::string_view templ() const {
    return literal_ ? std::string_view(literal_) : std::string_view(owned_);
  }
  const std::vector<Text>& args() const { return args_; }

  // The message in English: the template with its arguments put in.
  std::string str() const;
  explicit operator std::string() const { return str(); }
  // Whether the English is "" (without rendering it: why-not helpers return
  // "" for "nothing stops it", and callers ask on every match).
  bool empty() const;

  friend bool operator==(const Text& a, const Text& b) { return a.str() == b.str(); }
  friend bool operator==(const Text& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const Text& a, const char* b) { return a.str() == b; }
  friend std::ostream& operator<<(std::ostream& os, const Text& t) { return os << t.str(); }

 private:
  template <class... Args>
  void addArgs(Args&&... args) {
    args_.reserve(sizeof...(Args));
    (args_.emplace_back(std::forward<Args>(args)), ...);
  }
  void appendTo(std::string& out) const;

  const char* literal_ = nullptr;  // the template when it is a literal, else owned_
  std::string owned_;
  std::vector<Text> args_;
};

// "'%1' has %2 consumers" with {"x", "2"}: every %N (N >= 1) that names an
// argument replaced by it in one scan (an argument holding "%1" stays as it
// is); other text, and %N without an argument, kept as written.
template <class Arg, class Append>
void substitutePlaceholders(std::string_view templ, const std::vector<Arg>& args, Append&& append,
                            std::string& out) {
  for (size_t i = 0; i < templ.size(); ++i) {
    if (templ[i] == '%' && i + 1 < templ.size() && templ[i + 1] >= '0' && templ[i + 1] <= '9') {
      size_t j = i + 1;
      size_t n = 0;
      while (j < templ.size() && templ[j] >= '0' && templ[j] <= '9' && n < 1000) {
        n = n * 10 + static_cast<size_t>(templ[j] - '0');
        ++j;
      }
      if (n >= 1 && n <= args.size()) {
        append(args[n - 1], out);
        i = j - 1;
        continue;
      }
    }
    out += templ[i];
  }
}

}  // namespace passlab
