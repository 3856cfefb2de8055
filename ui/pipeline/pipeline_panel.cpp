#include "ui/pipeline/pipeline_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDropEvent>
#include <QEvent>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <functional>
#include <map>

#include "core/passes/registry.h"
#include "ui/mainwindow/language.h"

namespace passlab::ui {

namespace {

constexpr int kIdRole = Qt::UserRole;

QString categoryTitle(passes::Category c) {
  switch (c) {
    case passes::Category::kStructural:
      return PipelinePanel::tr("Structural");
    case passes::Category::kAlgorithm:
      return PipelinePanel::tr("Algorithm");
    case passes::Category::kReadWrite:
      return PipelinePanel::tr("Read/write");
    case passes::Category::kPrecision:
      return PipelinePanel::tr("Precision");
  }
  return {};
}

QString categoryHelp(passes::Category c) {
  switch (c) {
    case passes::Category::kStructural:
      return PipelinePanel::tr(
          "Nodes that compute nothing new: dead, identity, constant, repeated");
    case passes::Category::kAlgorithm:
      return PipelinePanel::tr("The same result by less work: folded or cheaper operations");
    case passes::Category::kReadWrite:
      return PipelinePanel::tr("Fewer passes over memory: fused and reordered operations");
    case passes::Category::kPrecision:
      return PipelinePanel::tr("Narrower number formats");
  }
  return {};
}

QString summaryOf(const passes::PassInfo& info) {
  const bool zh = Language::current().startsWith(QLatin1String("zh"));
  return QString::fromStdString(zh && !info.summaryZh.empty() ? info.summaryZh : info.summaryEn);
}

}  // namespace

// The pass list: a pass can be dragged to another place within its category.
class PassTree : public QTreeWidget {
 public:
  using QTreeWidget::QTreeWidget;
  std::function<void()> reordered;

 protected:
  bool validDrop(QDropEvent* e, QTreeWidgetItem** target) const {
    QTreeWidgetItem* dragged = currentItem();
    QTreeWidgetItem* t = itemAt(e->position().toPoint());
    if (e->source() != this || dragged == nullptr || dragged->parent() == nullptr || t == nullptr ||
        t == dragged || t->parent() != dragged->parent())
      return false;
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
    QTreeWidgetItem* parent = dragged->parent();
    int to = parent->indexOfChild(target);
    if (e->position().y() > visualItemRect(target).center().y()) ++to;
    int from = parent->indexOfChild(dragged);
    if (from < to) --to;
    parent->takeChild(from);
    parent->insertChild(to, dragged);
    setCurrentItem(dragged);
    e->setDropAction(Qt::IgnoreAction);  // moved here, not by the view
    e->accept();
    if (reordered) reordered();
  }
};

PipelinePanel::PipelinePanel(PipelineSession* session, QWidget* parent)
    : QWidget(parent), session_(session) {
  presetLabel_ = new QLabel(this);
  preset_ = new QComboBox(this);
  tree_ = new PassTree(this);
  tree_->setColumnCount(2);
  tree_->setRootIsDecorated(true);
  tree_->setUniformRowHeights(true);
  tree_->setSelectionMode(QAbstractItemView::SingleSelection);
  tree_->setDragEnabled(true);
  tree_->setAcceptDrops(true);
  tree_->setDropIndicatorShown(true);
  tree_->setDragDropMode(QAbstractItemView::InternalMove);
  tree_->header()->setStretchLastSection(true);
  tree_->reordered = [this] { onTreeReordered(); };
  up_ = new QPushButton(this);
  down_ = new QPushButton(this);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  options_ = new QTableWidget(0, 2, this);
  options_->horizontalHeader()->setStretchLastSection(true);
  options_->verticalHeader()->hide();
  options_->setMaximumHeight(120);
  check_ = new QCheckBox(this);
  check_->setChecked(session_->numericCheck());
  standardOnly_ = new QCheckBox(this);
  standardOnly_->setChecked(session_->standardOnly());
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
  col->addLayout(moveRow);
  col->addWidget(summary_);
  col->addWidget(options_, 1);
  col->addWidget(check_);
  col->addWidget(standardOnly_);
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
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this] {
    showOptions();
    updateState();
  });
  connect(options_, &QTableWidget::cellChanged, this, &PipelinePanel::onOptionEdited);
  connect(up_, &QPushButton::clicked, this, [this] { move(-1); });
  connect(down_, &QPushButton::clicked, this, [this] { move(+1); });
  connect(check_, &QCheckBox::toggled, session_, &PipelineSession::setNumericCheck);
  connect(standardOnly_, &QCheckBox::toggled, session_, &PipelineSession::setStandardOnly);
  connect(step_, &QPushButton::clicked, session_, &PipelineSession::step);
  connect(runAll_, &QPushButton::clicked, session_, &PipelineSession::runAll);
  connect(reset_, &QPushButton::clicked, session_, &PipelineSession::reset);
  connect(cancel_, &QPushButton::clicked, session_, &PipelineSession::cancel);
  connect(clearFilter_, &QPushButton::clicked, this,
          [this] { session_->setNodeFilter(rewrite::NodeFilter()); });
  connect(session_, &PipelineSession::nodeFilterChanged, this, &PipelinePanel::updateState);
  connect(session_, &PipelineSession::planChanged, this, [this] {
    if (!building_) rebuildTree();
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
    if (c.has(DocumentChange::kModel)) updateState();
  });
  retranslateUi();
  rebuildTree();
  updateState();
}

QTreeWidget* PipelinePanel::passTree() const {
  return tree_;
}

void PipelinePanel::retranslateUi() {
  presetLabel_->setText(tr("Preset:"));
  preset_->clear();
  preset_->addItem(tr("Choose passes…"), QString());
  preset_->addItem(tr("Basic: structural cleanup"), QStringLiteral("basic"));
  preset_->addItem(tr("Default: cleanup, fusion, substitution"), QStringLiteral("default"));
  preset_->addItem(tr("All passes"), QStringLiteral("all"));
  tree_->setHeaderLabels({tr("Pass"), tr("Kind")});
  up_->setText(tr("Move &Up"));
  down_->setText(tr("Move &Down"));
  options_->setHorizontalHeaderLabels({tr("Option"), tr("Value")});
  check_->setText(tr("Check the outputs numerically after each pass"));
  check_->setToolTip(
      tr("Runs the model before the first Step and after each Step on the same seeded inputs "
         "and compares the outputs; the run stops at the first pass that changes them."));
  standardOnly_->setText(tr("Standard ONNX only"));
  standardOnly_->setToolTip(
      tr("Passes that would emit PassLab or ONNX Runtime operators are skipped."));
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
  QString current = currentPassId();
  tree_->clear();
  std::map<int, QTreeWidgetItem*> groups;
  for (const PlanEntry& e : session_->plan()) {
    const passes::Pass* pass = passes::findPass(e.id);
    if (pass == nullptr) continue;
    const passes::PassInfo& info = pass->info();
    int rank = categoryRank(info.category);
    QTreeWidgetItem*& group = groups[rank];
    if (group == nullptr) {
      group = new QTreeWidgetItem(tree_);
      group->setText(0, categoryTitle(info.category));
      group->setToolTip(0, categoryHelp(info.category));
      QFont f = group->font(0);
      f.setBold(true);
      group->setFont(0, f);
      group->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsAutoTristate);
      group->setExpanded(true);
    }
    auto* item = new QTreeWidgetItem(group);
    item->setData(0, kIdRole, QString::fromStdString(info.id));
    item->setText(0, QString::fromStdString(info.id));
    item->setText(1, QString::fromStdString(info.kind));
    QString tip = summaryOf(info);
    if (info.changesNumerics) tip += QLatin1Char('\n') + tr("May change results in the last bits.");
    if (info.mayEmitNonStandard)
      tip += QLatin1Char('\n') + tr("May emit operators outside standard ONNX.");
    item->setToolTip(0, tip);
    item->setToolTip(1, tip);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable |
                   Qt::ItemIsDragEnabled);
    item->setCheckState(0, e.enabled ? Qt::Checked : Qt::Unchecked);
  }
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) tree_->topLevelItem(i)->setExpanded(true);
  tree_->resizeColumnToContents(0);
  building_ = false;
  if (!current.isEmpty()) selectPass(current);
}

QString PipelinePanel::currentPassId() const {
  QTreeWidgetItem* item = tree_->currentItem();
  return item ? item->data(0, kIdRole).toString() : QString();
}

void PipelinePanel::selectPass(const QString& id) {
  for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
    QTreeWidgetItem* group = tree_->topLevelItem(g);
    for (int i = 0; i < group->childCount(); ++i)
      if (group->child(i)->data(0, kIdRole).toString() == id) {
        tree_->setCurrentItem(group->child(i));
        return;
      }
  }
}

void PipelinePanel::onItemChanged(QTreeWidgetItem* item, int column) {
  if (building_ || column != 0) return;
  QString id = item->data(0, kIdRole).toString();
  if (id.isEmpty()) return;  // a category: its passes report their own change
  building_ = true;
  session_->setEnabled(id.toStdString(), item->checkState(0) == Qt::Checked);
  building_ = false;
  updateState();
}

void PipelinePanel::onTreeReordered() {
  std::vector<PlanEntry> next;
  for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
    QTreeWidgetItem* group = tree_->topLevelItem(g);
    for (int i = 0; i < group->childCount(); ++i) {
      std::string id = group->child(i)->data(0, kIdRole).toString().toStdString();
      for (const PlanEntry& e : session_->plan())
        if (e.id == id) next.push_back(e);
    }
  }
  session_->setPlan(std::move(next));
}

void PipelinePanel::move(int delta) {
  QString id = currentPassId();
  if (id.isEmpty()) return;
  const auto& plan = session_->plan();
  for (int i = 0; i < static_cast<int>(plan.size()); ++i)
    if (plan[static_cast<size_t>(i)].id == id.toStdString()) {
      int to = i + delta;
      if (to < 0 || to >= static_cast<int>(plan.size())) return;
      const passes::Pass* a = passes::findPass(plan[static_cast<size_t>(i)].id);
      const passes::Pass* b = passes::findPass(plan[static_cast<size_t>(to)].id);
      if (!a || !b || a->info().category != b->info().category) return;  // stays in its group
      session_->movePass(i, to);
      selectPass(id);
      return;
    }
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
      QStringLiteral("<b>%1</b> — %2")
          .arg(QString::fromStdString(info.id).toHtmlEscaped(), summaryOf(info).toHtmlEscaped());
  if (info.options.empty()) text += QStringLiteral("<br>") + tr("No options.").toHtmlEscaped();
  summary_->setText(text);
  const PlanEntry* entry = nullptr;
  for (const PlanEntry& e : session_->plan())
    if (e.id == info.id) entry = &e;
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
    options_->setItem(r, 0, name);
    options_->setItem(r, 1, val);
  }
  options_->resizeColumnToContents(0);
  building_ = false;
}

void PipelinePanel::onOptionEdited(int row, int column) {
  if (building_ || column != 1) return;
  QString id = currentPassId();
  QTableWidgetItem* name = options_->item(row, 0);
  QTableWidgetItem* value = options_->item(row, 1);
  if (id.isEmpty() || !name || !value) return;
  Status s = session_->setOption(id.toStdString(), name->text().toStdString(),
                                 value->text().trimmed().toStdString());
  if (!s) lastMessage_ = QString::fromStdString(s.message());
  showOptions();
  updateState();
}

QString PipelinePanel::filterText() const {
  return filter_->text();
}

QString PipelinePanel::statusText() const {
  return status_->text();
}

void PipelinePanel::updateState() {
  const bool running = session_->isRunning();
  const bool hasModel = session_->document()->hasModel();
  const std::string next = session_->nextPass();
  step_->setEnabled(!running && hasModel && !next.empty());
  runAll_->setEnabled(!running && hasModel && !next.empty());
  reset_->setEnabled(!running && !session_->steps().empty());
  cancel_->setEnabled(running);
  tree_->setEnabled(!running);
  options_->setEnabled(!running);
  preset_->setEnabled(!running);
  check_->setEnabled(!running);
  standardOnly_->setEnabled(!running);
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
  next_->setText(next.empty() ? tr("No pass is switched on.")
                              : tr("Next: %1").arg(QString::fromStdString(next)));
  progress_->setVisible(running);
  if (running) return;
  if (!lastMessage_.isEmpty()) {
    status_->setText(lastMessage_);
  } else {
    const int n = static_cast<int>(session_->steps().size());
    status_->setText(n == 0 ? tr("No pass has run on this model yet.")
                            : tr("%n step(s) applied.", "", n));
  }
}

}  // namespace passlab::ui
