#include "ui/lessons/lesson_panel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "ui/lessons/lesson_settings.h"
#include "ui/mainwindow/language.h"

namespace passlab::ui {

namespace {

QLabel* wrappedLabel(QWidget* parent) {
  auto* l = new QLabel(parent);
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return l;
}

}  // namespace

LessonPanel::LessonPanel(LessonSession* session, QWidget* parent)
    : QWidget(parent), session_(session) {
  pages_ = new QStackedWidget(this);
  pages_->addWidget(buildStartPage());
  pages_->addWidget(buildLessonPage());
  auto* col = new QVBoxLayout(this);
  col->setContentsMargins(0, 0, 0, 0);
  col->addWidget(pages_);
  connect(session_, &LessonSession::stateChanged, this, &LessonPanel::onStateChanged);
  connect(session_, &LessonSession::predictionChanged, this, &LessonPanel::showPrediction);
  retranslate();
}

QWidget* LessonPanel::buildStartPage() {
  auto* page = new QWidget(this);
  auto* col = new QVBoxLayout(page);
  intro_ = wrappedLabel(page);
  list_ = new QListWidget(page);
  openFolder_ = new QPushButton(page);
  errors_ = wrappedLabel(page);
  errors_->setStyleSheet(QStringLiteral("color: #b00020"));
  col->addWidget(intro_);
  col->addWidget(list_, 1);
  col->addWidget(errors_);
  col->addWidget(openFolder_);
  connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    emit lessonChosen(item->data(Qt::UserRole).toString());
  });
  connect(openFolder_, &QPushButton::clicked, this, &LessonPanel::openFolderRequested);
  return page;
}

QWidget* LessonPanel::buildLessonPage() {
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  auto* page = new QWidget(scroll);
  auto* col = new QVBoxLayout(page);
  title_ = wrappedLabel(page);
  QFont big = title_->font();
  big.setBold(true);
  big.setPointSizeF(big.pointSizeF() * 1.25);
  title_->setFont(big);
  explanation_ = wrappedLabel(page);
  task_ = wrappedLabel(page);
  QFont bold = task_->font();
  bold.setBold(true);
  task_->setFont(bold);
  prediction_ = wrappedLabel(page);
  check_ = new QPushButton(page);
  clear_ = new QPushButton(page);
  auto* predictRow = new QHBoxLayout;
  predictRow->addWidget(check_);
  predictRow->addWidget(clear_);
  verdict_ = wrappedLabel(page);
  verdict_->setTextFormat(Qt::RichText);
  question_ = wrappedLabel(page);
  question_->setFont(bold);
  showAnswer_ = new QPushButton(page);
  answer_ = wrappedLabel(page);
  answer_->hide();  // until "Show the answer"
  retry_ = new QPushButton(page);
  next_ = new QPushButton(page);
  back_ = new QPushButton(page);
  auto* endRow = new QHBoxLayout;
  endRow->addWidget(back_);
  endRow->addWidget(retry_);
  endRow->addWidget(next_);
  for (QWidget* w : std::initializer_list<QWidget*>{title_, explanation_, task_, prediction_})
    col->addWidget(w);
  col->addLayout(predictRow);
  for (QWidget* w : std::initializer_list<QWidget*>{verdict_, question_, showAnswer_, answer_})
    col->addWidget(w);
  col->addStretch(1);
  col->addLayout(endRow);
  scroll->setWidget(page);

  connect(check_, &QPushButton::clicked, session_, &LessonSession::check);
  connect(clear_, &QPushButton::clicked, session_, &LessonSession::clearPrediction);
  connect(retry_, &QPushButton::clicked, session_, &LessonSession::retry);
  connect(showAnswer_, &QPushButton::clicked, this, [this] {
    answer_->show();
    showAnswer_->hide();
  });
  connect(back_, &QPushButton::clicked, this, &LessonPanel::showStartPage);
  connect(next_, &QPushButton::clicked, this, [this] {
    if (library_ == nullptr || session_->lesson() == nullptr) return;
    if (const Lesson* n = library_->next(session_->lesson()->id)) emit lessonChosen(n->id);
  });
  return scroll;
}

void LessonPanel::setLibrary(const LessonLibrary* library) {
  library_ = library;
  fillList();
}

void LessonPanel::showStartPage() {
  fillList();
  pages_->setCurrentIndex(0);
}

bool LessonPanel::onLessonPage() const {
  return pages_->currentIndex() == 1;
}

void LessonPanel::fillList() {
  list_->clear();
  QStringList errorLines;
  if (library_ != nullptr) {
    const QString language = Language::current();
    int number = 1;
    for (const Lesson& l : library_->lessons) {
      const bool done = LessonSettings::isCompleted(l.id);
      auto* item = new QListWidgetItem(QStringLiteral("%1 %2. %3")
                                           .arg(done ? QStringLiteral("✓") : QStringLiteral("  "))
                                           .arg(number++)
                                           .arg(l.text(language).title),
                                       list_);
      item->setData(Qt::UserRole, l.id);
      item->setToolTip(done ? tr("Completed") : tr("Not done yet"));
    }
    for (const LessonError& e : library_->errors) errorLines << e.toString();
  }
  errors_->setText(errorLines.isEmpty()
                       ? QString()
                       : tr("These lesson files did not load:") + QLatin1Char('\n') +
                             errorLines.join(QLatin1Char('\n')));
  errors_->setVisible(!errorLines.isEmpty());
}

QString LessonPanel::errorsText() const {
  return errors_->text();
}

QString LessonPanel::verdictText() const {
  return verdict_->text();
}

QString LessonPanel::answerText() const {
  return answer_->text();
}

bool LessonPanel::answerShown() const {
  return !answer_->isHidden();
}

void LessonPanel::retranslate() {
  intro_->setText(
      tr("Each lesson opens a small model and asks you to predict what the next pass will "
         "remove or fuse. Double-click a lesson to start."));
  openFolder_->setText(tr("Open Lessons Folder…"));
  check_->setText(tr("Check my prediction"));
  clear_->setText(tr("Clear"));
  showAnswer_->setText(tr("Show the answer"));
  retry_->setText(tr("Try again"));
  next_->setText(tr("Next lesson"));
  back_->setText(tr("All lessons"));
  fillList();
  showLesson();
}

void LessonPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void LessonPanel::onStateChanged() {
  if (session_->state() == LessonSession::State::kNone) {
    showStartPage();
    return;
  }
  if (session_->state() == LessonSession::State::kOpening) answer_->hide();
  pages_->setCurrentIndex(1);
  showLesson();
}

void LessonPanel::showLesson() {
  const Lesson* lesson = session_->lesson();
  if (lesson == nullptr) return;
  const LessonText text = lesson->text(Language::current());
  title_->setText(text.title);
  explanation_->setText(text.explanation);
  task_->setText(text.task);
  question_->setText(text.question);
  answer_->setText(text.answer);
  showPrediction();
  showVerdict();
}

void LessonPanel::showPrediction() {
  const auto& picked = session_->prediction();
  const std::vector<ir::NodeId> nodes(picked.begin(), picked.end());
  prediction_->setText(
      nodes.empty()
          ? tr("Your prediction: no node (click nodes in the graph to pick or unpick them; "
               "checking with none picked predicts that the pass changes nothing).")
          : tr("Your prediction: %1").arg(nodeList(nodes)));
}

void LessonPanel::showVerdict() {
  using S = LessonSession::State;
  const S state = session_->state();
  const bool predicting = state == S::kPredicting;
  const bool judged = state == S::kJudged;
  check_->setEnabled(predicting);
  clear_->setEnabled(predicting);
  retry_->setEnabled(judged);
  next_->setEnabled(judged && library_ != nullptr && session_->lesson() != nullptr &&
                    library_->next(session_->lesson()->id) != nullptr);
  question_->setVisible(judged);
  showAnswer_->setVisible(judged && answer_->isHidden());
  if (!judged) answer_->hide();
  if (state == S::kOpening) {
    verdict_->setText(tr("Opening the lesson's model…"));
  } else if (state == S::kChecking) {
    verdict_->setText(tr("Running the pass…"));
  } else if (!judged) {
    verdict_->clear();
  } else if (!session_->checkError().isEmpty()) {
    verdict_->setText(session_->checkError().toHtmlEscaped());
  } else {
    const PredictionVerdict& v = session_->verdict();
    QString html = v.correct() ? tr("<b>Right!</b> The pass did what you predicted.")
                               : tr("<b>Not quite.</b> Compare your prediction with the "
                                    "Step view.");
    auto line = [&](const QString& label, const std::vector<ir::NodeId>& nodes, const char* color) {
      if (!nodes.empty())
        html += QStringLiteral("<br><span style=\"color:%1\">%2</span>")
                    .arg(QLatin1String(color), label.arg(nodeList(nodes).toHtmlEscaped()));
    };
    line(tr("Right: %1"), v.right, "#2e7d32");
    line(tr("Missed (removed, not predicted): %1"), v.missed, "#e65100");
    line(tr("Wrong (predicted, still there): %1"), v.wrong, "#b00020");
    if (v.right.empty() && v.missed.empty() && v.wrong.empty())
      html += QStringLiteral("<br>") + tr("The pass removed nothing, as you predicted.");
    verdict_->setText(html);
  }
}

QString LessonPanel::nodeList(const std::vector<ir::NodeId>& nodes) const {
  QStringList names;
  for (ir::NodeId n : nodes) names << session_->nodeLabel(n);
  return names.join(QStringLiteral(", "));
}

}  // namespace passlab::ui
