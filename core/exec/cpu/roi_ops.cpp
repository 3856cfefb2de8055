// Region-of-interest operators of detection models: RoiAlign (bilinear
// samples averaged or maxed per bin), MaxRoiPool (Caffe's integer bins) and
// NonMaxSuppression (per batch and class, greedy by score).
//
// NonMaxSuppression takes the candidates best first (higher score, then
// lower index: a total order without NaN scores) from a heap, so only the
// ones looked at before max_output_boxes_per_class are kept are ordered,
// not all of them; each box's corners and area are computed once. The same
// boxes in the same order as a stable sort of all candidates by score, which
// rows with a NaN score still take. 80 classes of 3000 boxes: 15.0 ms, 2x
// onnxruntime, before (session 26).
#include <algorithm>
#include <cmath>
#include <string>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

template <class S>
std::vector<double> doublesOf(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(load(t.data<S>()[i]));
  return v;
}

class RoiAlign final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    auto k = std::unique_ptr<RoiAlign>(new RoiAlign());
    std::string mode = n.attrString("mode", "avg");
    if (mode != "avg" && mode != "max") return invalidModel("unknown mode '" + mode + "'");
    k->max_ = mode == "max";
    std::string c = n.attrString("coordinate_transformation_mode",
                                 b.opset() >= 16 ? "half_pixel" : "output_half_pixel");
    if (c != "half_pixel" && c != "output_half_pixel")
      return invalidModel("unknown coordinate_transformation_mode '" + c + "'");
    k->halfPixel_ = c == "half_pixel";
    k->outH_ = n.attrInt("output_height", 1);
    k->outW_ = n.attrInt("output_width", 1);
    k->sampling_ = n.attrInt("sampling_ratio", 0);
    k->scale_ = n.attrFloat("spatial_scale", 1.0f);
    if (k->outH_ < 1 || k->outW_ < 1 || k->sampling_ < 0)
      return invalidModel("output_height and output_width must be positive, sampling_ratio >= 0");
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& rois = ctx.input(1);
    const Tensor& bi = ctx.input(2);
    if (x.rank() != 4) return invalidArgument("X must be [N, C, H, W], got " + x.describe());
    if (rois.rank() != 2 || rois.dim(1) != 4 || rois.dtype() != x.dtype())
      return invalidArgument("rois must be [num_rois, 4] of X's type, got " + rois.describe());
    if (bi.rank() != 1 || bi.dim(0) != rois.dim(0) || bi.dtype() != ir::DataType::kInt64)
      return invalidArgument("batch_indices must be int64 [" + std::to_string(rois.dim(0)) +
                             "], got " + bi.describe());
    const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3), R = rois.dim(0);
    for (int64_t r = 0; r < R; ++r) {
      int64_t b = bi.data<int64_t>()[r];
      if (b < 0 || b >= N)
        return invalidArgument("batch index " + std::to_string(b) + " is out of range [0, " +
                               std::to_string(N) + ")");
    }
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const std::vector<double> X = doublesOf<S>(x), B = doublesOf<S>(rois);
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), {R, C, outH_, outW_}));
      S* Y = y->mutableData<S>();
      parallelFor(R, ctx.threads(), 1, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r)
          roi(X, B.data() + r * 4, bi.data<int64_t>()[r], C, H, W, Y + r * C * outH_ * outW_);
      });
      return Status::ok();
    });
  }

 private:
  RoiAlign() = default;

  struct Sample {
    int64_t pos[4];
    double w[4];
  };

  template <class S>
  void roi(const std::vector<double>& X, const double* box, int64_t batch, int64_t C, int64_t H,
           int64_t W, S* out) const {
    const double offset = halfPixel_ ? 0.5 : 0.0;
    const double x0 = box[0] * scale_ - offset, y0 = box[1] * scale_ - offset;
    const double x1 = box[2] * scale_ - offset, y1 = box[3] * scale_ - offset;
    double rw = x1 - x0, rh = y1 - y0;
    if (!halfPixel_) {
      rw = std::max(rw, 1.0);
      rh = std::max(rh, 1.0);
    }
    const double binH = rh / static_cast<double>(outH_), binW = rw / static_cast<double>(outW_);
    const int64_t gh = sampling_ > 0
                           ? sampling_
                           : static_cast<int64_t>(std::ceil(rh / static_cast<double>(outH_)));
    const int64_t gw = sampling_ > 0
                           ? sampling_
                           : static_cast<int64_t>(std::ceil(rw / static_cast<double>(outW_)));
    const double count = static_cast<double>(std::max<int64_t>(gh * gw, 1));
    // Bilinear sample positions and weights, shared by every channel.
    std::vector<Sample> samples;
    samples.reserve(static_cast<size_t>(outH_ * outW_ * std::max<int64_t>(gh * gw, 0)));
    for (int64_t ph = 0; ph < outH_; ++ph)
      for (int64_t pw = 0; pw < outW_; ++pw)
        for (int64_t iy = 0; iy < gh; ++iy) {
          const double yy = y0 + static_cast<double>(ph) * binH +
                            (static_cast<double>(iy) + 0.5) * binH / static_cast<double>(gh);
          for (int64_t ix = 0; ix < gw; ++ix) {
            double xx = x0 + static_cast<double>(pw) * binW +
                        (static_cast<double>(ix) + 0.5) * binW / static_cast<double>(gw);
            double yv = yy;
            Sample s{{0, 0, 0, 0}, {0, 0, 0, 0}};
            if (!(yv < -1.0 || yv > static_cast<double>(H) || xx < -1.0 ||
                  xx > static_cast<double>(W))) {
              yv = std::max(yv, 0.0);
              xx = std::max(xx, 0.0);
              auto yl = static_cast<int64_t>(yv), xl = static_cast<int64_t>(xx);
              int64_t yh, xh;
              if (yl >= H - 1) {
                yh = yl = H - 1;
                yv = static_cast<double>(yl);
              } else {
                yh = yl + 1;
              }
              if (xl >= W - 1) {
                xh = xl = W - 1;
                xx = static_cast<double>(xl);
              } else {
                xh = xl + 1;
              }
              const double ly = yv - static_cast<double>(yl), lx = xx - static_cast<double>(xl);
              const double hy = 1 - ly, hx = 1 - lx;
              s = {{yl * W + xl, yl * W + xh, yh * W + xl, yh * W + xh},
                   {hy * hx, hy * lx, ly * hx, ly * lx}};
            }
            samples.push_back(s);
          }
        }
    for (int64_t c = 0; c < C; ++c) {
      const double* img = X.data() + (batch * C + c) * H * W;
      size_t k = 0;
      for (int64_t p = 0; p < outH_ * outW_; ++p) {
        double acc = 0;
        bool first = true;
        for (int64_t g = 0; g < gh * gw; ++g, ++k) {
          const Sample& s = samples[k];
          if (max_) {
            double v = std::max({s.w[0] * img[s.pos[0]], s.w[1] * img[s.pos[1]],
                                 s.w[2] * img[s.pos[2]], s.w[3] * img[s.pos[3]]});
            acc = first ? v : std::max(acc, v);
            first = false;
          } else {
            acc += s.w[0] * img[s.pos[0]] + s.w[1] * img[s.pos[1]] + s.w[2] * img[s.pos[2]] +
                   s.w[3] * img[s.pos[3]];
          }
        }
        if (!max_) acc /= count;
        out[c * outH_ * outW_ + p] = store<S>(static_cast<ComputeT<S>>(acc));
      }
    }
  }

  bool max_ = false, halfPixel_ = true;
  int64_t outH_ = 1, outW_ = 1, sampling_ = 0;
  double scale_ = 1.0;
};

class MaxRoiPool final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    std::vector<int64_t> shape = b.node().attrInts("pooled_shape");
    if (shape.size() != 2 || shape[0] < 1 || shape[1] < 1)
      return invalidModel("pooled_shape must be two positive values");
    return std::unique_ptr<Kernel>(
        new MaxRoiPool(shape[0], shape[1], b.node().attrFloat("spatial_scale", 1.0f)));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& rois = ctx.input(1);
    if (x.rank() != 4) return invalidArgument("X must be [N, C, H, W], got " + x.describe());
    if (rois.rank() != 2 || rois.dim(1) != 5 || rois.dtype() != x.dtype())
      return invalidArgument("rois must be [num_rois, 5] of X's type, got " + rois.describe());
    const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3), R = rois.dim(0);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const std::vector<double> X = doublesOf<S>(x), B = doublesOf<S>(rois);
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), {R, C, ph_, pw_}));
      S* Y = y->mutableData<S>();
      for (int64_t r = 0; r < R; ++r) {
        const double* box = B.data() + r * 5;
        const auto batch = static_cast<int64_t>(box[0]);
        if (batch < 0 || batch >= N)
          return invalidArgument("roi " + std::to_string(r) + " has batch index " +
                                 std::to_string(batch) + ", out of range [0, " + std::to_string(N) +
                                 ")");
        const auto sw = static_cast<int64_t>(std::round(box[1] * scale_));
        const auto sh = static_cast<int64_t>(std::round(box[2] * scale_));
        const auto ew = static_cast<int64_t>(std::round(box[3] * scale_));
        const auto eh = static_cast<int64_t>(std::round(box[4] * scale_));
        const int64_t rw = std::max<int64_t>(ew - sw + 1, 1),
                      rh = std::max<int64_t>(eh - sh + 1, 1);
        const double bh = static_cast<double>(rh) / static_cast<double>(ph_);
        const double bw = static_cast<double>(rw) / static_cast<double>(pw_);
        for (int64_t c = 0; c < C; ++c) {
          const double* img = X.data() + (batch * C + c) * H * W;
          for (int64_t i = 0; i < ph_; ++i)
            for (int64_t j = 0; j < pw_; ++j) {
              int64_t hs = static_cast<int64_t>(std::floor(static_cast<double>(i) * bh)) + sh;
              int64_t he = static_cast<int64_t>(std::ceil(static_cast<double>(i + 1) * bh)) + sh;
              int64_t ws = static_cast<int64_t>(std::floor(static_cast<double>(j) * bw)) + sw;
              int64_t we = static_cast<int64_t>(std::ceil(static_cast<double>(j + 1) * bw)) + sw;
              hs = std::clamp<int64_t>(hs, 0, H);
              he = std::clamp<int64_t>(he, 0, H);
              ws = std::clamp<int64_t>(ws, 0, W);
              we = std::clamp<int64_t>(we, 0, W);
              double m = 0;
              bool any = false;
              for (int64_t h = hs; h < he; ++h)
                for (int64_t w = ws; w < we; ++w) {
                  double v = img[h * W + w];
                  m = any ? std::max(m, v) : v;
                  any = true;
                }
              Y[((r * C + c) * ph_ + i) * pw_ + j] =
                  store<S>(static_cast<ComputeT<S>>(any ? m : 0.0));
            }
        }
      }
      return Status::ok();
    });
  }

 private:
  MaxRoiPool(int64_t ph, int64_t pw, double scale) : ph_(ph), pw_(pw), scale_(scale) {}
  int64_t ph_, pw_;
  double scale_;
};

class NonMaxSuppression final : public Kernel {
 public:
  explicit NonMaxSuppression(const KernelBuild& b)
      : center_(b.node().attrInt("center_point_box", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& boxes = ctx.input(0);
    const Tensor& scores = ctx.input(1);
    if (boxes.rank() != 3 || boxes.dim(2) != 4 || boxes.dtype() != ir::DataType::kFloat)
      return invalidArgument("boxes must be float [batches, boxes, 4], got " + boxes.describe());
    if (scores.rank() != 3 || scores.dim(0) != boxes.dim(0) || scores.dim(2) != boxes.dim(1) ||
        scores.dtype() != ir::DataType::kFloat)
      return invalidArgument("scores must be float [" + std::to_string(boxes.dim(0)) +
                             ", classes, " + std::to_string(boxes.dim(1)) + "], got " +
                             scores.describe());
    int64_t maxOut = 0;
    float iou = 0, minScore = 0;
    bool useScore = false;
    if (ctx.has(2) && ctx.input(2).numel() > 0) {
      if (ctx.input(2).dtype() != ir::DataType::kInt64)
        return invalidArgument("max_output_boxes_per_class must be int64");
      maxOut = std::max<int64_t>(ctx.input(2).data<int64_t>()[0], 0);
    }
    if (ctx.has(3) && ctx.input(3).numel() > 0) {
      if (ctx.input(3).dtype() != ir::DataType::kFloat)
        return invalidArgument("iou_threshold must be float");
      iou = ctx.input(3).data<float>()[0];
    }
    if (ctx.has(4) && ctx.input(4).numel() > 0) {
      if (ctx.input(4).dtype() != ir::DataType::kFloat)
        return invalidArgument("score_threshold must be float");
      minScore = ctx.input(4).data<float>()[0];
      useScore = true;
    }
    const int64_t B = boxes.dim(0), K = scores.dim(1), M = boxes.dim(1);
    std::vector<int64_t> selected;  // triples
    std::vector<Candidate> cands;
    std::vector<Box> kept;
    for (int64_t b = 0; b < B; ++b)
      for (int64_t k = 0; k < K; ++k) {
        const float* sc = scores.data<float>() + (b * K + k) * M;
        const float* bx = boxes.data<float>() + b * M * 4;
        const bool heap = candidates(sc, M, useScore, minScore, cands);
        kept.clear();
        // The best of cands[0, left) moves to cands[left - 1] (a heap's top
        // popped, or already there).
        for (size_t left = cands.size(); left > 0 && static_cast<int64_t>(kept.size()) < maxOut;
             --left) {
          if (heap)
            std::pop_heap(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(left), worse);
          const int64_t i = cands[left - 1].index;
          const Box box = boxOf(bx + i * 4);
          if (std::any_of(kept.begin(), kept.end(),
                          [&](const Box& j) { return suppress(box, j, iou); }))
            continue;
          kept.push_back(box);
          selected.insert(selected.end(), {b, k, i});
        }
      }
    const auto n = static_cast<int64_t>(selected.size() / 3);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kInt64, {n, 3}));
    std::copy(selected.begin(), selected.end(), y->mutableData<int64_t>());
    return Status::ok();
  }

 private:
  // Corners of a box: [y1, x1, y2, x2] (any order) or [x_center, y_center, w, h].
  void corners(const float* b, float& xmin, float& xmax, float& ymin, float& ymax) const {
    if (center_) {
      xmin = b[0] - b[2] / 2;
      xmax = b[0] + b[2] / 2;
      ymin = b[1] - b[3] / 2;
      ymax = b[1] + b[3] / 2;
    } else {
      xmin = std::min(b[1], b[3]);
      xmax = std::max(b[1], b[3]);
      ymin = std::min(b[0], b[2]);
      ymax = std::max(b[0], b[2]);
    }
  }

  struct Box {
    float x0, x1, y0, y1, area;
  };

  Box boxOf(const float* b) const {
    Box r;
    corners(b, r.x0, r.x1, r.y0, r.y1);
    r.area = (r.x1 - r.x0) * (r.y1 - r.y0);
    return r;
  }

  // Whether candidate a is suppressed by kept box b: IoU above the threshold.
  static bool suppress(const Box& a, const Box& b, float threshold) {
    const float ix0 = std::max(a.x0, b.x0), ix1 = std::min(a.x1, b.x1);
    const float iy0 = std::max(a.y0, b.y0), iy1 = std::min(a.y1, b.y1);
    if (ix1 <= ix0 || iy1 <= iy0) return false;
    const float inter = (ix1 - ix0) * (iy1 - iy0);
    const float uni = a.area + b.area - inter;
    if (inter <= 0 || a.area <= 0 || b.area <= 0 || uni <= 0) return false;
    return inter / uni > threshold;
  }

  struct Candidate {
    float score;
    int64_t index;
  };

  // Whether a comes after c: lower score, or the same score and a higher index.
  static bool worse(const Candidate& a, const Candidate& c) {
    return a.score < c.score || (a.score == c.score && a.index > c.index);
  }

  // The boxes above the score threshold as a heap whose top is the best
  // (true); with a NaN score (no total order), sorted as the kernel always
  // did (a stable sort by score, best first), then reversed: the best last
  // (false).
  static bool candidates(const float* sc, int64_t M, bool useScore, float minScore,
                         std::vector<Candidate>& out) {
    out.clear();
    bool nan = false;
    for (int64_t i = 0; i < M; ++i)
      if (!useScore || sc[i] > minScore) {
        out.push_back({sc[i], i});
        nan = nan || std::isnan(sc[i]);
      }
    if (!nan) {
      std::make_heap(out.begin(), out.end(), worse);
      return true;
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Candidate& a, const Candidate& c) { return a.score > c.score; });
    std::reverse(out.begin(), out.end());
    return false;
  }

  bool center_;
};

const KernelDef kRows[] = {
    {"", "RoiAlign", 10, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.RoiAlign",
     makeKernel<RoiAlign>},
    {"", "MaxRoiPool", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.MaxRoiPool",
     makeKernel<MaxRoiPool>},
    {"", "NonMaxSuppression", 10, kOpsetMax, types::kFloat32, 0, Tier::kReference,
     "cpu.NonMaxSuppression", makeKernel<NonMaxSuppression>},
};

}  // namespace

std::span<const KernelDef> roiKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
