#include "ui/summary/summary_panel.h"

#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/layout/op_family.h"
#include "core/support/strings.h"
#include "ui/graphview/colors.h"
#include "ui/summary/summary_models.h"

namespace passlab::ui {

namespace {
QTableView* table(QAbstractItemModel* model, QWidget* parent, bool sortable) {
  auto* v = new QTableView(parent);
  if (sortable) {
    auto* proxy = new QSortFilterProxyModel(v);
    proxy->setSourceModel(model);
    proxy->setSortRole(Qt::DisplayRole);
    v->setModel(proxy);
    v->setSortingEnabled(true);
    v->sortByColumn(2, Qt::DescendingOrder);
  } else {
    v->setModel(model);
  }
  v->verticalHeader()->hide();
  v->horizontalHeader()->setStretchLastSection(true);
  v->setEditTriggers(QAbstractItemView::NoEditTriggers);
  v->setMinimumHeight(120);
  return v;
}
}  // namespace

SummaryPanel::SummaryPanel(Document* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  outer->addWidget(scroll);
  auto* body = new QWidget(scroll);
  scroll->setWidget(body);
  auto* col = new QVBoxLayout(body);

  factsBox_ = new QGroupBox(body);
  facts_ = new QLabel(factsBox_);
  facts_->setWordWrap(true);
  facts_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  (new QVBoxLayout(factsBox_))->addWidget(facts_);
  col->addWidget(factsBox_);

  io_ = new IoModel(this);
  ioBox_ = new QGroupBox(body);
  (new QVBoxLayout(ioBox_))->addWidget(table(io_, ioBox_, false));
  col->addWidget(ioBox_);

  ops_ = new OpCountModel(this);
  opsBox_ = new QGroupBox(body);
  (new QVBoxLayout(opsBox_))->addWidget(table(ops_, opsBox_, true));
  col->addWidget(opsBox_);

  notesBox_ = new QGroupBox(body);
  notes_ = new QLabel(notesBox_);
  notes_->setWordWrap(true);
  notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  (new QVBoxLayout(notesBox_))->addWidget(notes_);
  col->addWidget(notesBox_);

  legendBox_ = new QGroupBox(body);
  legend_ = new QFormLayout(legendBox_);
  col->addWidget(legendBox_);
  col->addStretch(1);

  connect(doc_, &Document::changed, this, [this](const DocumentChange& c) {
    if (c.has(DocumentChange::kModel) && c.has(DocumentChange::kFile))
      last_.reset();  // another model
    if (c.has(DocumentChange::kModel) || c.has(DocumentChange::kStructure))
      refresh();
    else if (c.has(DocumentChange::kFile) && last_)
      show(*last_);
  });
  retranslateUi();
}

QString SummaryPanel::factsText() const {
  return facts_->text();
}

void SummaryPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

void SummaryPanel::retranslateUi() {
  factsBox_->setTitle(tr("Model"));
  ioBox_->setTitle(tr("Inputs and outputs"));
  opsBox_->setTitle(tr("Operators"));
  notesBox_->setTitle(tr("Loading notes"));
  legendBox_->setTitle(tr("Colours"));
  while (legend_->rowCount() > 0) legend_->removeRow(0);
  for (int f = 0; f < layout::kOpFamilyCount; ++f) {
    auto fam = static_cast<layout::OpFamily>(f);
    auto* chip = new QLabel(legendBox_);
    chip->setFixedSize(28, 14);
    chip->setStyleSheet(
        QStringLiteral("background:%1;border:1px solid #555;").arg(familyQColor(fam).name()));
    legend_->addRow(chip, new QLabel(familyDisplayName(fam), legendBox_));
  }
  if (last_ && doc_->hasModel())
    show(*last_);
  else
    refresh();
}

void SummaryPanel::refresh() {
  if (!doc_->hasModel()) {
    ++generation_;
    last_.reset();
    facts_->setText(tr("No model is open."));
    io_->setRows({}, {});
    ops_->setOps({});
    notesBox_->hide();
    return;
  }
  if (last_) show(*last_);  // until the new numbers arrive
  // The summary runs shape inference and the cost model: on a copy (weights
  // shared), on a worker thread, so the document is not touched and the
  // window does not wait.
  auto copy = std::make_shared<ir::Model>(doc_->model().clone());
  const int generation = ++generation_;
  auto* watcher = new QFutureWatcher<std::shared_ptr<const analysis::ModelSummary>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
    --computing_;
    auto result = watcher->result();
    watcher->deleteLater();
    if (generation != generation_) return;
    last_ = result;
    show(*last_);
    emit summaryReady();
  });
  ++computing_;
  watcher->setFuture(QtConcurrent::run([copy] {
    return std::shared_ptr<const analysis::ModelSummary>(
        std::make_shared<analysis::ModelSummary>(analysis::summarize(*copy)));
  }));
  if (!last_) facts_->setText(tr("Computing…"));
}

void SummaryPanel::show(const analysis::ModelSummary& s) {
  QStringList opsets;
  for (const ir::OpsetImport& o : s.opsets)
    opsets << QStringLiteral("%1 %2")
                  .arg(o.domain.empty() ? QStringLiteral("ai.onnx")
                                        : QString::fromStdString(o.domain))
                  .arg(o.version);
  auto thousands = [](uint64_t n) {
    return QString::fromStdString(str::withThousands(static_cast<int64_t>(n)));
  };
  QStringList lines;
  lines << tr("File: %1").arg(doc_->filePath().isEmpty() ? doc_->displayName() : doc_->filePath());
  if (!s.producer.empty()) lines << tr("Producer: %1").arg(QString::fromStdString(s.producer));
  lines << tr("IR version: %1").arg(s.irVersion);
  lines << tr("Opsets: %1").arg(opsets.isEmpty() ? tr("none") : opsets.join(QStringLiteral(", ")));
  lines << tr("Nodes: %1 in the main graph, %2 more in %3 bodies")
               .arg(thousands(s.nodes), thousands(s.nodesInSubgraphs))
               .arg(s.subgraphs);
  lines << tr("Parameters: %1 in %2 tensors (%3)")
               .arg(thousands(s.parameters))
               .arg(s.initializers)
               .arg(QString::fromStdString(str::humanBytes(s.parameterBytes)));
  if (s.mappedBytes > 0)
    lines << tr("Mapped from external data: %1")
                 .arg(QString::fromStdString(str::humanBytes(s.mappedBytes)));
  if (s.flops > 0)
    lines << tr("Compute: %1 GFLOP per run").arg(s.flops / 1e9, 0, 'g', 4) +
                 (s.nodesWithUnknownCost > 0 ? tr(" (%n node(s) without a cost estimate)", nullptr,
                                                  static_cast<int>(s.nodesWithUnknownCost))
                                             : QString());
  lines << tr("Types known for %1 of %2 values, shapes for %3")
               .arg(s.shapes.typed)
               .arg(s.shapes.values)
               .arg(s.shapes.shaped);
  if (!s.unknownOps.empty())
    lines << tr("Operators PassLab does not know: %1").arg(s.unknownOps.size());
  if (!s.verifierErrors.empty()) lines << tr("Verifier errors: %1").arg(s.verifierErrors.size());
  facts_->setText(lines.join(QLatin1Char('\n')));
  io_->setRows(s.inputs, s.outputs);
  std::set<std::pair<std::string, std::string>> unknown;
  for (const analysis::UnknownOp& u : s.unknownOps) unknown.emplace(u.domain, u.op);
  ops_->setOps(s.ops, std::move(unknown));
  QStringList notes = doc_->loadNotes();
  for (const analysis::UnknownOp& u : s.unknownOps)
    notes << tr("Unknown operator %1 (%2×): %3")
                 .arg(QString::fromStdString(u.domain.empty() ? u.op : u.domain + "." + u.op))
                 .arg(u.count)
                 .arg(QString::fromStdString(u.reason));
  for (const std::string& e : s.verifierErrors)
    notes << tr("Verifier: %1").arg(QString::fromStdString(e));
  notesBox_->setVisible(!notes.isEmpty());
  notes_->setText(notes.join(QLatin1Char('\n')));
}

}  // namespace passlab::ui
