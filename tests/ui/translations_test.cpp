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
