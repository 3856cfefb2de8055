// A pass's help for people: what it does, the kind of redundancy it removes,
// its options, opsets and flags, and its documentation (Before / After /
// Conditions: its source header, core/passes/pass_docs.h). Opened from the
// pipeline panel and the diff view; it links to the lesson that teaches the
// pass when one does (the window says which: LessonLinks).
#pragma once

#include <QDialog>
#include <QString>

#include "core/passes/pass.h"

class QTextBrowser;

namespace passlab::ui {

// The pass's summary in the UI's language.
QString passSummary(const passes::PassInfo& info);

// What a window offers the help: which lesson teaches a pass, and opening it.
class LessonLinks {
 public:
  virtual ~LessonLinks() = default;
  // The title of the lesson that teaches pass `passId`; "" for none.
  virtual QString lessonTitleFor(const QString& passId) const = 0;
  virtual void openLessonFor(const QString& passId) = 0;
};

class PassHelpDialog : public QDialog {
  Q_OBJECT

 public:
  // `links` (may be null: no lesson links) must outlive the dialog.
  explicit PassHelpDialog(LessonLinks* links, QWidget* parent = nullptr);
  // Shows pass `id`; false (and an empty page) when no pass has that id.
  bool showPass(const QString& id);
  QString passId() const { return id_; }
  QTextBrowser* browser() const { return browser_; }
  // The page of pass `info`, in the UI's language, with its lesson's link
  // when `links` names one.
  static QString html(const passes::PassInfo& info, const LessonLinks* links = nullptr);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void onLinkClicked(const QUrl& url);

  LessonLinks* links_;
  QTextBrowser* browser_;
  QString id_;
};

// Opens (or reuses) the help window of `parent`'s top-level window for pass
// `id`, with lesson links when that window offers them (is a LessonLinks).
void showPassHelp(QWidget* parent, const QString& id);

}  // namespace passlab::ui
