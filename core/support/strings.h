// Small string helpers shared across core.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace passlab::str {

std::vector<std::string> split(std::string_view s, char sep);
std::string_view trim(std::string_view s);
bool startsWith(std::string_view s, std::string_view prefix);
bool endsWith(std::string_view s, std::string_view suffix);
std::string toLower(std::string_view s);

template <class Range, class Fn>
std::string join(const Range& items, std::string_view sep, Fn&& toString) {
  std::string out;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += sep;
    first = false;
    out += toString(item);
  }
  return out;
}

template <class Range>
std::string join(const Range& items, std::string_view sep) {
  return join(items, sep, [](const auto& s) { return std::string(s); });
}

// `v` printed with one printf conversion: printed("%.2g", 0.8123) == "0.81".
std::string printed(const char* format, double v);

// "1.5 KiB", "12.0 MiB": sizes for people.
std::string humanBytes(uint64_t bytes);
// 1234567 -> "1,234,567".
std::string withThousands(int64_t n);

}  // namespace passlab::str
