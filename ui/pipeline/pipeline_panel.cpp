#include "ui/pipeline/pipeline_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDropEvent>
#include <QEvent>
#include <QFileDialog>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <functional>
#include <map>

#include "core/passes/registry.h"
#include "ui/i18n/core_text.h"
#include "ui/pipeline/budget_editor.h"
#include "ui/pipeline/pass_category_text.h"
#include "ui/pipeline/pass_help.h"

namespace passlab::ui {

namespace {

constexpr int kIdRole = Qt::UserRole;
constexpr int kRowRole = Qt::UserRole + 1;

}  // namespace

// The pass list: one row per run of a pass, in the schedule's order; a row
// can be dragged to any other place.
class PassTree : public QTreeWidget {
 public:
  using QTreeWidget::QTreeWidget;
  std::function<void(int from, int to)> reordered;

 protected:
  bool validDrop(QDropEvent* e, QTreeWidgetItem** target) const {
    QTreeWidgetItem* dragged = currentItem();
    QTreeWidgetItem* t = itemAt(e->position().toPoint());
    if (e->source() != this || dragged == nullptr || t == nullptr || t == dragged) return false;
    *target = t;
    return true;
  }
  void dragMoveEvent(QDragMoveEvent* e) override {
    QTreeWidgetItem* target = nullptr;
    if (!validDrop(e, &target)) {
      e->ignore();
      return;
    }
    QTreeWidget::dragMoveEvent(e);
    e->acceptProposedAction();
  }
  void dropEvent(QDropEvent* e) override {
    QTreeWidgetItem* target = nullptr;
    if (!validDrop(e, &target)) {
      e->ignore();
      return;
    }
    QTreeWidgetItem* dragged = currentItem();
    int to = indexOfTopLevelItem(target);
    if (e->position().y() > visualItemRect(target).center().y()) ++to;
    const int from = indexOfTopLevelItem(dragged);
    if (from < to) --to;
    e->setDropAction(Qt::IgnoreAction);  // the session moves it; the list is rebuilt
    e->accept();
    if (reordered && from != to) reordered(from, to);
  }
};

PipelinePanel::PipelinePanel(PipelineSession* session, QWidget* parent)
    : QWidget(parent), session_(session) {
  presetLabel_ = new QLabel(this);
  preset_ = new QComboBox(this);
  tree_ = new PassTree(this);
  tree_->setColumnCount(3);
  tree_->setRootIsDecorated(false);
  tree_->setUniformRowHeights(true);
  tree_->setSelectionMode(QAbstractItemView::SingleSelection);
  tree_->setDragEnabled(true);
  tree_->setAcceptDrops(true);
  tree_->setDropIndicatorShown(true);
  tree_->setDragDropMode(QAbstractItemView::InternalMove);
  tree_->header()->setStretchLastSection(true);
  tree_->reordered = [this](int from, int to) {
    session_->movePass(from, to);
    selectRow(to);
  };
  up_ = new QPushButton(this);
  down_ = new QPushButton(this);
  add_ = new QPushButton(this);
  addMenu_ = new QMenu(add_);
  add_->setMenu(addMenu_);
  remove_ = new QPushButton(this);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse |
                                    Qt::LinksAccessibleByKeyboard);
  connect(summary_, &QLabel::linkActivated, this, [this] { showPassHelp(this, currentPassId()); });
  options_ = new QTableWidget(0, 2, this);
  options_->horizontalHeader()->setStretchLastSection(true);
  options_->verticalHeader()->hide();
  options_->setMaximumHeight(120);
  check_ = new QCheckBox(this);
  check_->setChecked(session_->numericCheck());
  checkInputs_ = new QLabel(this);
  checkInputs_->setWordWrap(true);
  checkInputs_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  standardOnly_ = new QCheckBox(this);
  standardOnly_->setChecked(session_->standardOnly());
  budgetLabel_ = new QLabel(this);
  budget_ = new BudgetEditor(session_, this);
  calibration_ = new QLabel(this);
  calibration_->setWordWrap(true);
  calibrationButton_ = new QPushButton(this);
  auto* calibrationMenu = new QMenu(calibrationButton_);
  chooseCalibration_ = calibrationMenu->addAction(QString());
  synthesizedCalibration_ = calibrationMenu->addAction(QString());
  calibrationButton_->setMenu(calibrationMenu);
  next_ = new QLabel(this);
  filter_ = new QLabel(this);
  filter_->setWordWrap(true);
  clearFilter_ = new QPushButton(this);
  step_ = new QPushButton(this);
  runAll_ = new QPushButton(this);
  reset_ = new QPushButton(this);
  cancel_ = new QPushButton(this);
  progress_ = new QProgressBar(this);
  progress_->setTextVisible(true);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* col = new QVBoxLayout(this);
  col->setContentsMargins(4, 4, 4, 4);
  auto* presetRow = new QHBoxLayout;
  presetRow->addWidget(presetLabel_);
  presetRow->addWidget(preset_, 1);
  col->addLayout(presetRow);
  col->addWidget(tree_, 3);
  auto* moveRow = new QHBoxLayout;
  moveRow->addWidget(up_);
  moveRow->addWidget(down_);
  moveRow->addStretch(1);
  moveRow->addWidget(add_);
  moveRow->addWidget(remove_);
  col->addLayout(moveRow);
  col->addWidget(summary_);
  col->addWidget(options_, 1);
  col->addWidget(check_);
  col->addWidget(checkInputs_);
  col->addWidget(standardOnly_);
  auto* budgetRow = new QHBoxLayout;
  budgetRow->addWidget(budgetLabel_, 0, Qt::AlignTop);
  budgetRow->addWidget(budget_, 1);
  col->addLayout(budgetRow);
  auto* calibrationRow = new QHBoxLayout;
  calibrationRow->addWidget(calibration_, 1);
  calibrationRow->addWidget(calibrationButton_);
  col->addLayout(calibrationRow);
  auto* filterRow = new QHBoxLayout;
  filterRow->addWidget(filter_, 1);
  filterRow->addWidget(clearFilter_);
  col->addLayout(filterRow);
  col->addWidget(next_);
  auto* buttons = new QHBoxLayout;
  for (QPushButton* b : {step_, runAll_, reset_, cancel_}) buttons->addWidget(b);
  col->addLayout(buttons);
  col->addWidget(progress_);
  col->addWidget(status_);

  connect(preset_, &QComboBox::activated, this, [this](int index) {
    QString level = preset_->itemData(index).toString();
    if (!level.isEmpty()) (void)session_->applyLevel(level.toStdString());
    preset_->setCurrentIndex(0);
  });
  connect(tree_, &QTreeWidget::itemChanged, this, &PipelinePanel::onItemChanged);
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(tree_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    QTreeWidgetItem* item = tree_->itemAt(at);
    if (item == nullptr) return;
    const QString id = item->data(0, kIdRole).toString();
    QMenu menu(this);
    menu.addAction(tr("About %1…").arg(id), this, [this, id] { showPassHelp(this, id); });
    menu.exec(tree_->viewport()->mapToGlobal(at));
  });
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this] {
    showOptions();
    updateState();
  });
  connect(options_, &QTableWidget::cellChanged, this, &PipelinePanel::onOptionEdited);
  connect(up_, &QPushButton::clicked, this, [this] { move(-1); });
  connect(down_, &QPushButton::clicked, this, [this] { move(+1); });
  connect(remove_, &QPushButton::clicked, this, [this] {
    const int row = currentRow();
    if (row < 0) return;
    session_->removeRow(row);
    selectRow(std::min(row, static_cast<int>(session_->plan().size()) - 1));
  });
  connect(check_, &QCheckBox::toggled, session_, &PipelineSession::setNumericCheck);
  connect(check_, &QCheckBox::toggled, this, [this] { updateState(); });
  connect(standardOnly_, &QCheckBox::toggled, session_, &PipelineSession::setStandardOnly);
  connect(chooseCalibration_, &QAction::triggered, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Calibration data"), QString::fromStdString(session_->calibrationFolder()));
    if (dir.isEmpty()) return;
    session_->setCalibrationFolder(dir.toStdString());
    showCalibration();
  });
  connect(synthesizedCalibration_, &QAction::triggered, this, [this] {
    session_->setCalibrationFolder({});
    showCalibration();
  });
  // The Precision panel edits the same calibration data (and budget: the
  // BudgetEditor follows it).
  connect(session_, &PipelineSession::settingsChanged, this, &PipelinePanel::showCalibration);
  connect(step_, &QPushButton::clicked, session_, &PipelineSession::step);
  connect(runAll_, &QPushButton::clicked, session_, &PipelineSession::runAll);
  connect(reset_, &QPushButton::clicked, session_, &PipelineSession::reset);
  connect(cancel_, &QPushButton::clicked, session_, &PipelineSession::cancel);
  connect(clearFilter_, &QPushButton::clicked, this,
          [this] { session_->setNodeFilter(rewrite::NodeFilter()); });
  connect(session_, &PipelineSession::nodeFilterChanged, this, &PipelinePanel::updateState);
  connect(session_, &PipelineSession::planChanged, this, [this] {
    if (!building_) rebuildTree();
    {  // a loaded recipe brings its check and standard-only settings
      const QSignalBlocker a(check_), b(standardOnly_);
      check_->setChecked(session_->numericCheck());
      standardOnly_->setChecked(session_->standardOnly());
    }
    updateState();
  });
  connect(session_, &PipelineSession::stepsChanged, this, &PipelinePanel::updateState);
  connect(session_, &PipelineSession::runningChanged, this, [this](bool running) {
    if (running) lastMessage_.clear();
    updateState();
  });
  connect(session_, &PipelineSession::progress, this,
          [this](int done, int total, const QString& current) {
            progress_->setRange(0, std::max(1, total));
            progress_->setValue(done);
            if (session_->isRunning() && !current.isEmpty())
              status_->setText(tr("Running %1 (%2 of %3)…").arg(current).arg(done + 1).arg(total));
          });
  connect(session_, &PipelineSession::runFinished, this, [this](const QString& message) {
    lastMessage_ = message;
    updateState();
  });
  connect(session_->document(), &Document::changed, this, [this](const DocumentChange& c) {
    if (!c.has(DocumentChange::kModel)) return;
    checkInputsStale_ = true;  // another model: other inputs to make up
    updateState();
  });
  retranslateUi();
  rebuildTree();
  updateState();
}

QTreeWidget* PipelinePanel::passTree() const {
  return tree_;
}

void PipelinePanel::showCalibration() {
  const std::string& folder = session_->calibrationFolder();
  calibration_->setText(
      folder.empty()
          ? tr("Calibration of quantize_static: %n synthesized input set(s)", "",
               session_->synthesizedCalibrationSets())
          : tr("Calibration of quantize_static: %1").arg(QString::fromStdString(folder)));
}

void PipelinePanel::retranslateUi() {
  checkInputsStale_ = true;
  presetLabel_->setText(tr("Preset:"));
  preset_->clear();
  preset_->addItem(tr("Choose passes…"), QString());
  preset_->addItem(tr("Basic: structural cleanup"), QStringLiteral("basic"));
  preset_->addItem(tr("Default: cleanup, fusion, substitution"), QStringLiteral("default"));
  preset_->addItem(tr("Fused: default, then PassLab fused kernels (non-standard)"),
                   QStringLiteral("fused"));
  preset_->addItem(tr("ONNX Runtime: default with its contrib fusions (non-standard)"),
                   QStringLiteral("ort"));
  preset_->addItem(tr("All passes"), QStringLiteral("all"));
  preset_->setToolTip(
      tr("The list becomes the level's schedule, in the order the command line "
         "runs it; a pass that runs twice has two rows."));
  tree_->setHeaderLabels({tr("Pass"), tr("Category"), tr("Kind")});
  up_->setText(tr("Move &Up"));
  down_->setText(tr("Move &Down"));
  add_->setText(tr("Add Pass"));
  add_->setToolTip(tr("Insert a run of a pass after the chosen row"));
  remove_->setText(tr("Remove"));
  remove_->setToolTip(tr("Take the chosen row out of the list"));
  addMenu_->clear();
  for (passes::Category c : {passes::Category::kStructural, passes::Category::kAlgorithm,
                             passes::Category::kReadWrite, passes::Category::kPrecision}) {
    QMenu* sub = nullptr;
    for (const passes::Pass* p : passes::allPasses()) {
      if (p->info().category != c) continue;
      if (sub == nullptr) sub = addMenu_->addMenu(PassCategoryText::title(c));
      const QString id = QString::fromStdString(p->info().id);
      QAction* a = sub->addAction(id);
      a->setToolTip(passSummary(p->info()));
      connect(a, &QAction::triggered, this, [this, id] {
        const int row = currentRow() + 1;  // after the chosen row; first without one
        if (session_->insertPass(row, id.toStdString()).isOk()) selectRow(row);
      });
    }
  }
  options_->setHorizontalHeaderLabels({tr("Option"), tr("Value")});
  check_->setText(tr("Check the outputs numerically after each pass"));
  check_->setToolTip(
      tr("Runs the model before the first Step and after each Step on the same seeded inputs "
         "and compares the outputs; the run stops at the first pass that changes them."));
  standardOnly_->setText(tr("Standard ONNX only"));
  standardOnly_->setToolTip(
      tr("Passes that would emit PassLab or ONNX Runtime operators are skipped."));
  budgetLabel_->setText(tr("Budget of lossy passes:"));
  calibrationButton_->setText(tr("Calibration data"));
  chooseCalibration_->setText(tr("Choose a folder…"));
  synthesizedCalibration_->setText(tr("Use synthesized inputs"));
  const QString calibrationTip =
      tr("The input sets quantize_static calibrates its ranges on (the numeric check then runs "
         "on the first of them): one subfolder per set, each with input_0.pb or input_0.npy, "
         "input_1…, in the order of the model's inputs");
  calibration_->setToolTip(calibrationTip);
  calibrationButton_->setToolTip(calibrationTip);
  showCalibration();
  const QString budgetTip =
      tr("A lossy pass (float16, int8, low rank) is checked against this budget instead of "
         "equality, per output; a step over it is rolled back and names the layer that lost "
         "the most.");
  budgetLabel_->setToolTip(budgetTip);
  budget_->setFieldToolTips(budgetTip);
  step_->setText(tr("&Step"));
  step_->setToolTip(tr("Apply the next pass"));
  runAll_->setText(tr("Run &All"));
  runAll_->setToolTip(tr("Apply every switched-on pass from the next one to the end"));
  reset_->setText(tr("Rese&t"));
  reset_->setToolTip(tr("Back to the model before the first Step (undoable)"));
  cancel_->setText(tr("Cancel"));
  cancel_->setToolTip(tr("Stop after the pass that is running"));
  clearFilter_->setText(tr("All Nodes"));
  clearFilter_->setToolTip(tr("Let the passes work on every node again"));
  rebuildTree();
  showOptions();
  updateState();
}

void PipelinePanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

void PipelinePanel::rebuildTree() {
  building_ = true;
  const int current = currentRow();
  tree_->clear();
  const std::vector<PlanEntry>& plan = session_->plan();
  for (int r = 0; r < static_cast<int>(plan.size()); ++r) {
    const PlanEntry& e = plan[static_cast<size_t>(r)];
    const passes::Pass* pass = passes::findPass(e.id);
    if (pass == nullptr) continue;
    const passes::PassInfo& info = pass->info();
    auto* item = new QTreeWidgetItem(tree_);
    item->setData(0, kIdRole, QString::fromStdString(info.id));
    item->setData(0, kRowRole, r);
    item->setText(0, QString::fromStdString(planRowLabel(plan, r)));
    item->setText(1, PassCategoryText::title(info.category));
    item->setText(2, trCore(info.kind));
    QString tip = passSummary(info);
    if (info.changesNumerics) tip += QLatin1Char('\n') + tr("May change results in the last bits.");
    if (info.mayEmitNonStandard)
      tip += QLatin1Char('\n') + tr("May emit operators outside standard ONNX.");
    const QBrush tint(PassCategoryText::tint(info.category));
    for (int c = 0; c < 3; ++c) {
      item->setToolTip(c, c == 1 ? PassCategoryText::help(info.category) : tip);
      item->setBackground(c, tint);
    }
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable |
                   Qt::ItemIsDragEnabled);
    item->setCheckState(0, e.enabled ? Qt::Checked : Qt::Unchecked);
  }
  for (int c = 0; c < 2; ++c) tree_->resizeColumnToContents(c);
  building_ = false;
  markNextRow();
  if (current >= 0) selectRow(std::min(current, tree_->topLevelItemCount() - 1));
}

void PipelinePanel::markNextRow() {
  const int next = session_->nextRow();
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = tree_->topLevelItem(i);
    QFont f = item->font(0);
    if (f.bold() == (i == next)) continue;
    f.setBold(i == next);
    const bool was = building_;
    building_ = true;
    for (int c = 0; c < 3; ++c) item->setFont(c, f);
    building_ = was;
  }
}

QString PipelinePanel::currentPassId() const {
  QTreeWidgetItem* item = tree_->currentItem();
  return item ? item->data(0, kIdRole).toString() : QString();
}

int PipelinePanel::currentRow() const {
  QTreeWidgetItem* item = tree_->currentItem();
  return item ? item->data(0, kRowRole).toInt() : -1;
}

void PipelinePanel::selectPass(const QString& id) {
  for (int i = 0; i < tree_->topLevelItemCount(); ++i)
    if (tree_->topLevelItem(i)->data(0, kIdRole).toString() == id) {
      tree_->setCurrentItem(tree_->topLevelItem(i));
      return;
    }
}

void PipelinePanel::selectRow(int row) {
  if (row >= 0 && row < tree_->topLevelItemCount()) tree_->setCurrentItem(tree_->topLevelItem(row));
}

void PipelinePanel::onItemChanged(QTreeWidgetItem* item, int column) {
  if (building_ || column != 0) return;
  const int row = item->data(0, kRowRole).toInt();
  building_ = true;
  session_->setRowEnabled(row, item->checkState(0) == Qt::Checked);
  building_ = false;
  updateState();
}

void PipelinePanel::move(int delta) {
  const int row = currentRow();
  if (row < 0) return;
  const int to = row + delta;
  if (to < 0 || to >= static_cast<int>(session_->plan().size())) return;
  session_->movePass(row, to);
  selectRow(to);
}

void PipelinePanel::showOptions() {
  building_ = true;
  options_->setRowCount(0);
  QString id = currentPassId();
  const passes::Pass* pass = id.isEmpty() ? nullptr : passes::findPass(id.toStdString());
  if (pass == nullptr) {
    summary_->setText(tr("Choose a pass to see what it does and its options."));
    building_ = false;
    return;
  }
  const passes::PassInfo& info = pass->info();
  QString text =
      QStringLiteral("<b>%1</b> — %2 <a href=\"help\">%3</a>")
          .arg(QString::fromStdString(info.id).toHtmlEscaped(), passSummary(info).toHtmlEscaped(),
               tr("About this pass…").toHtmlEscaped());
  if (info.options.empty()) text += QStringLiteral("<br>") + tr("No options.").toHtmlEscaped();
  summary_->setText(text);
  const int row = currentRow();
  const PlanEntry* entry = row >= 0 && row < static_cast<int>(session_->plan().size())
                               ? &session_->plan()[static_cast<size_t>(row)]
                               : nullptr;
  options_->setRowCount(static_cast<int>(info.options.size()));
  for (int r = 0; r < static_cast<int>(info.options.size()); ++r) {
    const passes::PassOption& o = info.options[static_cast<size_t>(r)];
    std::string value = o.defaultValue;
    if (entry)
      for (const auto& [k, v] : entry->options)
        if (k == o.name) value = v;
    auto* name = new QTableWidgetItem(QString::fromStdString(o.name));
    name->setFlags(Qt::ItemIsEnabled);
    QString help = QString::fromStdString(o.help) + QLatin1Char('\n') +
                   tr("Default: %1").arg(QString::fromStdString(o.defaultValue));
    name->setToolTip(help);
    auto* val = new QTableWidgetItem(QString::fromStdString(value));
    val->setToolTip(help);
    if (o.kind == passes::OptionKind::kBool) {
      // A check box: the only values it takes are true and false.
      val->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
      val->setCheckState(value == "true" ? Qt::Checked : Qt::Unchecked);
    }
    options_->setItem(r, 0, name);
    options_->setItem(r, 1, val);
  }
  options_->resizeColumnToContents(0);
  building_ = false;
}

void PipelinePanel::onOptionEdited(int row, int column) {
  if (building_ || column != 1) return;
  const int planRow = currentRow();
  QTableWidgetItem* name = options_->item(row, 0);
  QTableWidgetItem* value = options_->item(row, 1);
  if (planRow < 0 || !name || !value) return;
  // Only true/false options carry a check state (every item is checkable by default).
  const QString text =
      value->data(Qt::CheckStateRole).isValid()
          ? QString::fromLatin1(value->checkState() == Qt::Checked ? "true" : "false")
          : value->text().trimmed();
  Status s = session_->setRowOption(planRow, name->text().toStdString(), text.toStdString());
  if (!s) lastMessage_ = trCore(s.text());
  showOptions();
  updateState();
}

QString PipelinePanel::filterText() const {
  return filter_->text();
}

QString PipelinePanel::statusText() const {
  return status_->text();
}

QString PipelinePanel::nextText() const {
  return next_->text();
}

void PipelinePanel::updateState() {
  const bool running = session_->isRunning();
  const bool hasModel = session_->document()->hasModel();
  const int nextRow = session_->nextRow();
  const std::string next = planRowLabel(session_->plan(), nextRow);
  step_->setEnabled(!running && hasModel && !next.empty());
  runAll_->setEnabled(!running && hasModel && !next.empty());
  add_->setEnabled(!running);
  remove_->setEnabled(!running && currentRow() >= 0);
  up_->setEnabled(!running && currentRow() > 0);
  down_->setEnabled(!running && currentRow() >= 0 &&
                    currentRow() + 1 < static_cast<int>(session_->plan().size()));
  markNextRow();
  reset_->setEnabled(!running && !session_->steps().empty());
  cancel_->setEnabled(running);
  tree_->setEnabled(!running);
  options_->setEnabled(!running);
  preset_->setEnabled(!running);
  check_->setEnabled(!running);
  showCheckInputs(running);
  standardOnly_->setEnabled(!running);
  budget_->setEnabled(!running);
  calibrationButton_->setEnabled(!running);
  const rewrite::NodeFilter& f = session_->nodeFilter();
  QStringList scope;
  if (!f.only.empty())
    scope << tr("Passes work only on the %n selected node(s).", "",
                static_cast<int>(f.only.size()));
  if (!f.excluded.empty())
    scope << tr("%n node(s) excluded from the passes.", "", static_cast<int>(f.excluded.size()));
  filter_->setText(scope.join(QLatin1Char(' ')));
  filter_->setVisible(!f.empty());
  clearFilter_->setVisible(!f.empty());
  clearFilter_->setEnabled(!running);
  const int rows = static_cast<int>(session_->plan().size());
  if (!next.empty())
    next_->setText(
        tr("Next: %1 (row %2 of %3)").arg(QString::fromStdString(next)).arg(nextRow + 1).arg(rows));
  else if (session_->planComplete())
    next_->setText(tr("Done: all %n row(s) applied.", "", rows));
  else
    next_->setText(tr("No pass is switched on."));
  progress_->setVisible(running);
  if (running) return;
  if (!lastMessage_.isEmpty()) {
    status_->setText(lastMessage_);
  } else {
    const int n = static_cast<int>(session_->steps().size());
    QString text =
        n == 0 ? tr("No pass has run on this model yet.") : tr("%n step(s) applied.", "", n);
    const std::vector<std::string>& random = session_->uncomparedOutputs();
    if (!random.empty()) {
      QStringList names;
      for (const std::string& r : random) names << QString::fromStdString(r);
      text += QLatin1Char(' ') +
              tr("The numeric check does not compare %n output(s) (%1): computed from random "
                 "ops without a seed, they differ on every run.",
                 "", static_cast<int>(names.size()))
                  .arg(names.join(QStringLiteral(", ")));
    }
    status_->setText(text);
  }
}

void PipelinePanel::showCheckInputs(bool running) {
  const bool on = session_->numericCheck() && !running;
  checkInputs_->setVisible(on);
  if (!on) {
    checkInputs_->clear();
    checkInputsStale_ = true;
    return;
  }
  if (!checkInputsStale_) return;  // planned for this model already
  checkInputsStale_ = false;
  // A few lines under the check box; all of them in the tooltip (a decoder
  // with its key/value cache has dozens of inputs).
  const QStringList lines = session_->checkInputDescriptions();
  const int shown = 3;
  QString text = lines.mid(0, shown).join(QStringLiteral("; "));
  if (lines.size() > shown)
    text += QLatin1Char(' ') + tr("(and %n more)", "", lines.size() - shown);
  checkInputs_->setText(tr("Inputs the check makes up: %1").arg(text));
  checkInputs_->setToolTip(lines.join(QLatin1Char('\n')));
}

QString PipelinePanel::checkInputsText() const {
  return checkInputs_->text();
}

}  // namespace passlab::ui
