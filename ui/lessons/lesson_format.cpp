#include "ui/lessons/lesson_format.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStringList>

#include <map>
#include <set>

#include "core/passes/registry.h"

namespace passlab::ui {

namespace {

// One "key: value" entry with its continuation lines joined.
struct Entry {
  QString key, language;  // "title", "zh_CN" ("en" for the plain key)
  QString value;
  int line = 0;
};

const std::set<QString>& settingKeys() {
  static const std::set<QString> keys{QStringLiteral("order"), QStringLiteral("model"),
                                      QStringLiteral("pass"), QStringLiteral("option")};
  return keys;
}

QString* textField(LessonText& t, const QString& key) {
  if (key == QLatin1String("title")) return &t.title;
  if (key == QLatin1String("text")) return &t.explanation;
  if (key == QLatin1String("task")) return &t.task;
  if (key == QLatin1String("question")) return &t.question;
  if (key == QLatin1String("answer")) return &t.answer;
  return nullptr;
}

class Parser {
 public:
  explicit Parser(const QString& path) : path_(path) {}

  LessonParse run(const QByteArray& text) {
    out_.lesson.folder = QFileInfo(path_).path();
    out_.lesson.id = QFileInfo(out_.lesson.folder).fileName();
    splitEntries(QString::fromUtf8(text));
    for (const Entry& e : entries_) apply(e);
    checkComplete();
    return std::move(out_);
  }

 private:
  void error(int line, const QString& message) { out_.errors.push_back({path_, line, message}); }

  // Lines into entries: a key line starts at the margin, continuation lines
  // are indented and joined to the value with a space.
  void splitEntries(const QString& text) {
    static const QRegularExpression keyLine(
        QStringLiteral("^([a-z]+)(?:\\.([A-Za-z]{2,3}(?:_[A-Za-z]{2})?))?\\s*:\\s?(.*)$"));
    const QStringList lines = text.split(QLatin1Char('\n'));
    lastLine_ = static_cast<int>(lines.size());
    for (int i = 0; i < lines.size(); ++i) {
      QString line = lines[i];
      if (line.endsWith(QLatin1Char('\r'))) line.chop(1);
      const int number = i + 1;
      if (line.trimmed().isEmpty() || line.trimmed().startsWith(QLatin1Char('#'))) continue;
      if (line[0].isSpace()) {
        if (entries_.empty()) {
          error(number,
                QCoreApplication::translate("Lessons", "an indented line continues no key"));
          continue;
        }
        Entry& last = entries_.back();
        last.value += (last.value.isEmpty() ? QString() : QStringLiteral(" ")) + line.trimmed();
        continue;
      }
      QRegularExpressionMatch m = keyLine.match(line);
      if (!m.hasMatch()) {
        error(number,
              QCoreApplication::translate("Lessons", "expected \"key: value\", found \"%1\"")
                  .arg(line.left(40)));
        continue;
      }
      entries_.push_back({m.captured(1),
                          m.captured(2).isEmpty() ? QStringLiteral("en") : m.captured(2),
                          m.captured(3).trimmed(), number});
    }
  }

  void apply(const Entry& e) {
    const bool setting = settingKeys().count(e.key) > 0;
    LessonText probe;
    if (!setting && textField(probe, e.key) == nullptr) {
      error(e.line, QCoreApplication::translate("Lessons", "unknown key \"%1\"").arg(e.key));
      return;
    }
    if (setting && e.language != QLatin1String("en")) {
      error(e.line,
            QCoreApplication::translate("Lessons", "\"%1\" has no language versions").arg(e.key));
      return;
    }
    if (e.value.isEmpty()) {
      error(e.line, QCoreApplication::translate("Lessons", "\"%1\" has no value").arg(e.key));
      return;
    }
    const QString slot = e.key + QLatin1Char('.') + e.language;
    if (e.key != QLatin1String("option")) {
      if (auto [it, fresh] = seen_.emplace(slot, e.line); !fresh) {
        error(e.line,
              QCoreApplication::translate("Lessons", "\"%1\" given twice (first on line %2)")
                  .arg(e.key)
                  .arg(it->second));
        return;
      }
    }
    if (setting)
      applySetting(e);
    else
      *textField(out_.lesson.texts[e.language], e.key) = e.value;
  }

  void applySetting(const Entry& e) {
    Lesson& l = out_.lesson;
    if (e.key == QLatin1String("order")) {
      bool ok = false;
      l.order = e.value.toInt(&ok);
      if (!ok)
        error(e.line, QCoreApplication::translate("Lessons", "order \"%1\" is not a whole number")
                          .arg(e.value));
    } else if (e.key == QLatin1String("model")) {
      l.modelPath = QDir(l.folder).filePath(e.value);
      if (!QFileInfo::exists(l.modelPath))
        error(e.line, QCoreApplication::translate(
                          "Lessons", "the model file \"%1\" is not in the lesson's folder")
                          .arg(e.value));
    } else if (e.key == QLatin1String("pass")) {
      l.pass = e.value.toStdString();
      if (passes::findPass(l.pass) == nullptr)
        error(e.line, QCoreApplication::translate(
                          "Lessons", "no pass is called \"%1\" (passlab-cli passes lists them)")
                          .arg(e.value));
    } else if (e.key == QLatin1String("option")) {
      applyOption(e);
    }
  }

  void applyOption(const Entry& e) {
    const qsizetype eq = e.value.indexOf(QLatin1Char('='));
    if (eq <= 0) {
      error(e.line,
            QCoreApplication::translate("Lessons", "an option is written name=value, found \"%1\"")
                .arg(e.value));
      return;
    }
    out_.lesson.options.emplace_back(e.value.left(eq).trimmed().toStdString(),
                                     e.value.mid(eq + 1).trimmed().toStdString());
    optionLines_.push_back(e.line);
  }

  // Required keys, and options the pass declares.
  void checkComplete() {
    const Lesson& l = out_.lesson;
    const int end = lastLine_;
    for (const char* key : {"model", "pass"})
      if (!seen_.count(QLatin1String(key) + QStringLiteral(".en")))
        error(end,
              QCoreApplication::translate("Lessons", "no \"%1:\" line (every lesson needs one)")
                  .arg(QLatin1String(key)));
    for (const QString& key : lessonTextKeys())
      if (!seen_.count(key + QStringLiteral(".en")))
        error(end, QCoreApplication::translate("Lessons",
                                               "no \"%1:\" line (every text is needed in English)")
                       .arg(key));
    const passes::Pass* pass = passes::findPass(l.pass);
    if (pass == nullptr) return;
    for (size_t i = 0; i < l.options.size(); ++i) {
      bool known = false;
      for (const passes::PassOption& o : pass->info().options)
        known = known || o.name == l.options[i].first;
      if (!known)
        error(optionLines_[i],
              QCoreApplication::translate("Lessons", "the pass %1 has no option \"%2\"")
                  .arg(QString::fromStdString(l.pass), QString::fromStdString(l.options[i].first)));
    }
  }

  QString path_;
  LessonParse out_;
  std::vector<Entry> entries_;
  std::map<QString, int> seen_;  // "title.en" -> its line
  std::vector<int> optionLines_;
  int lastLine_ = 1;
};

}  // namespace

QString LessonError::toString() const {
  return line > 0 ? QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(message)
                  : QStringLiteral("%1: %2").arg(file, message);
}

std::vector<QString> lessonTextKeys() {
  return {QStringLiteral("title"), QStringLiteral("text"), QStringLiteral("task"),
          QStringLiteral("question"), QStringLiteral("answer")};
}

LessonParse parseLessonText(const QByteArray& text, const QString& path) {
  return Parser(path).run(text);
}

LessonParse readLessonFile(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    LessonParse out;
    out.errors.push_back(
        {path, 0,
         QCoreApplication::translate("Lessons", "cannot read it: %1").arg(f.errorString())});
    return out;
  }
  return parseLessonText(f.readAll(), path);
}

}  // namespace passlab::ui
