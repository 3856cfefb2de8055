// The accuracy budget of lossy passes (core/pipeline/accuracy.h,
// docs/precision.md), every figure the command line's --budget-* options set:
// least SNR (dB) and cosine similarity per output; the largest relative
// error, limited only while its check box is on (off: reported, not limited,
// as without --budget-max-rel); the least top-1 agreement of classifier
// outputs in percent (0, shown as "not limited": reported, not limited, as
// without --budget-top1). It edits the pipeline session's budget, one figure
// per edit, and shows the session's whenever it changes elsewhere (the other
// panel, a loaded recipe). The Pipeline and Precision panels both hold one.
// The least top-k agreement in percent (0: not limited, as without
// --budget-topk) and its k (--budget-k; also the k of the top-k reported).
#pragma once

#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;

namespace passlab::ui {

class PipelineSession;

class BudgetEditor : public QWidget {
  Q_OBJECT

 public:
  explicit BudgetEditor(PipelineSession* session, QWidget* parent = nullptr);

  // For tests and for the panels' tool tips.
  QDoubleSpinBox* snrBox() const { return snr_; }
  QDoubleSpinBox* cosineBox() const { return cosine_; }
  QCheckBox* maxRelLimited() const { return maxRelOn_; }
  QDoubleSpinBox* maxRelBox() const { return maxRel_; }  // percent
  QDoubleSpinBox* top1Box() const { return top1_; }      // percent; 0: not limited
  QDoubleSpinBox* topKBox() const { return topK_; }      // percent; 0: not limited
  QSpinBox* kBox() const { return k_; }
  // The same tip on every field (a panel's explanation of the budget).
  void setFieldToolTips(const QString& tip);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();
  // The session's budget into the fields (no edits sent back).
  void showBudget();

  PipelineSession* session_;
  QDoubleSpinBox* snr_;
  QDoubleSpinBox* cosine_;
  QCheckBox* maxRelOn_;
  QDoubleSpinBox* maxRel_;
  QDoubleSpinBox* top1_;
  QDoubleSpinBox* topK_;
  QSpinBox* k_;
  QString tip_;
};

}  // namespace passlab::ui
