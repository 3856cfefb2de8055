// Core's messages in the user's language. core/ is Qt-free and writes its
// messages in English (near-miss reasons, notes of skipped passes, rollback,
// verifier and numeric-check messages), each built from a fixed template and
// some arguments: "'" + name + "' has " + n + " consumers". The templates are
// extracted from core's sources by scripts/dev/gen_core_messages.py into
// core_message_catalog.cpp (QT_TRANSLATE_NOOP("core", ...), seen by lupdate);
// a ctest fails when core gains a message the catalog lacks.
//
// trCore() finds the template a message was built from, translates it in the
// "core" context and puts the arguments back in, translating an argument too
// when it is itself a core message ("AveragePool output %1" with
// "'t' has 2 consumers"). A message no template fits comes back unchanged.
#pragma once

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace passlab::ui {

// The English templates, with %1, %2, ... for the arguments (generated).
const std::vector<const char*>& coreMessageTemplates();

struct CoreMessageMatch {
  const char* templ = nullptr;  // one of coreMessageTemplates()
  QStringList args;             // args[k] fills %(k+1)
};
// The template `message` was built from (the most specific one when several
// fit); false when none does.
bool matchCoreMessage(const QString& message, CoreMessageMatch* match = nullptr);

// `message` in the current language (QCoreApplication::translate("core", ...)).
QString trCore(const QString& message);
QString trCore(const std::string& message);

}  // namespace passlab::ui
