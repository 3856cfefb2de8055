#include "core/passes/pass_docs.h"

#include <vector>

#include "core/support/strings.h"

namespace passlab::passes {

extern const char kPassDocs[];
extern const std::size_t kPassDocsSize;

namespace {

struct DocBlock {
  std::string_view file;  // "fuse_conv_batchnorm.cpp"
  std::string_view text;  // the header, one line per comment line
};

std::vector<DocBlock> blocksOf(std::string_view docs) {
  constexpr std::string_view kMarker = "@@ ";
  std::vector<DocBlock> out;
  size_t at = docs.find(kMarker);
  while (at != std::string_view::npos) {
    const size_t nameEnd = docs.find('\n', at);
    if (nameEnd == std::string_view::npos) break;
    size_t next = docs.find("\n@@ ", nameEnd);
    const size_t end = next == std::string_view::npos ? docs.size() : next + 1;
    out.push_back({docs.substr(at + kMarker.size(), nameEnd - at - kMarker.size()),
                   docs.substr(nameEnd + 1, end - nameEnd - 1)});
    at = next == std::string_view::npos ? next : next + 1;
  }
  return out;
}

// The pass ids a header's first line names before its " — " or ":".
bool namesPass(std::string_view text, std::string_view id) {
  std::string_view first = text.substr(0, text.find('\n'));
  size_t end = first.find(" \u2014 ");
  if (end == std::string_view::npos) end = first.find(':');
  if (end == std::string_view::npos) return false;
  for (const std::string& name : str::split(first.substr(0, end), ','))
    if (str::trim(name) == id) return true;
  return false;
}

}  // namespace

std::string passDocumentationIn(std::string_view docs, std::string_view id) {
  if (id.empty()) return {};
  for (const DocBlock& block : blocksOf(docs))
    if (namesPass(block.text, id)) return std::string(str::trim(block.text));
  return {};
}

std::string passDocumentation(std::string_view id) {
  return passDocumentationIn(std::string_view(kPassDocs, kPassDocsSize), id);
}

}  // namespace passlab::passes
