// Core's messages in the user's language. core/ is Qt-free and writes its
// messages as passlab::Text (core/support/text.h): an English template with
// numbered placeholders and its arguments ("'%1' has %2 consumers" with
// "conv_out", "2"). The templates are collected from core's sources by
// scripts/dev/gen_core_messages.py into core_message_catalog.cpp
// (QT_TRANSLATE_NOOP("core", ...), seen by lupdate); a ctest fails when core
// gains a template the catalog lacks, or builds a message by concatenation.
//
// trCore() translates the template in the "core" context and puts the
// arguments back in, each translated the same way: a nested message ("Conv
// output %1" with "'%1' has %2 consumers") is translated too, while a name or
// a number, which the catalog does not know, stays as it is. Nothing is
// parsed back out of English.
#pragma once

#include <QString>

#include <vector>

#include "core/support/text.h"

namespace passlab::ui {

// The English templates, with %1, %2, ... for the arguments (generated).
const std::vector<const char*>& coreMessageTemplates();

// `message` in the current language (QCoreApplication::translate("core", ...)).
QString trCore(const Text& message);

}  // namespace passlab::ui
