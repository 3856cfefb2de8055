// Bars of a tensor histogram with its range under them.
#pragma once

#include <QWidget>

#include <vector>

namespace passlab::ui {

class HistogramWidget : public QWidget {
  Q_OBJECT

 public:
  explicit HistogramWidget(QWidget* parent = nullptr);
  void setData(std::vector<int64_t> bins, double low, double high);
  void clear();
  const std::vector<int64_t>& bins() const { return bins_; }
  QSize sizeHint() const override { return {260, 110}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<int64_t> bins_;
  double low_ = 0, high_ = 0;
};

}  // namespace passlab::ui
