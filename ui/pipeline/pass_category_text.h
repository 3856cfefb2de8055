// How the GUI names, explains and tints the four kinds of redundancy of the
// taxonomy: one place for the pipeline panel, the pass help and the lessons.
#pragma once

#include <QColor>
#include <QCoreApplication>
#include <QString>

#include "core/passes/pass.h"

namespace passlab::ui {

class PassCategoryText {
  Q_DECLARE_TR_FUNCTIONS(PassCategoryText)

 public:
  static QString title(passes::Category c);
  // What that kind of redundancy is, in one sentence.
  static QString help(passes::Category c);
  // A light tint, readable on light and dark backgrounds.
  static QColor tint(passes::Category c);
};

}  // namespace passlab::ui
