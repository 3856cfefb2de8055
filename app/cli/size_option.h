// A size option's value (--memory-limit): bytes, or a number with a unit
// (64MiB, 1.5GB): KiB/MiB/GiB/TiB (or Ki, Mi...) 1024-based, KB/MB/GB/TB (or
// K, M...) 1000-based, B bytes; any case, spaces before the unit allowed.
// CLI11's AsSizeValue takes whole numbers only (it refused 1.5GB) and wrapped
// a negative number around. A size of 0 bytes is refused.
#pragma once

#include <CLI/CLI.hpp>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>

namespace passlab::cli {

inline CLI::Validator sizeWithUnit() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        size_t end = 0;
        int dots = 0;
        while (end < value.size() &&
               (std::isdigit(static_cast<unsigned char>(value[end])) || value[end] == '.'))
          dots += value[end++] == '.';
        std::string unit;
        for (size_t i = end; i < value.size(); ++i)
          if (!std::isspace(static_cast<unsigned char>(value[i])))
            unit += static_cast<char>(std::tolower(static_cast<unsigned char>(value[i])));
        if (end == 0 || dots > 1 || (end == 1 && dots == 1))
          return "'" + value + "' is not a size (bytes, or with a unit: 64MiB, 1.5GB)";
        static const std::map<std::string, double> kUnits = {
            {"", 1.0},       {"b", 1.0},     {"k", 1e3},     {"kb", 1e3},     {"ki", 1024.0},
            {"kib", 1024.0}, {"m", 1e6},     {"mb", 1e6},    {"mi", 0x1p20},  {"mib", 0x1p20},
            {"g", 1e9},      {"gb", 1e9},    {"gi", 0x1p30}, {"gib", 0x1p30}, {"t", 1e12},
            {"tb", 1e12},    {"ti", 0x1p40}, {"tib", 0x1p40}};
        auto it = kUnits.find(unit);
        if (it == kUnits.end())
          return "'" + unit + "' is not a unit (B, KB, KiB, MB, MiB, GB, GiB, TB, TiB)";
        const double bytes = std::round(std::stod(value.substr(0, end)) * it->second);
        if (!(bytes < 0x1p63)) return "'" + value + "' is too large";
        // No run fits in 0 bytes; 0 is not "no limit" either (that is the
        // option left out), so it is refused rather than guessed at.
        if (bytes < 1)
          return "'" + value +
                 "' is 0 bytes, no memory to run in (leave the option out for no limit)";
        value = std::to_string(static_cast<uint64_t>(bytes));
        return "";
      },
      "SIZE [b, kb(=1000b), kib(=1024b), ...]", "size");
}

}  // namespace passlab::cli
