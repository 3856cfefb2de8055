// The interface language: the system locale by default, switchable at run
// time (widgets retranslate on QEvent::LanguageChange).
#pragma once

#include <QString>
#include <QStringList>

namespace passlab::ui {

class Language {
 public:
  // Codes PassLab has translations for, English first: {"en", "zh_CN"}.
  static QStringList available();
  // The language's own name: "English", "简体中文".
  static QString nativeName(const QString& code);
  // What "" (follow the system) resolves to on this machine.
  static QString systemLanguage();
  // Installs the translators for `code` ("" = system) and returns the code in
  // effect. Unknown codes fall back to English.
  static QString apply(const QString& code);
  static QString current();
};

}  // namespace passlab::ui
