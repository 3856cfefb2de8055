// The Chinese translation is complete and consistent: every message of the
// sources is translated (none unfinished, none vanished), placeholders and
// keyboard accelerators survive, and the compiled-in .qm answers at run time
// in the contexts the code asks in.
#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

#include <set>

#include "ui/lessons/lesson_format.h"
#include "ui/lessons/lesson_library.h"

namespace {

struct Message {
  QString context, source, translation, type;
  QStringList numerus;
  bool plural = false;
  int line = 0;
};

std::vector<Message> readTs(const QString& path, QString* error) {
  std::vector<Message> out;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    *error = f.errorString();
    return out;
  }
  QXmlStreamReader xml(&f);
  QString context;
  Message m;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isStartElement()) {
      const auto name = xml.name();
      if (name == QLatin1String("name") && m.line == 0) {
        context = xml.readElementText();
      } else if (name == QLatin1String("message")) {
        m = Message();
        m.context = context;
        m.line = static_cast<int>(xml.lineNumber());
        m.plural = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
      } else if (name == QLatin1String("source")) {
        m.source = xml.readElementText();
      } else if (name == QLatin1String("translation")) {
        m.type = xml.attributes().value(QLatin1String("type")).toString();
        if (!m.plural) m.translation = xml.readElementText();
      } else if (name == QLatin1String("numerusform")) {
        m.numerus << xml.readElementText();
      }
    } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
      out.push_back(m);
      m = Message();
    }
  }
  if (xml.hasError()) *error = xml.errorString();
  return out;
}

std::multiset<QString> placeholders(const QString& s) {
  std::multiset<QString> out;
  static const QRegularExpression re(QStringLiteral("%(\\d+|n)"));
  for (auto it = re.globalMatch(s); it.hasNext();) out.insert(it.next().captured(0));
  return out;
}

// The texts of `lesson` missing in Chinese, as "FILE: key.zh_CN" lines.
QStringList untranslatedLessonTexts(const passlab::ui::Lesson& lesson) {
  using passlab::ui::LessonText;
  QStringList out;
  const LessonText english = lesson.texts.value(QStringLiteral("en"));
  const LessonText chinese = lesson.texts.value(QStringLiteral("zh_CN"));
  static const QRegularExpression han(QStringLiteral("\\p{Han}"));
  const QString file = lesson.folder + QStringLiteral("/lesson.txt");
  auto check = [&](const char* key, const QString& en, const QString& zh) {
    if (!en.isEmpty() && !zh.contains(han))
      out << QStringLiteral("%1: no Chinese %2.zh_CN").arg(file, QLatin1String(key));
  };
  check("title", english.title, chinese.title);
  check("text", english.explanation, chinese.explanation);
  check("task", english.task, chinese.task);
  check("question", english.question, chinese.question);
  check("answer", english.answer, chinese.answer);
  return out;
}

}  // namespace

class TranslationsTest : public QObject {
  Q_OBJECT

 private slots:
  void chineseIsComplete() {
    QString error;
    auto messages =
        readTs(QStringLiteral(PASSLAB_SOURCE_DIR "/translations/passlab_zh_CN.ts"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(messages.size() > 200, qPrintable(QString::number(messages.size())));
    QStringList problems;
    for (const Message& m : messages) {
      QString where =
          QStringLiteral("%1 line %2 \"%3\"").arg(m.context).arg(m.line).arg(m.source.left(60));
      if (!m.type.isEmpty()) {
        problems << where + QStringLiteral(": ") + m.type;
        continue;
      }
      QStringList forms = m.plural ? m.numerus : QStringList{m.translation};
      if (forms.isEmpty()) problems << where + QStringLiteral(": no translation");
      for (const QString& t : forms) {
        if (t.trimmed().isEmpty()) problems << where + QStringLiteral(": empty");
        if (placeholders(t) != placeholders(m.source))
          problems << where + QStringLiteral(": placeholders differ: ") + t;
        // "&File" -> "文件(&F)": the accelerator stays.
        static const QRegularExpression accel(QStringLiteral("&[A-Za-z]"));
        if (m.source.contains(accel) && !t.contains(accel))
          problems << where + QStringLiteral(": accelerator lost: ") + t;
      }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 30).join(QLatin1Char('\n'))));
  }

  // Every lesson text, of the lessons in the source tree and of those compiled
  // in, is in Chinese too; a lesson with an English text alone fails.
  void lessonsAreTranslated() {
    using namespace passlab::ui;
    for (const QString& folder : {QStringLiteral(PASSLAB_SOURCE_DIR "/resources/lessons"),
                                  QString::fromLatin1(kBundledLessons)}) {
      LessonLibrary library = loadLessons({folder});
      QVERIFY2(library.errors.empty(),
               qPrintable(library.errors.empty() ? QString() : library.errors.front().toString()));
      QVERIFY2(library.lessons.size() >= 5, qPrintable(folder));
      QStringList problems;
      for (const Lesson& l : library.lessons) problems << untranslatedLessonTexts(l);
      QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
    // The check itself: a lesson whose answer is only in English is caught.
    Lesson english;
    english.folder = QStringLiteral("/x/l");
    english.texts[QStringLiteral("en")] = {QStringLiteral("T"), QStringLiteral("E"),
                                           QStringLiteral("K"), QStringLiteral("Q"),
                                           QStringLiteral("A")};
    english.texts[QStringLiteral("zh_CN")] = {QStringLiteral("题"), QStringLiteral("解"),
                                              QStringLiteral("问"), QStringLiteral("问"),
                                              QString()};
    QCOMPARE(untranslatedLessonTexts(english),
             QStringList{QStringLiteral("/x/l/lesson.txt: no Chinese answer.zh_CN")});
  }

  void compiledTranslationAnswers() {
    QTranslator t;
    QVERIFY(t.load(QStringLiteral(":/i18n/passlab_zh_CN.qm")));
    QCOMPARE(t.translate("passlab::ui::MainWindow", "&File"), QStringLiteral("文件(&F)"));
    // Contexts of QCoreApplication::translate and Q_DECLARE_TR_FUNCTIONS users.
    QVERIFY(!t.translate("ModelFiles", "Repaired: %1").isEmpty());
    QVERIFY(!t.translate("OpFamily", "Convolution").isEmpty());
    QVERIFY(!t.translate("GraphRef", "main graph").isEmpty());
    QVERIFY(!t.translate("RenameNodeCommand", "Rename node to “%1”").isEmpty());
    QVERIFY(!t.translate("Demos", "Transformer block").isEmpty());
  }
};

QTEST_MAIN(TranslationsTest)
#include "translations_test.moc"
