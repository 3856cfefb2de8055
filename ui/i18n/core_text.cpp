#include "ui/i18n/core_text.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>

#include <algorithm>

namespace passlab::ui {

namespace {

struct Compiled {
  const char* templ;
  QRegularExpression re;
  QString key;        // the longest literal part: a message without it cannot fit
  qsizetype literal;  // literal characters: more is more specific
  QList<int> order;   // the placeholder number of each capture group
};

struct Index {
  QHash<QString, const char*> exact;  // templates without placeholders
  std::vector<Compiled> patterns;     // most specific first
};

const Index& index() {
  static const Index kIndex = [] {
    Index ix;
    static const QRegularExpression placeholder(QStringLiteral("%(\\d+)"));
    for (const char* t : coreMessageTemplates()) {
      const QString text = QString::fromUtf8(t);
      Compiled c{t, {}, {}, 0, {}};
      QString re = QStringLiteral("^");
      qsizetype at = 0;
      auto literal = [&](QStringView part) {
        re += QRegularExpression::escape(part.toString());
        c.literal += part.size();
        if (part.size() > c.key.size()) c.key = part.toString();
      };
      for (auto it = placeholder.globalMatch(text); it.hasNext();) {
        auto m = it.next();
        literal(QStringView(text).mid(at, m.capturedStart() - at));
        re += QStringLiteral("(.*?)");
        c.order << m.captured(1).toInt();
        at = m.capturedEnd();
      }
      literal(QStringView(text).mid(at));
      if (c.order.isEmpty()) {
        ix.exact.insert(text, t);
        continue;
      }
      c.re = QRegularExpression(re + QStringLiteral("$"),
                                QRegularExpression::DotMatchesEverythingOption);
      ix.patterns.push_back(std::move(c));
    }
    std::stable_sort(ix.patterns.begin(), ix.patterns.end(),
                     [](const Compiled& a, const Compiled& b) { return a.literal > b.literal; });
    return ix;
  }();
  return kIndex;
}

// %1, %2, ... of `text` replaced by args in one scan (an argument holding "%1"
// stays as it is).
QString substitute(const QString& text, const QStringList& args) {
  QString out;
  out.reserve(text.size() + 32);
  for (qsizetype i = 0; i < text.size(); ++i) {
    if (text[i] == QLatin1Char('%') && i + 1 < text.size() && text[i + 1].isDigit()) {
      qsizetype j = i + 1;
      while (j < text.size() && text[j].isDigit()) ++j;
      const int n = QStringView(text).mid(i + 1, j - i - 1).toInt();
      if (n >= 1 && n <= args.size()) {
        out += args[n - 1];
        i = j - 1;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

QString translate(const QString& message, int depth) {
  CoreMessageMatch m;
  if (depth > 4 || message.isEmpty() || !matchCoreMessage(message, &m)) return message;
  for (QString& a : m.args) a = translate(a, depth + 1);
  return substitute(QCoreApplication::translate("core", m.templ), m.args);
}

}  // namespace

bool matchCoreMessage(const QString& message, CoreMessageMatch* match) {
  const Index& ix = index();
  if (auto it = ix.exact.constFind(message); it != ix.exact.constEnd()) {
    if (match) *match = {it.value(), {}};
    return true;
  }
  for (const Compiled& c : ix.patterns) {
    if (!message.contains(c.key)) continue;
    const QRegularExpressionMatch m = c.re.match(message);
    if (!m.hasMatch()) continue;
    if (match) {
      match->templ = c.templ;
      match->args.clear();
      int most = 0;
      for (int n : c.order) most = std::max(most, n);
      for (int k = 0; k < most; ++k) match->args << QString();
      for (int g = 0; g < c.order.size(); ++g) match->args[c.order[g] - 1] = m.captured(g + 1);
    }
    return true;
  }
  return false;
}

QString trCore(const QString& message) {
  return translate(message, 0);
}

QString trCore(const std::string& message) {
  return trCore(QString::fromStdString(message));
}

}  // namespace passlab::ui
