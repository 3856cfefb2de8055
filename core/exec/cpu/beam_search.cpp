// com.microsoft BeamSearch for GPT-2 style decoders (model_type 0): the
// decoder subgraph (input_ids, position_ids, attention_mask, past_*) ->
// (logits, present_*) runs once per generated token; scores are the log-softmax
// of the last token's logits after the logits processors (repetition penalty,
// no-repeat n-grams, vocab masks, min length), plus the beam's score; the best
// 2 * num_beams candidates per batch entry go through a beam scorer that keeps
// finished hypotheses ranked by sum_logprobs / length ^ length_penalty. This
// follows ONNX Runtime's CPU implementation (itself Hugging Face's beam search).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <set>
#include <string>

#include "core/exec/compiled_graph.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/passlab_fused_math.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

constexpr float kLowest = std::numeric_limits<float>::lowest();

// Finished sequences of one batch entry, best num_beams kept.
struct Hypotheses {
  struct Item {
    std::vector<int32_t> tokens;
    float score;
  };
  int beams;
  float lengthPenalty;
  bool earlyStopping;
  std::vector<Item> items;  // unordered
  float worst = 1e9f;

  void add(std::vector<int32_t> tokens, float sumLogprobs) {
    const float score = sumLogprobs / std::pow(static_cast<float>(tokens.size()), lengthPenalty);
    if (static_cast<int>(items.size()) < beams || score > worst) {
      items.push_back({std::move(tokens), score});
      if (static_cast<int>(items.size()) > beams) {
        auto w = std::min_element(items.begin(), items.end(),
                                  [](const Item& a, const Item& b) { return a.score < b.score; });
        items.erase(w);
      }
      worst = std::min_element(items.begin(), items.end(), [](const Item& a, const Item& b) {
                return a.score < b.score;
              })->score;
    }
  }

  bool done(float bestSumLogprobs, int length) const {
    if (static_cast<int>(items.size()) < beams) return false;
    if (earlyStopping) return true;
    return worst >= bestSumLogprobs / std::pow(static_cast<float>(length), lengthPenalty);
  }
};

Expected<int64_t> scalarInt(const KernelContext& ctx, size_t i, const char* what,
                            int64_t fallback) {
  if (!ctx.has(i)) return fallback;
  const Tensor& t = ctx.input(i);
  if (t.dtype() != ir::DataType::kInt32 || t.numel() != 1)
    return invalidArgument(std::string(what) + " must be one int32 value, got " + t.describe());
  return t.data<int32_t>()[0];
}

Expected<float> scalarFloat(const KernelContext& ctx, size_t i, const char* what, float fallback) {
  if (!ctx.has(i)) return fallback;
  const Tensor& t = ctx.input(i);
  if (t.numel() != 1)
    return invalidArgument(std::string(what) + " must be one value, got " + t.describe());
  if (t.dtype() == ir::DataType::kFloat) return t.data<float>()[0];
  if (t.dtype() == ir::DataType::kFloat16) return halfToFloat(t.data<uint16_t>()[0]);
  return invalidArgument(std::string(what) + " must be float or float16, got " + t.describe());
}

class BeamSearch final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    const int64_t modelType = n.attrInt("model_type", 0);
    if (modelType != 0)
      return unsupported("BeamSearch with model_type " + std::to_string(modelType) +
                         " (only GPT-2 style decoders, model_type 0, are supported)");
    if (!n.hasAttr("eos_token_id") || !n.hasAttr("pad_token_id"))
      return invalidModel("eos_token_id and pad_token_id are required");
    auto decoder = b.subgraph("decoder");
    if (!decoder) return decoder.error();
    const ir::Graph& g = *(*decoder)->graph;
    if (g.inputs().size() < 4 || g.outputs().size() != g.inputs().size() - 2)
      return invalidModel(
          "the decoder must take (input_ids, position_ids, attention_mask, past_*) "
          "and return (logits, present_*)");
    // Heads and head size from the first past input: [2, batch, heads, past, head].
    const ir::Type& pt = g.inputs()[3]->type();
    if (!pt.isTensor() || !pt.hasShape() || pt.shape()->rank() != 5)
      return invalidModel("the decoder's past inputs must be 5-D [2, batch, heads, past, head]");
    auto dimOf = [&](size_t i) -> int64_t {
      const auto& d = (*pt.shape())[i];
      return d.isStatic() ? d.value() : -1;
    };
    auto k = std::unique_ptr<BeamSearch>(new BeamSearch());
    k->decoder_ = *decoder;
    k->heads_ = dimOf(2);
    k->headSize_ = dimOf(4);
    if (k->heads_ < 1 || k->headSize_ < 1)
      return invalidModel("the decoder's past inputs need static head count and head size");
    k->pastType_ = pt.elemType();
    k->layers_ = g.inputs().size() - 3;
    k->eos_ = static_cast<int32_t>(n.attrInt("eos_token_id", -1));
    k->pad_ = static_cast<int32_t>(n.attrInt("pad_token_id", 0));
    k->noRepeatNgram_ = n.attrInt("no_repeat_ngram_size", 0);
    k->earlyStopping_ = n.attrInt("early_stopping", 0) != 0;
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(Params P, readParams(ctx));
    State st = start(P);
    const int64_t BB = P.B * P.beams;
    while (st.length < P.maxLength) {
      if (ctx.cancelled()) return Error(ErrorCode::kCancelled, "run cancelled in BeamSearch");
      ++st.step;
      PASSLAB_ASSIGN_OR_RETURN(std::vector<Value> outs, ctx.runSubgraph(*decoder_, st.feeds));
      PASSLAB_ASSIGN_OR_RETURN(std::vector<float> scores, lastLogSoftmax(outs, BB, st.vocab));
      PASSLAB_RETURN_IF_ERROR(processScores(scores, st.seqs, st.vocab, P.repetitionPenalty,
                                            P.minLength, P.vocabMask,
                                            st.step == 1 ? P.prefixMask : nullptr, P.beams));
      for (int64_t r = 0; r < BB; ++r)
        for (int64_t v = 0; v < st.vocab; ++v)
          scores[static_cast<size_t>(r * st.vocab + v)] += st.beamScores[static_cast<size_t>(r)];
      if (wantScores(ctx)) st.allScores.insert(st.allScores.end(), scores.begin(), scores.end());
      Choice c;
      PASSLAB_RETURN_IF_ERROR(choose(P, scores, st, c));
      reorderBeams(c, st);
      if (std::all_of(st.done.begin(), st.done.end(), [](bool d) { return d; })) break;
      ++st.length;
      if (st.length >= P.maxLength) break;
      PASSLAB_RETURN_IF_ERROR(nextFeeds(outs, c, st));
    }
    // Unfinished beams join the hypotheses with their final scores.
    for (int64_t b = 0; b < P.B; ++b) {
      if (st.done[static_cast<size_t>(b)]) continue;
      for (int64_t k = 0; k < P.beams; ++k)
        st.hyps[static_cast<size_t>(b)].add(st.seqs[static_cast<size_t>(b * P.beams + k)],
                                            st.beamScores[static_cast<size_t>(b * P.beams + k)]);
    }
    return writeOutputs(ctx, P, st);
  }

 private:
  BeamSearch() = default;

  // The run's inputs after their checks.
  struct Params {
    int64_t B = 0, S = 0;  // batch, prompt length
    int64_t maxLength = 0, minLength = 0, beams = 1, returns = 1;
    float lengthPenalty = 1.0f, repetitionPenalty = 1.0f;
    const Tensor* ids = nullptr;
    const Tensor* vocabMask = nullptr;
    const Tensor* prefixMask = nullptr;
    const Tensor* maskIn = nullptr;
  };

  // The search between decoder steps.
  struct State {
    std::vector<std::vector<int32_t>> seqs;  // per beam (B * beams)
    std::vector<int32_t> nextPos;            // the next position id per beam
    std::vector<Value> feeds;                // the decoder's next inputs
    std::vector<float> beamScores;
    std::vector<Hypotheses> hyps;  // per batch entry
    std::vector<bool> done;        // per batch entry
    std::vector<float> allScores;  // the scores output, per step [B*beams, vocab]
    int64_t vocab = -1, length = 0, step = 0;
  };

  // The token, score and source beam chosen for each beam slot.
  struct Choice {
    std::vector<float> nextScores;
    std::vector<int32_t> nextTokens, nextIndices;
  };

  static Expected<Params> readParams(const KernelContext& ctx) {
    Params P;
    const Tensor& ids = ctx.input(0);
    if (ids.dtype() != ir::DataType::kInt32 || ids.rank() != 2)
      return invalidArgument("input_ids must be int32 [batch, sequence], got " + ids.describe());
    P.ids = &ids;
    P.B = ids.dim(0), P.S = ids.dim(1);
    PASSLAB_ASSIGN_OR_RETURN(P.maxLength, scalarInt(ctx, 1, "max_length", 0));
    PASSLAB_ASSIGN_OR_RETURN(P.minLength, scalarInt(ctx, 2, "min_length", 0));
    PASSLAB_ASSIGN_OR_RETURN(P.beams, scalarInt(ctx, 3, "num_beams", 1));
    PASSLAB_ASSIGN_OR_RETURN(P.returns, scalarInt(ctx, 4, "num_return_sequences", 1));
    PASSLAB_ASSIGN_OR_RETURN(P.lengthPenalty, scalarFloat(ctx, 5, "length_penalty", 1.0f));
    PASSLAB_ASSIGN_OR_RETURN(P.repetitionPenalty, scalarFloat(ctx, 6, "repetition_penalty", 1.0f));
    const int64_t beams = P.beams, returns = P.returns, S = P.S, maxLength = P.maxLength;
    if (beams < 1)
      return invalidArgument("num_beams must be at least 1, got " + std::to_string(beams));
    if (returns < 1 || returns > beams)
      return invalidArgument("num_return_sequences " + std::to_string(returns) +
                             " must be in [1, num_beams = " + std::to_string(beams) + "]");
    if (S < 1 || maxLength <= S)
      return invalidArgument("max_length " + std::to_string(maxLength) +
                             " must exceed the input length " + std::to_string(S));
    if (maxLength > 1 << 20)
      return invalidArgument("max_length " + std::to_string(maxLength) + " is too large");
    if (P.repetitionPenalty <= 0) return invalidArgument("repetition_penalty must be positive");
    if (ctx.has(11)) return unsupported("BeamSearch with a logits_processor input");
    P.vocabMask = ctx.has(7) ? &ctx.input(7) : nullptr;
    P.prefixMask = ctx.has(8) ? &ctx.input(8) : nullptr;
    P.maskIn = ctx.has(9) ? &ctx.input(9) : nullptr;
    if (P.maskIn && (P.maskIn->dtype() != ir::DataType::kInt32 || P.maskIn->dims() != ids.dims()))
      return invalidArgument("attention_mask " + P.maskIn->describe() +
                             " must be int32 like input_ids");
    return P;
  }

  // The decoder's first inputs: every beam starts from its batch entry's prompt.
  State start(const Params& P) const {
    const Tensor& ids = *P.ids;
    const int64_t B = P.B, S = P.S, beams = P.beams, BB = B * beams;
    const Tensor* maskIn = P.maskIn;
    State st;
    st.seqs.resize(static_cast<size_t>(BB));
    std::vector<int32_t> mask(static_cast<size_t>(BB * S)), pos(static_cast<size_t>(BB * S));
    st.nextPos.resize(static_cast<size_t>(BB));
    for (int64_t b = 0; b < B; ++b) {
      int32_t abs = 0;
      std::vector<int32_t> m(static_cast<size_t>(S)), p(static_cast<size_t>(S));
      for (int64_t s = 0; s < S; ++s) {
        const int32_t id = ids.data<int32_t>()[b * S + s];
        const bool real = maskIn ? maskIn->data<int32_t>()[b * S + s] != 0 : id != pad_;
        m[static_cast<size_t>(s)] = real ? 1 : 0;
        p[static_cast<size_t>(s)] = real ? abs++ : 0;
      }
      for (int64_t k = 0; k < beams; ++k) {
        const int64_t bb = b * beams + k;
        st.seqs[static_cast<size_t>(bb)].assign(ids.data<int32_t>() + b * S,
                                                ids.data<int32_t>() + (b + 1) * S);
        std::copy(m.begin(), m.end(), mask.begin() + bb * S);
        std::copy(p.begin(), p.end(), pos.begin() + bb * S);
        st.nextPos[static_cast<size_t>(bb)] = abs;
      }
    }
    st.feeds.emplace_back(
        Tensor::fromVector<int32_t>(ir::DataType::kInt32, {BB, S}, flatten(st.seqs)));
    st.feeds.emplace_back(Tensor::fromVector<int32_t>(ir::DataType::kInt32, {BB, S}, pos));
    st.feeds.emplace_back(Tensor::fromVector<int32_t>(ir::DataType::kInt32, {BB, S}, mask));
    for (size_t l = 0; l < layers_; ++l)
      st.feeds.emplace_back(Tensor::zeros(pastType_, {2, BB, heads_, 0, headSize_}));

    st.beamScores.assign(static_cast<size_t>(BB), 0.0f);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t k = 1; k < beams; ++k) st.beamScores[static_cast<size_t>(b * beams + k)] = -1e9f;
    st.hyps.assign(static_cast<size_t>(B),
                   Hypotheses{static_cast<int>(beams), P.lengthPenalty, earlyStopping_, {}});
    st.done.assign(static_cast<size_t>(B), false);
    st.length = S;
    return st;
  }

  // Log-softmax of the last position of the decoder's logits, [BB, vocab].
  Expected<std::vector<float>> lastLogSoftmax(const std::vector<Value>& outs, int64_t BB,
                                              int64_t& vocab) const {
    if (outs.size() != 1 + layers_ || !outs[0].isTensor())
      return invalidModel("the decoder returned " + std::to_string(outs.size()) +
                          " values, expected logits and " + std::to_string(layers_) + " presents");
    const Tensor& logits = outs[0].tensor();
    if (logits.rank() != 3 || logits.dim(0) != BB)
      return invalidArgument("the decoder's logits are " + logits.describe() + ", expected [" +
                             std::to_string(BB) + ", sequence, vocab]");
    vocab = logits.dim(2);
    const int64_t L = logits.dim(1);
    std::vector<float> scores(static_cast<size_t>(BB * vocab)), exps(static_cast<size_t>(vocab));
    for (int64_t r = 0; r < BB; ++r) {
      float* row = scores.data() + r * vocab;
      for (int64_t v = 0; v < vocab; ++v) row[v] = logitAt(logits, (r * L + L - 1) * vocab + v);
      const float mx = *std::max_element(row, row + vocab);
      // The sum of exp(row - mx) in float on 4 lanes (passlab_fused_math.h),
      // as onnxruntime's float log-softmax; std::exp in double per element
      // was 15% of ort_tiny_gpt2_beamsearch's run.
      std::copy(row, row + vocab, exps.data());
      const float sum = fused::expShiftSum(exps.data(), vocab, mx);
      const auto lse = std::log(sum) + mx;
      for (int64_t v = 0; v < vocab; ++v) row[v] -= lse;
    }
    return scores;
  }

  // The best 2 * beams candidates per batch entry, then the scorer: finished
  // ones (eos) become hypotheses, the others fill the beams.
  Status choose(const Params& P, const std::vector<float>& scores, State& st, Choice& c) const {
    const int64_t B = P.B, beams = P.beams, BB = B * beams, vocab = st.vocab;
    c.nextScores.assign(static_cast<size_t>(BB), 0.0f);
    c.nextTokens.assign(static_cast<size_t>(BB), 0);
    c.nextIndices.assign(static_cast<size_t>(BB), 0);
    const int64_t topK = std::min<int64_t>(2 * beams, beams * vocab);
    for (int64_t b = 0; b < B; ++b) {
      if (st.done[static_cast<size_t>(b)]) {
        for (int64_t k = 0; k < beams; ++k) {
          c.nextScores[static_cast<size_t>(b * beams + k)] = 0;
          c.nextTokens[static_cast<size_t>(b * beams + k)] = pad_;
          c.nextIndices[static_cast<size_t>(b * beams + k)] = static_cast<int32_t>(b * beams);
        }
        continue;
      }
      const float* bs = scores.data() + b * beams * vocab;
      std::vector<int64_t> cand(static_cast<size_t>(beams * vocab));
      std::iota(cand.begin(), cand.end(), 0);
      std::partial_sort(cand.begin(), cand.begin() + topK, cand.end(), [&](int64_t x, int64_t y) {
        return bs[x] > bs[y] || (bs[x] == bs[y] && x < y);
      });
      int64_t filled = 0;
      for (int64_t j = 0; j < topK && filled < beams; ++j) {
        const auto token = static_cast<int32_t>(cand[static_cast<size_t>(j)] % vocab);
        const int64_t beam = b * beams + cand[static_cast<size_t>(j)] / vocab;
        const float score = bs[cand[static_cast<size_t>(j)]];
        if (eos_ >= 0 && token == eos_) {
          if (j >= beams) continue;  // not among the top num_beams: ignore
          st.hyps[static_cast<size_t>(b)].add(st.seqs[static_cast<size_t>(beam)], score);
        } else {
          c.nextScores[static_cast<size_t>(b * beams + filled)] = score;
          c.nextTokens[static_cast<size_t>(b * beams + filled)] = token;
          c.nextIndices[static_cast<size_t>(b * beams + filled)] = static_cast<int32_t>(beam);
          ++filled;
        }
      }
      if (filled < beams)
        return internalError("beam search found only " + std::to_string(filled) +
                             " candidates for " + std::to_string(beams) + " beams");
      const float best = bs[cand[0]];
      if (st.hyps[static_cast<size_t>(b)].done(best, static_cast<int>(st.length)))
        st.done[static_cast<size_t>(b)] = true;
    }
    return Status::ok();
  }

  // Reorder the sequences by beam and append the new tokens.
  static void reorderBeams(const Choice& c, State& st) {
    const auto BB = static_cast<int64_t>(st.seqs.size());
    std::vector<std::vector<int32_t>> next(static_cast<size_t>(BB));
    for (int64_t r = 0; r < BB; ++r) {
      next[static_cast<size_t>(r)] =
          st.seqs[static_cast<size_t>(c.nextIndices[static_cast<size_t>(r)])];
      next[static_cast<size_t>(r)].push_back(c.nextTokens[static_cast<size_t>(r)]);
    }
    st.seqs = std::move(next);
    st.beamScores = c.nextScores;
  }

  // Next decoder inputs: the new token, its position, a longer mask, the reordered cache.
  Status nextFeeds(const std::vector<Value>& outs, const Choice& c, State& st) const {
    const auto BB = static_cast<int64_t>(st.seqs.size());
    const int64_t length = st.length;
    std::vector<Value>& feeds = st.feeds;
    std::vector<int32_t> newMask(static_cast<size_t>(BB * length));
    const int64_t prevLen = feeds[2].tensor().dim(1);
    for (int64_t r = 0; r < BB; ++r) {
      const int32_t* old = feeds[2].tensor().data<int32_t>() + r * prevLen;
      std::copy(old, old + prevLen, newMask.begin() + r * length);
      newMask[static_cast<size_t>(r * length + length - 1)] = 1;
    }
    std::vector<int32_t> newPos(static_cast<size_t>(BB));
    for (int64_t r = 0; r < BB; ++r)
      newPos[static_cast<size_t>(r)] = st.nextPos[static_cast<size_t>(r)]++;
    feeds[0] = Value(Tensor::fromVector<int32_t>(ir::DataType::kInt32, {BB, 1}, c.nextTokens));
    feeds[1] = Value(Tensor::fromVector<int32_t>(ir::DataType::kInt32, {BB, 1}, newPos));
    feeds[2] = Value(Tensor::fromVector<int32_t>(ir::DataType::kInt32, {BB, length}, newMask));
    for (size_t l = 0; l < layers_; ++l) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor past, pickPast(outs[1 + l], c.nextIndices, BB));
      feeds[3 + l] = Value(std::move(past));
    }
    return Status::ok();
  }

  // sequences (best num_return_sequences per batch entry), sequences_scores and scores.
  Status writeOutputs(KernelContext& ctx, const Params& P, const State& st) const {
    const int64_t B = P.B, returns = P.returns, maxLength = P.maxLength;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * out,
                             ctx.allocate(0, ir::DataType::kInt32, {B, returns, maxLength}));
    std::fill(out->mutableData<int32_t>(), out->mutableData<int32_t>() + out->numel(), pad_);
    Tensor* seqScores = nullptr;
    if (ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(seqScores, ctx.allocate(1, ir::DataType::kFloat, {B, returns}));
    }
    for (int64_t b = 0; b < B; ++b) {
      auto items = st.hyps[static_cast<size_t>(b)].items;
      std::stable_sort(items.begin(), items.end(),
                       [](const auto& x, const auto& y) { return x.score > y.score; });
      for (int64_t r = 0; r < returns && r < static_cast<int64_t>(items.size()); ++r) {
        const auto& t = items[static_cast<size_t>(r)].tokens;
        int32_t* dst = out->mutableData<int32_t>() + (b * returns + r) * maxLength;
        std::copy(t.begin(),
                  t.begin() + std::min<int64_t>(maxLength, static_cast<int64_t>(t.size())), dst);
        if (seqScores)
          seqScores->mutableData<float>()[b * returns + r] = items[static_cast<size_t>(r)].score;
      }
    }
    if (wantScores(ctx)) {
      const int64_t steps = maxLength - P.S;
      PASSLAB_ASSIGN_OR_RETURN(
          Tensor * sc, ctx.allocate(2, ir::DataType::kFloat, {steps, B, P.beams, st.vocab}));
      std::fill(sc->mutableData<float>(), sc->mutableData<float>() + sc->numel(), 0.0f);
      std::copy(st.allScores.begin(),
                st.allScores.begin() +
                    std::min<int64_t>(sc->numel(), static_cast<int64_t>(st.allScores.size())),
                sc->mutableData<float>());
    }
    return Status::ok();
  }

  static bool wantScores(const KernelContext& ctx) {
    return ctx.outputCount() > 2 && ctx.wantsOutput(2);
  }

  static std::vector<int32_t> flatten(const std::vector<std::vector<int32_t>>& rows) {
    std::vector<int32_t> v;
    for (const auto& r : rows) v.insert(v.end(), r.begin(), r.end());
    return v;
  }

  static float logitAt(const Tensor& t, int64_t i) {
    if (t.dtype() == ir::DataType::kFloat16) return halfToFloat(t.data<uint16_t>()[i]);
    return t.data<float>()[i];
  }

  // Repetition penalty, no-repeat n-grams, vocab masks and min length, on log-probabilities.
  Status processScores(std::vector<float>& scores, const std::vector<std::vector<int32_t>>& seqs,
                       int64_t vocab, float repetitionPenalty, int64_t minLength,
                       const Tensor* vocabMask, const Tensor* prefixMask, int64_t beams) const {
    const auto BB = static_cast<int64_t>(seqs.size());
    if (vocabMask && (vocabMask->dtype() != ir::DataType::kInt32 || vocabMask->numel() != vocab))
      return invalidArgument("vocab_mask must be int32 [" + std::to_string(vocab) + "], got " +
                             vocabMask->describe());
    if (prefixMask &&
        (prefixMask->dtype() != ir::DataType::kInt32 || prefixMask->numel() != BB / beams * vocab))
      return invalidArgument("prefix_vocab_mask must be int32 [batch, " + std::to_string(vocab) +
                             "], got " + prefixMask->describe());
    for (int64_t r = 0; r < BB; ++r) {
      float* row = scores.data() + r * vocab;
      const auto& seq = seqs[static_cast<size_t>(r)];
      if (repetitionPenalty != 1.0f) {
        std::set<int32_t> seen(seq.begin(), seq.end());
        for (int32_t t : seen) {
          if (t < 0 || t >= vocab) continue;
          row[t] = row[t] < 0 ? row[t] * repetitionPenalty : row[t] / repetitionPenalty;
        }
      }
      if (noRepeatNgram_ > 0 && static_cast<int64_t>(seq.size()) + 1 >= noRepeatNgram_) {
        // Ban tokens that would complete an n-gram already in the sequence.
        const auto n = static_cast<size_t>(noRepeatNgram_);
        const size_t prefixStart = seq.size() + 1 - n;
        for (size_t i = 0; i + n <= seq.size(); ++i) {
          if (!std::equal(seq.begin() + static_cast<std::ptrdiff_t>(i),
                          seq.begin() + static_cast<std::ptrdiff_t>(i + n - 1),
                          seq.begin() + static_cast<std::ptrdiff_t>(prefixStart)))
            continue;
          const int32_t banned = seq[i + n - 1];
          if (banned >= 0 && banned < vocab) row[banned] = kLowest;
        }
      }
      for (int64_t v = 0; vocabMask && v < vocab; ++v)
        if (vocabMask->data<int32_t>()[v] == 0) row[v] = kLowest;
      for (int64_t v = 0; prefixMask && v < vocab; ++v)
        if (prefixMask->data<int32_t>()[(r / beams) * vocab + v] == 0) row[v] = kLowest;
      if (eos_ >= 0 && eos_ < vocab && static_cast<int64_t>(seq.size()) < minLength)
        row[eos_] = kLowest;
    }
    return Status::ok();
  }

  // present [2, BB, heads, len, head] reordered by beam: past[:, j] = present[:, indices[j]].
  Expected<Tensor> pickPast(const Value& present, const std::vector<int32_t>& indices,
                            int64_t BB) const {
    if (!present.isTensor() || present.tensor().rank() != 5 || present.tensor().dim(1) != BB)
      return invalidArgument("a decoder present output is " + present.describe() +
                             ", expected [2, " + std::to_string(BB) + ", heads, length, head]");
    const Tensor& p = present.tensor();
    Tensor out = Tensor::zeros(p.dtype(), p.dims());
    const size_t es = static_cast<size_t>(ir::dtypeBits(p.dtype()) / 8);
    const int64_t block = p.dim(2) * p.dim(3) * p.dim(4);
    const auto* src = static_cast<const std::byte*>(p.raw());
    auto* dst = static_cast<std::byte*>(out.mutableRaw());
    for (int64_t half = 0; half < 2; ++half)
      for (int64_t j = 0; j < BB; ++j) {
        const int64_t from = (half * BB + indices[static_cast<size_t>(j)]) * block;
        const int64_t to = (half * BB + j) * block;
        std::memcpy(dst + static_cast<size_t>(to) * es, src + static_cast<size_t>(from) * es,
                    static_cast<size_t>(block) * es);
      }
    return out;
  }

  const CompiledGraph* decoder_ = nullptr;
  int64_t heads_ = 0, headSize_ = 0;
  ir::DataType pastType_ = ir::DataType::kFloat;
  size_t layers_ = 0;
  int32_t eos_ = -1, pad_ = 0;
  int64_t noRepeatNgram_ = 0;
  bool earlyStopping_ = false;
};

constexpr TypeSet kIdTypes{ir::DataType::kInt32};

const KernelDef kRows[] = {
    {"com.microsoft", "BeamSearch", 1, kOpsetMax, kIdTypes, 0, Tier::kReference,
     "cpu.ms.BeamSearch", makeKernel<BeamSearch>},
};

}  // namespace

std::span<const KernelDef> beamSearchKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
