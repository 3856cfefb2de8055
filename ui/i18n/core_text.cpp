#include "ui/i18n/core_text.h"

#include <QCoreApplication>
#include <string>
#include <vector>

namespace passlab::ui {

namespace {

// Deeper than any message core nests; past it the English is shown.
constexpr int kMaxDepth = 16;

QString translate(const Text& message, int depth) {
  if (depth > kMaxDepth) return QString::fromStdString(message.str());
  const QString templ = QCoreApplication::translate("core", std::string(message.templ()).c_str());
  if (message.args().empty()) return templ;
  std::vector<std::string> args;
  args.reserve(message.args().size());
  for (const Text& a : message.args()) args.push_back(translate(a, depth + 1).toStdString());
  // One scan, so an argument holding "%1" is not substituted again.
  std::string out;
  substitutePlaceholders(
      templ.toStdString(), args, [](const std::string& a, std::string& o) { o += a; }, out);
  return QString::fromStdString(out);
}

}  // namespace

QString trCore(const Text& message) {
  return translate(message, 0);
}

}  // namespace passlab::ui
