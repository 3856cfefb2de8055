// A pass's help for people: what it does, the kind of redundancy it removes,
// its options, opsets and flags, and its documentation (Before / After /
// Conditions: its source header, core/passes/pass_docs.h). Opened from the
// pipeline panel and the diff view; it links to the lesson that teaches the
// pass when one does (the window says which, through setLessonLinks).
#pragma once

#include <QDialog>
#include <QString>

#include <functional>

#include "core/passes/pass.h"

class QTextBrowser;

namespace passlab::ui {

// The pass's summary in the UI's language.
QString passSummary(const passes::PassInfo& info);

class PassHelpDialog : public QDialog {
  Q_OBJECT

 public:
  // Which lesson teaches a pass ("" for none) and how to open it.
  struct LessonLinks {
    std::function<QString(const QString& passId)> titleFor;
    std::function<void(const QString& passId)> open;
  };
  static void setLessonLinks(LessonLinks links);

  explicit PassHelpDialog(QWidget* parent = nullptr);
  // Shows pass `id`; false (and an empty page) when no pass has that id.
  bool showPass(const QString& id);
  QString passId() const { return id_; }
  QTextBrowser* browser() const { return browser_; }
  // The page of pass `info`, in the UI's language.
  static QString html(const passes::PassInfo& info);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void onLinkClicked(const QUrl& url);

  QTextBrowser* browser_;
  QString id_;
};

// Opens (or reuses) the help window of `parent`'s top-level window for pass `id`.
void showPassHelp(QWidget* parent, const QString& id);

}  // namespace passlab::ui
