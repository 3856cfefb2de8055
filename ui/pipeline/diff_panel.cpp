#include "ui/pipeline/diff_panel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <limits>

#include "ui/graphview/graph_items.h"
#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_scene.h"
#include "ui/graphview/graph_view.h"
#include "ui/i18n/core_text.h"
#include "ui/pipeline/pass_help.h"

namespace passlab::ui {

namespace {

QString swatch(DiffMark m) {
  return QStringLiteral("<span style=\"color:%1\">&#9632;</span>").arg(diffColor(m).name());
}

}  // namespace

DiffPanel::DiffPanel(const ViewSettings& settings, QWidget* parent) : QWidget(parent) {
  overlayDoc_ = new Document(this);
  beforeDoc_ = new Document(this);
  afterDoc_ = new Document(this);
  overlay_ = new GraphPanel(overlayDoc_, GraphRef(), settings, this);
  before_ = new GraphPanel(beforeDoc_, GraphRef(), settings, this);
  after_ = new GraphPanel(afterDoc_, GraphRef(), settings, this);

  summary_ = new QLabel(this);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // A long summary is cut, never widening the window's centre.
  summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  legend_ = new QLabel(this);
  overlayButton_ = new QToolButton(this);
  sideButton_ = new QToolButton(this);
  revealButton_ = new QToolButton(this);
  aboutButton_ = new QToolButton(this);
  connect(aboutButton_, &QToolButton::clicked, this, [this] {
    if (step_) showPassHelp(this, QString::fromStdString(step_->step.passId));
  });
  for (QToolButton* b : {overlayButton_, sideButton_}) {
    b->setCheckable(true);
    b->setAutoExclusive(true);
  }
  overlayButton_->setChecked(true);
  auto* header = new QHBoxLayout;
  header->setContentsMargins(6, 0, 6, 4);
  header->addWidget(legend_);
  header->addStretch(1);
  header->addSpacing(12);
  header->addWidget(overlayButton_);
  header->addWidget(sideButton_);
  header->addWidget(revealButton_);
  header->addWidget(aboutButton_);

  auto* split = new QSplitter(Qt::Horizontal, this);
  auto side = [split](QLabel*& title, GraphPanel* panel) {
    auto* box = new QWidget(split);
    auto* col = new QVBoxLayout(box);
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(2);
    title = new QLabel(box);
    title->setAlignment(Qt::AlignCenter);
    col->addWidget(title);
    col->addWidget(panel, 1);
    split->addWidget(box);
  };
  side(beforeTitle_, before_);
  side(afterTitle_, after_);
  stack_ = new QStackedWidget(this);
  stack_->addWidget(overlay_);
  stack_->addWidget(split);

  auto* col = new QVBoxLayout(this);
  col->setContentsMargins(0, 0, 0, 0);
  col->setSpacing(0);
  summary_->setContentsMargins(6, 4, 6, 0);
  col->addWidget(summary_);
  col->addLayout(header);
  col->addWidget(stack_, 1);

  connect(sideButton_, &QToolButton::toggled, this, [this](bool on) { setSideBySide(on); });
  connect(revealButton_, &QToolButton::clicked, this, &DiffPanel::revealChanges);
  connect(before_->view(), &GraphView::viewChanged, this, [this] { sync(before_, after_); });
  connect(after_->view(), &GraphView::viewChanged, this, [this] { sync(after_, before_); });
  retranslateUi();
}

DiffPanel::~DiffPanel() {
  // The two graph panels are children, destroyed by ~QWidget after this
  // panel's members: their views' last viewChanged must not reach the
  // half-destroyed panel (found by UBSan's vptr check).
  before_->view()->disconnect(this);
  after_->view()->disconnect(this);
}

QString DiffPanel::title() const {
  if (!step_) return tr("Step");
  return tr("Step %1: %2").arg(number_).arg(QString::fromStdString(step_->step.passId));
}

void DiffPanel::retranslateUi() {
  overlayButton_->setText(tr("Overlay"));
  overlayButton_->setToolTip(tr("The graph after the Step, with the removed nodes drawn in"));
  sideButton_->setText(tr("Side by Side"));
  sideButton_->setToolTip(tr("Before and after the Step, scrolled and zoomed together"));
  revealButton_->setText(tr("Show Changes"));
  revealButton_->setToolTip(tr("Open the groups holding the changes and fit them into view"));
  legend_->setText(
      tr("%1 added  %2 removed  %3 rewired or rewritten")
          .arg(swatch(DiffMark::kAdded), swatch(DiffMark::kRemoved), swatch(DiffMark::kChanged)));
  aboutButton_->setText(tr("About the Pass"));
  aboutButton_->setToolTip(tr("What this Step's pass does, when it applies, and its lesson"));
  aboutButton_->setEnabled(step_ != nullptr);
  beforeTitle_->setText(tr("Before"));
  afterTitle_->setText(tr("After"));
  if (!step_) {
    summary_->setText(tr("Choose a Step in the Timeline to see what it changed."));
    return;
  }
  const pipeline::Step& s = step_->step;
  QString what = s.rolledBack ? tr("rolled back: %1").arg(trCore(s.error))
                 : s.skipped  ? trCore(s.note)
                 : !s.changed ? tr("no change")
                              : tr("%1 removed, %2 added, %3 rewired, %4 rewritten")
                                    .arg(diff_.removed)
                                    .arg(diff_.added)
                                    .arg(diff_.rewired)
                                    .arg(diff_.attributesChanged);
  summary_->setText(
      QStringLiteral("<b>%1</b> — %2 (%3)")
          .arg(title().toHtmlEscaped(), what.toHtmlEscaped(),
               tr("%1 → %2 nodes").arg(s.before.nodes).arg(s.after.nodes).toHtmlEscaped()));
  emit titleChanged(title());
}

void DiffPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

void DiffPanel::showStep(AppliedStepPtr step, int number) {
  step_ = std::move(step);
  number_ = number;
  sideFilled_ = false;
  if (!step_) {
    diff_ = StepDiff();
    overlayDoc_->close();
    beforeDoc_->close();
    afterDoc_->close();
    retranslateUi();
    return;
  }
  diff_ = buildStepDiff(*step_);
  // Never saved: no verifier baseline needed.
  overlayDoc_->open(std::move(diff_.model), {}, title(), {}, std::set<std::string>());
  overlay_->setDiffMarks(diff_.marks);
  overlay_->revealNodes(diff_.changedNodes);
  if (sideBySide()) fillSideBySide();
  retranslateUi();
}

void DiffPanel::fillSideBySide() {
  if (sideFilled_ || !step_) return;
  sideFilled_ = true;
  const rewrite::EditSummary& sum = step_->step.summary;
  std::unordered_map<ir::NodeId, DiffMark> b, a;
  std::vector<ir::NodeId> bNodes, aNodes;
  for (ir::NodeId id : sum.removed) b[id] = DiffMark::kRemoved;
  for (ir::NodeId id : sum.added) a[id] = DiffMark::kAdded;
  for (const auto* list : {&sum.rewired, &sum.attributeChanged})
    for (ir::NodeId id : *list) {
      if (!a.count(id)) a[id] = DiffMark::kChanged;
      if (!b.count(id)) b[id] = DiffMark::kChanged;
    }
  // Never saved: no verifier baseline needed (open() would walk each model).
  beforeDoc_->open(std::make_unique<ir::Model>(step_->before->clone()), {}, tr("Before"), {},
                   std::set<std::string>());
  afterDoc_->open(std::make_unique<ir::Model>(step_->after->clone()), {}, tr("After"), {},
                  std::set<std::string>());
  for (const auto& n : beforeDoc_->model().graph().nodes())
    if (b.count(n->id())) bNodes.push_back(n->id());
  for (const auto& n : afterDoc_->model().graph().nodes())
    if (a.count(n->id())) aNodes.push_back(n->id());
  before_->setDiffMarks(std::move(b));
  after_->setDiffMarks(std::move(a));
  before_->revealNodes(bNodes);
  after_->revealNodes(aNodes);
}

void DiffPanel::setSideBySide(bool on) {
  if (on != sideButton_->isChecked()) (on ? sideButton_ : overlayButton_)->setChecked(true);
  stack_->setCurrentIndex(on ? 1 : 0);
  if (on) fillSideBySide();
}

bool DiffPanel::sideBySide() const {
  return stack_->currentIndex() == 1;
}

GraphPanel* DiffPanel::activePanel() const {
  if (!sideBySide()) return overlay_;
  return after_->view()->hasFocus() || !before_->view()->hasFocus() ? after_ : before_;
}

bool DiffPanel::isLayoutRunning() const {
  return overlay_->isLayoutRunning() || before_->isLayoutRunning() || after_->isLayoutRunning();
}

void DiffPanel::setViewSettings(const ViewSettings& settings) {
  for (GraphPanel* p : {overlay_, before_, after_}) p->setViewSettings(settings);
}

void DiffPanel::setMinimapVisible(bool visible) {
  for (GraphPanel* p : {overlay_, before_, after_}) p->setMinimapVisible(visible);
}

void DiffPanel::revealChanges() {
  if (!step_) return;
  if (!sideBySide()) {
    overlay_->revealNodes(diff_.changedNodes);
    return;
  }
  sideFilled_ = false;
  fillSideBySide();
}

void DiffPanel::sync(GraphPanel* from, GraphPanel* to) {
  if (syncing_ || !sideBySide() || !from->scene()->hasLayout() || !to->scene()->hasLayout()) return;
  syncing_ = true;
  GraphView* a = from->view();
  GraphView* b = to->view();
  const QPointF centre = a->mapToScene(a->viewport()->rect().center());
  // The node both graphs draw that is nearest the centre anchors the other view.
  NodeItem *best = nullptr, *twin = nullptr;
  qreal bestDistance = std::numeric_limits<qreal>::max();
  for (NodeItem* n : from->scene()->nodeItems()) {
    if (n->kind() != layout::ItemKind::kOp) continue;
    QPointF d = n->rect().center() - centre;
    qreal distance = d.x() * d.x() + d.y() * d.y();
    if (distance >= bestDistance) continue;
    NodeItem* m = to->scene()->itemForNode(n->nodeId());
    if (m == nullptr || m->nodeId() != n->nodeId()) continue;
    best = n;
    twin = m;
    bestDistance = distance;
  }
  if (best) {
    if (std::abs(b->zoom() - a->zoom()) > 1e-6) b->setZoom(a->zoom());
    b->centerOn(twin->rect().center() + (centre - best->rect().center()));
  }
  syncing_ = false;
}

}  // namespace passlab::ui
