// TfIdfVectorizer: counts the pool's n-grams (with skips) in each row of
// int32, int64 or string items and weighs them (TF, IDF, TFIDF).
#include <algorithm>
#include <map>
#include <string>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

using Gram = std::vector<std::string>;

class TfIdfVectorizer final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    auto k = std::unique_ptr<TfIdfVectorizer>(new TfIdfVectorizer());
    std::string mode = n.attrString("mode", "");
    if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
      return invalidModel("mode must be TF, IDF or TFIDF, got '" + mode + "'");
    k->mode_ = mode;
    k->minGram_ = n.attrInt("min_gram_length", 0);
    k->maxGram_ = n.attrInt("max_gram_length", 0);
    k->maxSkip_ = n.attrInt("max_skip_count", 0);
    if (k->minGram_ < 1 || k->maxGram_ < k->minGram_ || k->maxSkip_ < 0)
      return invalidModel("need 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0");
    std::vector<int64_t> counts = n.attrInts("ngram_counts");
    k->indexes_ = n.attrInts("ngram_indexes");
    k->weights_ = n.attrFloats("weights");
    std::vector<std::string> pool;
    if (const ir::Attribute* s = n.attr("pool_strings"); s && !s->strings.empty()) {
      pool = s->strings;
    } else {
      for (int64_t v : n.attrInts("pool_int64s")) pool.push_back(std::to_string(v));
    }
    if (k->indexes_.empty()) return invalidModel("ngram_indexes is required");
    for (int64_t i : k->indexes_)
      if (i < 0) return invalidModel("ngram_indexes must not be negative");
    k->outputSize_ = *std::max_element(k->indexes_.begin(), k->indexes_.end()) + 1;
    if (!k->weights_.empty() && static_cast<int64_t>(k->weights_.size()) < k->outputSize_)
      return invalidModel("weights has fewer values than the output has columns");
    // n-grams of size i+1 occupy pool[counts[i], counts[i+1]); ids number them in pool order.
    int64_t id = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
      const int64_t size = static_cast<int64_t>(i) + 1;
      const int64_t begin = counts[i];
      const int64_t end = i + 1 < counts.size() ? counts[i + 1] : static_cast<int64_t>(pool.size());
      if (begin < 0 || end > static_cast<int64_t>(pool.size()) || end < begin)
        return invalidModel("ngram_counts does not fit the pool");
      for (int64_t at = begin; at + size <= end; at += size, ++id) {
        if (id >= static_cast<int64_t>(k->indexes_.size()))
          return invalidModel("the pool has more n-grams than ngram_indexes has entries");
        if (size < k->minGram_ || size > k->maxGram_) continue;
        k->grams_.emplace(Gram(pool.begin() + at, pool.begin() + at + size), id);
      }
    }
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 1 && x.rank() != 2)
      return invalidArgument("X must be [C] or [N, C], got " + x.describe());
    std::vector<std::string> items(static_cast<size_t>(x.numel()));
    if (x.isString()) {
      for (size_t i = 0; i < items.size(); ++i) items[i] = x.data<std::string>()[i];
    } else {
      PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> v, readInts(x, "X"));
      for (size_t i = 0; i < items.size(); ++i) items[i] = std::to_string(v[i]);
    }
    const int64_t rows = x.rank() == 2 ? x.dim(0) : 1;
    const int64_t C = x.rank() == 2 ? x.dim(1) : x.dim(0);
    std::vector<int64_t> freq(static_cast<size_t>(rows * outputSize_), 0);
    for (int64_t r = 0; r < rows; ++r) {
      int64_t minSize = minGram_;
      for (int64_t skip = 1; skip <= maxSkip_ + 1; ++skip) {
        for (int64_t start = 0; start < C; ++start) {
          if (start + skip * (minSize - 1) >= C) break;
          Gram g;
          for (int64_t size = 1, at = start; size <= maxGram_ && at < C; ++size, at += skip) {
            g.push_back(items[static_cast<size_t>(r * C + at)]);
            if (size < minSize) continue;
            auto it = grams_.find(g);
            if (it != grams_.end())
              ++freq[static_cast<size_t>(r * outputSize_ +
                                         indexes_[static_cast<size_t>(it->second)])];
          }
        }
        // Unigrams do not depend on the skip: count them once.
        if (minSize == 1) {
          minSize = 2;
          if (minSize > maxGram_) break;
        }
      }
    }
    Dims out = x.rank() == 2 ? Dims{rows, outputSize_} : Dims{outputSize_};
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, out));
    float* Y = y->mutableData<float>();
    for (size_t i = 0; i < freq.size(); ++i) {
      const auto f = static_cast<float>(freq[i]);
      const float w = weights_.empty() ? 1.0f : weights_[i % static_cast<size_t>(outputSize_)];
      if (mode_ == "TF") {
        Y[i] = f;
      } else if (mode_ == "IDF") {
        Y[i] = f > 0 ? w : 0.0f;
      } else {
        Y[i] = f * w;
      }
    }
    return Status::ok();
  }

 private:
  TfIdfVectorizer() = default;
  std::string mode_;
  int64_t minGram_ = 1, maxGram_ = 1, maxSkip_ = 0, outputSize_ = 0;
  std::vector<int64_t> indexes_;
  std::vector<float> weights_;
  std::map<Gram, int64_t> grams_;
};

constexpr TypeSet kItemTypes{ir::DataType::kString, ir::DataType::kInt32, ir::DataType::kInt64};

const KernelDef kRows[] = {
    {"", "TfIdfVectorizer", 9, kOpsetMax, kItemTypes, 0, Tier::kReference, "cpu.TfIdfVectorizer",
     makeKernel<TfIdfVectorizer>},
};

}  // namespace

std::span<const KernelDef> tfidfKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
