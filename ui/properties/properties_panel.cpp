#include "ui/properties/properties_panel.h"

#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <map>

#include "core/ir/graph.h"
#include "core/ir/op_schema.h"
#include "core/support/strings.h"
#include "ui/document/commands.h"
#include "ui/document/graph_ref.h"
#include "ui/i18n/core_text.h"
#include "ui/properties/attribute_model.h"
#include "ui/properties/histogram_widget.h"
#include "ui/properties/port_model.h"

namespace passlab::ui {

namespace {

// Tensors up to this many elements get their statistics at once; bigger ones
// on a worker thread.
constexpr int64_t kSyncStatsElements = 1 << 20;

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
  auto* v = new QTableView(parent);
  v->setModel(model);
  v->verticalHeader()->hide();
  v->horizontalHeader()->setStretchLastSection(true);
  v->setSelectionBehavior(QAbstractItemView::SelectRows);
  v->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  v->setWordWrap(false);
  v->setMinimumHeight(60);
  v->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  v->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  return v;
}

QLabel* wrapLabel(QWidget* parent) {
  auto* l = new QLabel(parent);
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return l;
}

QString num(double v) {
  return QString::number(v, 'g', 6);
}

}  // namespace

PropertiesPanel::PropertiesPanel(Document* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  outer->addWidget(scroll);
  auto* body = new QWidget(scroll);
  scroll->setWidget(body);
  auto* col = new QVBoxLayout(body);

  title_ = new QLabel(body);
  QFont big = title_->font();
  big.setPointSizeF(big.pointSizeF() * 1.3);
  big.setBold(true);
  title_->setFont(big);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  subtitle_ = wrapLabel(body);
  empty_ = wrapLabel(body);
  col->addWidget(title_);
  col->addWidget(subtitle_);
  col->addWidget(empty_);

  // Node.
  nodeBox_ = section(col);
  auto* form = new QFormLayout(nodeBox_);
  nodeName_ = new QLineEdit(nodeBox_);
  nodeOp_ = wrapLabel(nodeBox_);
  nodeId_ = wrapLabel(nodeBox_);
  nodeSchema_ = wrapLabel(nodeBox_);
  nodeDoc_ = wrapLabel(nodeBox_);
  nameLabel_ = new QLabel(nodeBox_);
  opLabel_ = new QLabel(nodeBox_);
  idLabel_ = new QLabel(nodeBox_);
  schemaLabel_ = new QLabel(nodeBox_);
  docLabel_ = new QLabel(nodeBox_);
  form->addRow(nameLabel_, nodeName_);
  form->addRow(opLabel_, nodeOp_);
  form->addRow(idLabel_, nodeId_);
  form->addRow(schemaLabel_, nodeSchema_);
  form->addRow(docLabel_, nodeDoc_);
  connect(nodeName_, &QLineEdit::editingFinished, this, [this] {
    if (selection_.kind != Selection::Kind::kNode || !doc_->hasModel()) return;
    ir::Node* n = findNode(doc_->model(), selection_.node);
    std::string name = nodeName_->text().toStdString();
    if (n && n->name() != name)
      doc_->undoStack()->push(new RenameNodeCommand(doc_, selection_.node, name));
  });

  attributes_ = new AttributeModel(doc_, this);
  attrBox_ = section(col);
  attrView_ = makeTable(attributes_, attrBox_);
  (new QVBoxLayout(attrBox_))->addWidget(attrView_);

  inputs_ = new PortModel(doc_, PortModel::Side::kInputs, this);
  outputs_ = new PortModel(doc_, PortModel::Side::kOutputs, this);
  inBox_ = section(col);
  inView_ = makeTable(inputs_, inBox_);
  (new QVBoxLayout(inBox_))->addWidget(inView_);
  outBox_ = section(col);
  outView_ = makeTable(outputs_, outBox_);
  (new QVBoxLayout(outBox_))->addWidget(outView_);
  for (auto [view, model] : {std::pair{inView_, inputs_}, std::pair{outView_, outputs_}})
    connect(view, &QTableView::doubleClicked, this, [this, model = model](const QModelIndex& i) {
      QString v = model->valueAt(i.row());
      if (!v.isEmpty()) emit valueActivated(v);
    });

  bodyBox_ = section(col);
  bodyList_ = new QVBoxLayout(bodyBox_);

  valueBox_ = section(col);
  valueInfo_ = wrapLabel(valueBox_);
  (new QVBoxLayout(valueBox_))->addWidget(valueInfo_);

  tensorBox_ = section(col);
  auto* tcol = new QVBoxLayout(tensorBox_);
  tensorInfo_ = wrapLabel(tensorBox_);
  statsInfo_ = wrapLabel(tensorBox_);
  histogram_ = new HistogramWidget(tensorBox_);
  tcol->addWidget(tensorInfo_);
  tcol->addWidget(statsInfo_);
  tcol->addWidget(histogram_);

  groupBox_ = section(col);
  groupInfo_ = wrapLabel(groupBox_);
  (new QVBoxLayout(groupBox_))->addWidget(groupInfo_);

  provenanceBox_ = section(col);
  provenanceInfo_ = wrapLabel(provenanceBox_);
  (new QVBoxLayout(provenanceBox_))->addWidget(provenanceInfo_);
  timingBox_ = section(col);
  timingInfo_ = wrapLabel(timingBox_);
  (new QVBoxLayout(timingBox_))->addWidget(timingInfo_);
  matchBox_ = section(col);
  matchInfo_ = wrapLabel(matchBox_);
  (new QVBoxLayout(matchBox_))->addWidget(matchInfo_);
  col->addStretch(1);

  statsWatcher_ = new QFutureWatcher<TensorStats>(this);
  connect(statsWatcher_, &QFutureWatcherBase::finished, this, [this] {
    statsRunning_ = false;
    TensorStats s = statsWatcher_->result();
    if (!s.cancelled) setStats(s);
    emit statisticsReady();
  });
  connect(doc_, &Document::changed, this, [this](const DocumentChange& c) {
    if (c.has(DocumentChange::kModel) || c.has(DocumentChange::kStructure) ||
        c.has(DocumentChange::kNodes) || c.has(DocumentChange::kInsights))
      refresh();
  });
  retranslateUi();
}

PropertiesPanel::~PropertiesPanel() {
  cancelStats();
  statsWatcher_->waitForFinished();
}

QGroupBox* PropertiesPanel::section(QVBoxLayout* into) {
  auto* box = new QGroupBox(this);
  into->addWidget(box);
  return box;
}

void PropertiesPanel::retranslateUi() {
  nodeBox_->setTitle(tr("Node"));
  nameLabel_->setText(tr("Name"));
  opLabel_->setText(tr("Operator"));
  idLabel_->setText(tr("Id"));
  schemaLabel_->setText(tr("Schema"));
  docLabel_->setText(tr("Documentation"));
  attrBox_->setTitle(tr("Attributes"));
  inBox_->setTitle(tr("Inputs"));
  outBox_->setTitle(tr("Outputs"));
  bodyBox_->setTitle(tr("Bodies"));
  valueBox_->setTitle(tr("Value"));
  tensorBox_->setTitle(tr("Initializer data"));
  groupBox_->setTitle(tr("Group"));
  provenanceBox_->setTitle(tr("Provenance"));
  timingBox_->setTitle(tr("Timing"));
  matchBox_->setTitle(tr("Why patterns did not match"));
  nodeName_->setToolTip(tr("Press Enter to rename; renaming can be undone."));
  refresh();
}

void PropertiesPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

void PropertiesPanel::setSelection(const Selection& s, const layout::GroupTree* groups) {
  selection_ = s;
  group_.reset();
  groupMembers_.clear();
  if (s.kind == Selection::Kind::kGroup && groups != nullptr) {
    int g = groups->find(s.group);
    if (g >= 0) {
      group_ = groups->group(g);
      std::vector<int> stack = {g};
      while (!stack.empty()) {
        const layout::Group& cur = groups->group(stack.back());
        stack.pop_back();
        groupMembers_.insert(groupMembers_.end(), cur.nodes.begin(), cur.nodes.end());
        stack.insert(stack.end(), cur.children.begin(), cur.children.end());
      }
    }
  }
  refresh();
}

QString PropertiesPanel::title() const {
  return title_->text();
}
QString PropertiesPanel::documentationText() const {
  return nodeDoc_->text();
}
QString PropertiesPanel::provenanceText() const {
  return provenanceInfo_->text();
}
QString PropertiesPanel::timingText() const {
  return timingBox_->isHidden() ? QString() : timingInfo_->text();
}

void PropertiesPanel::setTimingSource(std::function<QString(ir::NodeId)> source) {
  timingSource_ = std::move(source);
  refresh();
}

QString PropertiesPanel::matchFailureText() const {
  return matchInfo_->text();
}
QString PropertiesPanel::statisticsText() const {
  return statsInfo_->text();
}

QString PropertiesPanel::valueInfoText() const {
  return valueInfo_->text();
}

void PropertiesPanel::refresh() {
  cancelStats();
  for (QGroupBox* b : {nodeBox_, attrBox_, inBox_, outBox_, bodyBox_, valueBox_, tensorBox_,
                       groupBox_, provenanceBox_, timingBox_, matchBox_})
    b->hide();
  subtitle_->clear();
  empty_->hide();
  attributes_->setNode(0);
  inputs_->setNode(0);
  outputs_->setNode(0);
  ir::Graph* g = doc_->hasModel() ? selection_.graph.resolve(doc_->model()) : nullptr;
  if (g == nullptr || selection_.kind == Selection::Kind::kNone) {
    title_->setText(tr("Nothing selected"));
    empty_->setText(tr("Click a node, an arrow or a group in the graph to see its properties."));
    empty_->show();
    return;
  }
  switch (selection_.kind) {
    case Selection::Kind::kNode:
      if (ir::Node* n = findNode(doc_->model(), selection_.node)) {
        showNode(*n);
        return;
      }
      break;
    case Selection::Kind::kValue:
      if (ir::Value* v = g->lookup(selection_.value)) {
        showValue(*v);
        return;
      }
      break;
    case Selection::Kind::kGroup:
      showGroup();
      return;
    case Selection::Kind::kNone:
      break;
  }
  title_->setText(tr("Gone"));
  empty_->setText(tr("The selected item no longer exists in this model."));
  empty_->show();
}

void PropertiesPanel::showNode(const ir::Node& n) {
  title_->setText(QString::fromStdString(n.opType()));
  subtitle_->setText(n.name().empty() ? tr("(unnamed node)") : QString::fromStdString(n.name()));
  nodeBox_->show();
  {
    QSignalBlocker block(nodeName_);
    nodeName_->setText(QString::fromStdString(n.name()));
  }
  nodeOp_->setText(n.domain().empty() ? QString::fromStdString(n.opType())
                                      : QString::fromStdString(n.qualifiedOpType()));
  nodeId_->setText(QStringLiteral("#%1").arg(n.id()));
  const auto& reg = ir::OpRegistry::instance();
  std::optional<int64_t> opset = doc_->model().opsetVersion(n.domain());
  const ir::OpSchema* schema =
      reg.find(n.domain(), n.opType(), opset.value_or(reg.maxOpset(n.domain())));
  if (schema != nullptr) {
    QString domain =
        schema->domain.empty() ? QStringLiteral("ai.onnx") : QString::fromStdString(schema->domain);
    nodeSchema_->setText(tr("%1 %2, version %3 (model imports opset %4)")
                             .arg(domain, QString::fromStdString(schema->name))
                             .arg(schema->sinceVersion)
                             .arg(opset ? QString::number(*opset) : tr("none")));
    nodeDoc_->setText(QString::fromStdString(schema->summary));
  } else if (const ir::OpSchema* any = reg.latest(n.domain(), n.opType())) {
    nodeSchema_->setText(tr("Not defined at the imported opset; the newest known version is %1")
                             .arg(any->sinceVersion));
    nodeDoc_->setText(QString::fromStdString(any->summary));
  } else {
    nodeSchema_->setText(tr("Unknown operator"));
    nodeDoc_->setText(tr("PassLab's operator table has no entry for %1.")
                          .arg(QString::fromStdString(n.qualifiedOpType())));
  }

  attrBox_->show();
  attributes_->setNode(n.id());
  attrBox_->setVisible(attributes_->rowCount() > 0);
  inBox_->show();
  outBox_->show();
  inputs_->setNode(n.id());
  outputs_->setNode(n.id());
  inView_->resizeColumnsToContents();
  outView_->resizeColumnsToContents();
  attrView_->resizeColumnsToContents();

  // Bodies.
  while (QLayoutItem* item = bodyList_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  std::vector<GraphRef> bodies = subgraphsOf(n);
  if (!bodies.empty()) {
    bodyBox_->show();
    for (const GraphRef& ref : bodies) {
      ir::Graph* body = ref.resolve(doc_->model());
      auto* b = new QPushButton(
          tr("Open %1 (%2 nodes)")
              .arg(QString::fromStdString(ref.attribute) +
                   (ref.index > 0 ? QStringLiteral("[%1]").arg(ref.index) : QString()))
              .arg(body ? body->nodeCountRecursive() : 0),
          bodyBox_);
      connect(b, &QPushButton::clicked, this, [this, ref] { emit openBodyRequested(ref); });
      bodyList_->addWidget(b);
    }
  }
  showInsights(n.id());
}

void PropertiesPanel::showInsights(ir::NodeId id) {
  if (QString timing = timingSource_ ? timingSource_(id) : QString(); !timing.isEmpty()) {
    timingInfo_->setText(timing);
    timingBox_->show();
  }
  provenanceBox_->show();
  matchBox_->show();
  const NodeInsights* insights = doc_->insights();
  if (insights == nullptr) {
    provenanceInfo_->setText(
        tr("No data yet. Provenance is recorded when optimization passes run; no pass has run "
           "on this model."));
    matchInfo_->setText(
        tr("No data yet. Patterns report why they did not match when passes run; no pass has "
           "run on this model."));
    return;
  }
  if (auto p = insights->provenance(id)) {
    QStringList origins;
    for (size_t i = 0; i < p->origins.size(); ++i)
      origins << (i < p->originLabels.size() ? QString::fromStdString(p->originLabels[i])
                                             : QStringLiteral("#%1").arg(p->origins[i]));
    provenanceInfo_->setText(tr("Made by %1 (step %2) from: %3")
                                 .arg(QString::fromStdString(p->passId))
                                 .arg(p->step)
                                 .arg(origins.join(QStringLiteral(", "))));
  } else {
    provenanceInfo_->setText(tr("Original node: no pass created or rewrote it."));
  }
  auto failures = insights->matchFailures(id);
  if (failures.empty()) {
    matchInfo_->setText(tr("No pattern reported a failed match on this node."));
  } else {
    QStringList lines;
    for (const MatchFailure& f : failures)
      lines << tr("%1 / %2: %3")
                   .arg(QString::fromStdString(f.passId), QString::fromStdString(f.pattern),
                        trCore(f.reason));
    matchInfo_->setText(lines.join(QLatin1Char('\n')));
  }
}

void PropertiesPanel::showValue(const ir::Value& v) {
  title_->setText(QString::fromStdString(v.name()));
  subtitle_->setText(typeText(v));
  valueBox_->show();
  QStringList info;
  info << tr("Type: %1").arg(typeText(v));
  if (v.isGraphInput()) info << tr("Graph input");
  if (v.isGraphOutput()) info << tr("Graph output");
  if (v.isInitializer()) info << tr("Initializer (constant data stored in the model)");
  if (const ir::Node* p = v.producer())
    info << tr("Produced by %1").arg(QString::fromStdString(p->describe()));
  // Readers in the order their nodes were made (file order for a loaded
  // model): a use list has no order of its own (a removed use is replaced by
  // the last one), and the panel shows only the first few.
  std::vector<ir::Use> uses = v.uses();
  std::sort(uses.begin(), uses.end(), [](const ir::Use& a, const ir::Use& b) {
    return a.node->id() != b.node->id() ? a.node->id() < b.node->id() : a.inputIndex < b.inputIndex;
  });
  QStringList readers;
  for (const ir::Use& u : uses)
    readers
        << tr("%1 (input %2)").arg(QString::fromStdString(u.node->describe())).arg(u.inputIndex);
  info << tr("Read by %n node(s)", nullptr, static_cast<int>(v.uses().size())) +
              (readers.isEmpty()
                   ? QString()
                   : QStringLiteral(": ") + readers.mid(0, 8).join(QStringLiteral(", ")) +
                         (readers.size() > 8 ? QStringLiteral(", …") : QString()));
  if (!v.docString().empty()) info << QString::fromStdString(v.docString());
  valueInfo_->setText(info.join(QLatin1Char('\n')));
  if (const ir::Tensor* t = v.initializer()) showTensor(*t);
}

void PropertiesPanel::showTensor(const ir::Tensor& t) {
  tensorBox_->show();
  QStringList info;
  info << tr("Element type: %1").arg(QString::fromStdString(std::string(ir::dtypeName(t.dtype()))));
  info << tr("Shape: %1").arg(QString::fromStdString(t.shape().toString()));
  info << tr("Elements: %1").arg(QString::fromStdString(str::withThousands(t.numel())));
  info << tr("Size: %1").arg(QString::fromStdString(str::humanBytes(t.expectedBytes())));
  if (t.buffer()) info << tr("Stored in: %1").arg(QString::fromStdString(t.buffer()->origin()));
  tensorInfo_->setText(info.join(QLatin1Char('\n')));
  histogram_->clear();
  if (t.numel() <= kSyncStatsElements) {
    setStats(computeTensorStats(t));
    return;
  }
  statsInfo_->setText(tr("Computing statistics of %1 elements…")
                          .arg(QString::fromStdString(str::withThousands(t.numel()))));
  statsStop_ = std::make_shared<std::stop_source>();
  statsRunning_ = true;
  // The tensor shares its immutable buffer: safe to read on a worker.
  statsWatcher_->setFuture(QtConcurrent::run(
      [t, stop = statsStop_] { return computeTensorStats(t, 32, stop->get_token()); }));
}

void PropertiesPanel::setStats(const TensorStats& s) {
  if (!s.numeric) {
    statsInfo_->setText(tr("No numeric statistics for this element type."));
    histogram_->clear();
    return;
  }
  if (s.count == 0) {
    statsInfo_->setText(tr("Empty tensor."));
    histogram_->clear();
    return;
  }
  QStringList lines;
  lines << tr("min %1   max %2").arg(num(s.min), num(s.max));
  lines << tr("mean %1   std %2").arg(num(s.mean), num(s.stddev));
  lines << tr("zeros %1 (%2%)")
               .arg(QString::fromStdString(str::withThousands(s.zeros)))
               .arg(100.0 * static_cast<double>(s.zeros) / static_cast<double>(s.count), 0, 'f', 1);
  if (s.nans > 0 || s.infs > 0) lines << tr("NaN %1   Inf %2").arg(s.nans).arg(s.infs);
  statsInfo_->setText(lines.join(QLatin1Char('\n')));
  histogram_->setData(s.histogram, s.min, s.max);
}

void PropertiesPanel::cancelStats() {
  if (statsStop_) statsStop_->request_stop();
  statsStop_.reset();
}

void PropertiesPanel::showGroup() {
  groupBox_->show();
  if (!group_) {
    title_->setText(QString::fromStdString(selection_.group));
    groupInfo_->setText(tr("This group is not part of the current grouping."));
    return;
  }
  title_->setText(QString::fromStdString(group_->label));
  subtitle_->setText(tr("%n node(s)", nullptr, static_cast<int>(group_->totalNodes)));
  std::map<std::string, int> ops;
  for (ir::NodeId id : groupMembers_)
    if (const ir::Node* n = findNode(doc_->model(), id)) ++ops[n->opType()];
  std::vector<std::pair<int, std::string>> sorted;
  for (const auto& [op, count] : ops) sorted.emplace_back(-count, op);
  std::sort(sorted.begin(), sorted.end());
  QStringList lines;
  if (group_->repeatCount > 1)
    lines << tr("Repeated block %1 of %2 with the same sequence of operators.")
                 .arg(group_->repeatIndex)
                 .arg(group_->repeatCount);
  QStringList top;
  for (size_t i = 0; i < sorted.size() && i < 12; ++i)
    top << QStringLiteral("%1 ×%2")
               .arg(QString::fromStdString(sorted[i].second))
               .arg(-sorted[i].first);
  lines << tr("Operators: %1").arg(top.join(QStringLiteral(", ")));
  lines << tr(
      "Double-click the group in the graph to open it; double-click the frame title of "
      "an open group to close it.");
  groupInfo_->setText(lines.join(QLatin1Char('\n')));
}

}  // namespace passlab::ui
