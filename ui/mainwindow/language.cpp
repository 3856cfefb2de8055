#include "ui/mainwindow/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace passlab::ui {

namespace {
QTranslator* appTranslator = nullptr;
QTranslator* qtTranslator = nullptr;
QString currentCode = QStringLiteral("en");
}  // namespace

QStringList Language::available() {
  return {QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString Language::nativeName(const QString& code) {
  if (code == QLatin1String("zh_CN")) return QStringLiteral("简体中文");
  return QStringLiteral("English");
}

QString Language::systemLanguage() {
  for (const QString& ui : QLocale::system().uiLanguages()) {
    QString name = QLocale(ui).name();  // "zh_CN", "en_US"
    if (name.startsWith(QLatin1String("zh"))) return QStringLiteral("zh_CN");
    if (name.startsWith(QLatin1String("en"))) return QStringLiteral("en");
  }
  return QStringLiteral("en");
}

QString Language::apply(const QString& requested) {
  QString code = requested.isEmpty() ? systemLanguage() : requested;
  if (!available().contains(code)) code = QStringLiteral("en");
  auto* app = QCoreApplication::instance();
  if (appTranslator) {
    QCoreApplication::removeTranslator(appTranslator);
    delete appTranslator;
    appTranslator = nullptr;
  }
  if (qtTranslator) {
    QCoreApplication::removeTranslator(qtTranslator);
    delete qtTranslator;
    qtTranslator = nullptr;
  }
  if (code != QLatin1String("en")) {
    appTranslator = new QTranslator(app);
    if (appTranslator->load(QStringLiteral(":/i18n/passlab_%1.qm").arg(code)))
      QCoreApplication::installTranslator(appTranslator);
    // Qt's own dialogs and buttons (qt6-translations-l10n).
    qtTranslator = new QTranslator(app);
    if (qtTranslator->load(QStringLiteral("qtbase_%1").arg(code),
                           QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
      QCoreApplication::installTranslator(qtTranslator);
  }
  currentCode = code;
  return code;
}

QString Language::current() {
  return currentCode;
}

}  // namespace passlab::ui
