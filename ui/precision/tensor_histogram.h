// The Precision panel's histogram of one activation after calibration
// (QPainter): its values over [min, max] as bars, the range the chosen
// method quantizes to as a band with its ends marked, the bars outside it
// (clipped: they saturate) in red; caption() says the range and the clipped
// share in words (the panel shows it above).
#pragma once

#include <QString>
#include <QWidget>

#include <optional>

#include "ui/precision/tensor_calibration.h"

namespace passlab::ui {

class TensorHistogram : public QWidget {
  Q_OBJECT

 public:
  explicit TensorHistogram(QWidget* parent = nullptr);

  // The tensor `name`'s statistics and the method whose range is drawn;
  // nullopt: nothing drawn.
  void setTensor(const QString& name, std::optional<TensorCalibration> stats,
                 passes::CalibrationMethod method);
  const QString& tensor() const { return name_; }
  bool hasData() const { return stats_.has_value(); }
  const std::optional<TensorCalibration>& stats() const { return stats_; }
  // "x: range [lo, hi], 0.12% clipped (Entropy)"; "" without data.
  QString caption() const;
  // Bars drawn in red: wholly outside the range.
  int clippedBars() const;

  QSize sizeHint() const override { return {360, 170}; }
  QSize minimumSizeHint() const override { return {200, 120}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QRectF plotRect() const;
  double xOf(double value) const;
  bool barClipped(size_t bin) const;

  QString name_;
  std::optional<TensorCalibration> stats_;
  passes::CalibrationMethod method_ = passes::CalibrationMethod::kMinMax;
};

}  // namespace passlab::ui
