#include "core/exec/cuda/cupti_timing.h"

#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include "core/exec/cuda/cupti_api.h"

namespace passlab::exec::cuda {

GroupedActivity groupByStep(const std::vector<ActivitySpan>& spans,
                            const std::vector<ExternalLink>& links, size_t stepCount) {
  GroupedActivity g;
  g.steps.resize(stepCount);
  std::unordered_map<uint32_t, uint64_t> external;
  for (const ExternalLink& l : links) external[l.correlationId] = l.externalId;
  for (const ActivitySpan& s : spans) {
    auto it = external.find(s.correlationId);
    if (it == external.end() || it->second == 0 || it->second > stepCount) {
      ++g.unattributed;
      continue;
    }
    StepActivity& step = g.steps[static_cast<size_t>(it->second - 1)];
    step.micros += s.end > s.start ? static_cast<double>(s.end - s.start) / 1000.0 : 0.0;
    ++step.spans;
  }
  return g;
}

namespace {

constexpr CUpti_ExternalCorrelationKind kKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                         CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
                                         CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION};
constexpr size_t kBufferBytes = 4 << 20;

// What CUPTI's buffer callbacks delivered (they may run on CUPTI's thread).
struct Store {
  std::mutex mu;
  std::vector<ActivitySpan> spans;
  std::vector<ExternalLink> links;
  size_t dropped = 0;
};
Store& store() {
  static Store* s = new Store;  // never destroyed: callbacks may come late
  return *s;
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *maxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
  auto api = loadCupti();
  if (api && buffer != nullptr) {
    Store& s = store();
    std::lock_guard<std::mutex> lock(s.mu);
    CUpti_Activity* record = nullptr;
    while ((*api)->cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
      switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        case CUPTI_ACTIVITY_KIND_KERNEL: {
          const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
          s.spans.push_back({k->correlationId, k->start, k->end, k->name ? k->name : "kernel"});
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
          const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
          s.spans.push_back({m->correlationId, m->start, m->end, "memcpy"});
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
          const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
          s.spans.push_back({m->correlationId, m->start, m->end, "memset"});
          break;
        }
        case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
          const auto* e = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
          if (e->externalKind == kKind) s.links.push_back({e->correlationId, e->externalId});
          break;
        }
        default:
          break;
      }
    }
  }
  std::free(buffer);
}

Status cuptiError(const CuptiApi& api, CUptiResult r, const char* call) {
  return unsupported(std::string("CUPTI: ") + call + " failed: " + cuptiResultText(api, r));
}

#define PASSLAB_CUPTI_TRY(api, call)                                  \
  do {                                                                \
    if (CUptiResult passlab_cupti_r_ = (call); passlab_cupti_r_ != 0) \
      return cuptiError(api, passlab_cupti_r_, #call);                \
  } while (0)

}  // namespace

Status CuptiTiming::begin() {
  auto loaded = loadCupti();
  if (!loaded) return loaded.error();
  const CuptiApi& api = **loaded;
  static std::once_flag once;
  static CUptiResult registered = CUPTI_SUCCESS;
  std::call_once(once, [&] {
    registered = api.cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
  });
  PASSLAB_CUPTI_TRY(api, registered);
  {
    Store& s = store();
    std::lock_guard<std::mutex> lock(s.mu);
    s.spans.clear();
    s.links.clear();
  }
  for (CUpti_ActivityKind k : kKinds) PASSLAB_CUPTI_TRY(api, api.cuptiActivityEnable(k));
  return Status::ok();
}

Status CuptiTiming::pushStep(size_t step) {
  auto loaded = loadCupti();
  if (!loaded) return loaded.error();
  PASSLAB_CUPTI_TRY(
      **loaded, (*loaded)->cuptiActivityPushExternalCorrelationId(kKind, externalIdOfStep(step)));
  return Status::ok();
}

Status CuptiTiming::popStep() {
  auto loaded = loadCupti();
  if (!loaded) return loaded.error();
  uint64_t last = 0;
  PASSLAB_CUPTI_TRY(**loaded, (*loaded)->cuptiActivityPopExternalCorrelationId(kKind, &last));
  return Status::ok();
}

Expected<GroupedActivity> CuptiTiming::finish(size_t stepCount) {
  auto loaded = loadCupti();
  if (!loaded) return loaded.error();
  const CuptiApi& api = **loaded;
  CUptiResult flushed = api.cuptiActivityFlushAll(1);  // CUPTI_ACTIVITY_FLAG_FLUSH_FORCED
  for (CUpti_ActivityKind k : kKinds) api.cuptiActivityDisable(k);
  if (flushed != CUPTI_SUCCESS) return cuptiError(api, flushed, "cuptiActivityFlushAll").error();
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  GroupedActivity g = groupByStep(s.spans, s.links, stepCount);
  s.spans.clear();
  s.links.clear();
  return g;
}

}  // namespace passlab::exec::cuda
