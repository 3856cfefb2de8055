// String operators: StringNormalizer (stop words, case change), StringConcat
// (broadcasting), StringSplit (a delimiter, or runs of whitespace) and
// RegexFullMatch (ECMAScript regular expressions standing in for RE2: the
// common subset — classes, repetition, groups, alternation, \w \d \s \b —
// agrees). Case changes map ASCII, Latin-1, Greek and Cyrillic letters.
#include <algorithm>
#include <regex>
#include <set>
#include <string>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

// UTF-8 decoding and encoding of code points (invalid bytes pass through as themselves).
std::u32string decodeUtf8(const std::string& s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + static_cast<size_t>(len) > s.size()) {
      out.push_back(c);
      ++i;
      continue;
    }
    char32_t cp = len == 1 ? c : c & (0x7f >> len);
    bool ok = true;
    for (int k = 1; k < len; ++k) {
      auto cc = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((cc >> 6) != 2) ok = false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (!ok) {
      out.push_back(c);
      ++i;
      continue;
    }
    out.push_back(cp);
    i += static_cast<size_t>(len);
  }
  return out;
}

std::string encodeUtf8(const std::u32string& s) {
  std::string out;
  for (char32_t cp : s) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }
  return out;
}

char32_t toLower(char32_t c) {
  if (c >= U'A' && c <= U'Z') return c + 32;
  if (c >= 0xc0 && c <= 0xde && c != 0xd7) return c + 32;     // Latin-1
  if (c >= 0x391 && c <= 0x3a9 && c != 0x3a2) return c + 32;  // Greek
  if (c >= 0x410 && c <= 0x42f) return c + 32;                // Cyrillic
  if (c >= 0x400 && c <= 0x40f) return c + 80;
  return c;
}

char32_t toUpper(char32_t c) {
  if (c >= U'a' && c <= U'z') return c - 32;
  if (c >= 0xe0 && c <= 0xfe && c != 0xf7) return c - 32;
  if (c >= 0x3b1 && c <= 0x3c9 && c != 0x3c2) return c - 32;
  if (c >= 0x430 && c <= 0x44f) return c - 32;
  if (c >= 0x450 && c <= 0x45f) return c - 80;
  return c;
}

std::string changeCase(const std::string& s, bool upper) {
  std::u32string u = decodeUtf8(s);
  for (char32_t& c : u) c = upper ? toUpper(c) : toLower(c);
  return encodeUtf8(u);
}

class StringNormalizer final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    auto k = std::unique_ptr<StringNormalizer>(new StringNormalizer());
    std::string action = n.attrString("case_change_action", "NONE");
    if (action != "NONE" && action != "LOWER" && action != "UPPER")
      return invalidModel("unknown case_change_action '" + action + "'");
    k->action_ = action;
    k->caseSensitive_ = n.attrInt("is_case_sensitive", 0) != 0;
    if (const ir::Attribute* a = n.attr("stopwords"))
      for (const std::string& w : a->strings)
        k->stops_.insert(k->caseSensitive_ ? w : changeCase(w, false));
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (!x.isString()) return invalidArgument("X must be a string tensor, got " + x.describe());
    if (!(x.rank() == 1 || (x.rank() == 2 && x.dim(0) == 1)))
      return invalidArgument("X must be [C] or [1, C], got " + x.describe());
    std::vector<std::string> kept;
    for (int64_t i = 0; i < x.numel(); ++i) {
      const std::string& s = x.data<std::string>()[i];
      if (!stops_.empty() && stops_.count(caseSensitive_ ? s : changeCase(s, false))) continue;
      kept.push_back(action_ == "NONE" ? s : changeCase(s, action_ == "UPPER"));
    }
    // Everything removed leaves one empty string.
    if (kept.empty()) kept.emplace_back();
    const auto c = static_cast<int64_t>(kept.size());
    Dims out = x.rank() == 1 ? Dims{c} : Dims{1, c};
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kString, out));
    for (int64_t i = 0; i < c; ++i) y->mutableData<std::string>()[i] = kept[static_cast<size_t>(i)];
    return Status::ok();
  }

 private:
  StringNormalizer() = default;
  std::string action_;
  bool caseSensitive_ = false;
  std::set<std::string> stops_;
};

class StringConcat final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (!a.isString() || !b.isString())
      return invalidArgument("inputs must be strings, got " + a.describe() + " and " +
                             b.describe());
    PASSLAB_ASSIGN_OR_RETURN(Dims out, broadcastShapes(a.dims(), b.dims()));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kString, out));
    const auto sa = broadcastStrides(a.dims(), out), sb = broadcastStrides(b.dims(), out);
    std::vector<int64_t> idx(out.size(), 0);
    for (int64_t i = 0; i < y->numel(); ++i) {
      int64_t oa = 0, ob = 0;
      for (size_t d = 0; d < out.size(); ++d) {
        oa += idx[d] * sa[d];
        ob += idx[d] * sb[d];
      }
      y->mutableData<std::string>()[i] = a.data<std::string>()[oa] + b.data<std::string>()[ob];
      for (size_t d = out.size(); d-- > 0;) {
        if (++idx[d] < out[d]) break;
        idx[d] = 0;
      }
    }
    return Status::ok();
  }
};

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Python's str.split(delimiter, maxsplit); an empty delimiter splits on runs of whitespace.
std::vector<std::string> splitString(const std::string& s, const std::string& delim,
                                     int64_t maxSplit) {
  std::vector<std::string> parts;
  if (delim.empty()) {
    size_t i = 0;
    while (true) {
      while (i < s.size() && isSpace(s[i])) ++i;
      if (i >= s.size()) break;
      if (maxSplit >= 0 && static_cast<int64_t>(parts.size()) == maxSplit) {
        parts.push_back(s.substr(i));  // the rest, trailing whitespace kept
        break;
      }
      size_t j = i;
      while (j < s.size() && !isSpace(s[j])) ++j;
      parts.push_back(s.substr(i, j - i));
      i = j;
    }
    return parts;
  }
  size_t start = 0;
  while (true) {
    size_t at = s.find(delim, start);
    if (at == std::string::npos ||
        (maxSplit >= 0 && static_cast<int64_t>(parts.size()) == maxSplit)) {
      parts.push_back(s.substr(start));
      break;
    }
    parts.push_back(s.substr(start, at - start));
    start = at + delim.size();
  }
  return parts;
}

class StringSplit final : public Kernel {
 public:
  explicit StringSplit(const KernelBuild& b)
      : delimiter_(b.node().attrString("delimiter", "")),
        maxSplit_(b.node().hasAttr("maxsplit") ? b.node().attrInt("maxsplit", -1) : -1) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (!x.isString()) return invalidArgument("X must be a string tensor, got " + x.describe());
    std::vector<std::vector<std::string>> parts(static_cast<size_t>(x.numel()));
    int64_t widest = 0;
    for (int64_t i = 0; i < x.numel(); ++i) {
      parts[static_cast<size_t>(i)] = splitString(x.data<std::string>()[i], delimiter_, maxSplit_);
      widest = std::max(widest, static_cast<int64_t>(parts[static_cast<size_t>(i)].size()));
    }
    Dims ydims = x.dims();
    ydims.push_back(widest);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kString, ydims));
    for (int64_t i = 0; i < x.numel(); ++i) {
      const auto& p = parts[static_cast<size_t>(i)];
      for (int64_t k = 0; k < widest; ++k)
        y->mutableData<std::string>()[i * widest + k] =
            k < static_cast<int64_t>(p.size()) ? p[static_cast<size_t>(k)] : std::string();
    }
    if (ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor * z, ctx.allocate(1, ir::DataType::kInt64, x.dims()));
      for (int64_t i = 0; i < x.numel(); ++i)
        z->mutableData<int64_t>()[i] = static_cast<int64_t>(parts[static_cast<size_t>(i)].size());
    }
    return Status::ok();
  }

 private:
  std::string delimiter_;
  int64_t maxSplit_;
};

class RegexFullMatch final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    std::string pattern = b.node().attrString("pattern", "");
    try {
      return std::unique_ptr<Kernel>(
          new RegexFullMatch(std::regex(pattern, std::regex::ECMAScript)));
    } catch (const std::regex_error& e) {
      return invalidModel("pattern '" + pattern +
                          "' is not a valid regular expression: " + e.what());
    }
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (!x.isString()) return invalidArgument("X must be a string tensor, got " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kBool, x.dims()));
    for (int64_t i = 0; i < x.numel(); ++i) {
      try {
        y->mutableData<bool>()[i] = std::regex_match(x.data<std::string>()[i], re_);
      } catch (const std::regex_error& e) {
        return unsupported(std::string("matching string ") + std::to_string(i) +
                           " exhausted the regular expression engine: " + e.what());
      }
    }
    return Status::ok();
  }

 private:
  explicit RegexFullMatch(std::regex re) : re_(std::move(re)) {}
  std::regex re_;
};

const KernelDef kRows[] = {
    {"", "StringNormalizer", 10, kOpsetMax, types::kString, 0, Tier::kReference,
     "cpu.StringNormalizer", makeKernel<StringNormalizer>},
    {"", "StringConcat", 20, kOpsetMax, types::kString, 0, Tier::kReference, "cpu.StringConcat",
     makeKernel<StringConcat>},
    {"", "StringSplit", 20, kOpsetMax, types::kString, 0, Tier::kReference, "cpu.StringSplit",
     makeKernel<StringSplit>},
    {"", "RegexFullMatch", 20, kOpsetMax, types::kString, 0, Tier::kReference, "cpu.RegexFullMatch",
     makeKernel<RegexFullMatch>},
};

}  // namespace

std::span<const KernelDef> stringKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
