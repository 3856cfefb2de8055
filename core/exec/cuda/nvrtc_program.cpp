#include "core/exec/cuda/nvrtc_program.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/nvrtc_api.h"

namespace passlab::exec::cuda::nvrtc {

namespace {

// Releases an NVRTC program however the compile ends.
struct ProgramGuard {
  nvrtcProgram p = nullptr;
  ~ProgramGuard() {
    if (p) nvrtcApi().nvrtcDestroyProgram(&p);
  }
};

std::string programLog(const NvrtcApi& rtc, nvrtcProgram p) {
  size_t size = 0;
  if (rtc.nvrtcGetProgramLogSize(p, &size) != NVRTC_SUCCESS || size <= 1) return "";
  std::string log(size, '\0');
  if (rtc.nvrtcGetProgramLog(p, log.data()) != NVRTC_SUCCESS) return "";
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

}  // namespace

std::string version() {
  auto rtc = loadNvrtc();
  int major = 0, minor = 0;
  if (!rtc || (*rtc)->nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string targetArchitecture(const DeviceProperties* device) {
  int want = 90;
  if (device && device->computeMajor > 0) want = device->computeMajor * 10 + device->computeMinor;
  // Without NVRTC the device's own (compileToPtx then says NVRTC is missing).
  auto rtc = loadNvrtc();
  int count = 0;
  if (rtc && (*rtc)->nvrtcGetNumSupportedArchs(&count) == NVRTC_SUCCESS && count > 0) {
    std::vector<int> archs(static_cast<size_t>(count));
    if ((*rtc)->nvrtcGetSupportedArchs(archs.data()) == NVRTC_SUCCESS) {
      std::sort(archs.begin(), archs.end());
      // The newest supported one not above the device's (PTX runs on newer GPUs).
      int pick = archs.front();
      for (int a : archs)
        if (a <= want) pick = a;
      want = pick;
    }
  }
  return "compute_" + std::to_string(want);
}

Expected<std::string> compileToPtx(std::string_view source, std::string_view fileName,
                                   std::string_view arch) {
  auto loaded = loadNvrtc();
  if (!loaded) return loaded.error();
  const NvrtcApi& rtc = **loaded;
  ProgramGuard g;
  const std::string src(source), name(fileName);
  PASSLAB_NVRTC_TRY(rtc.nvrtcCreateProgram(&g.p, src.c_str(), name.c_str(), 0, nullptr, nullptr));
  const std::string archOption = "--gpu-architecture=" + std::string(arch);
  // --fmad=false: no contraction into fused multiply-adds, so results round
  // as the CPU kernel's do (the kernels are bound by memory, not arithmetic).
  const char* options[] = {archOption.c_str(), "-std=c++17", "--fmad=false"};
  const nvrtcResult r = rtc.nvrtcCompileProgram(g.p, 3, options);
  if (r != NVRTC_SUCCESS) {
    std::string m = "NVRTC could not compile " + name + " for " + std::string(arch) + " (" +
                    rtc.nvrtcGetErrorString(r) + ")";
    const std::string log = programLog(rtc, g.p);
    if (!log.empty()) m += ":\n" + log;
    return internalError(m);
  }
  size_t size = 0;
  PASSLAB_NVRTC_TRY(rtc.nvrtcGetPTXSize(g.p, &size));
  std::string ptx(size, '\0');
  PASSLAB_NVRTC_TRY(rtc.nvrtcGetPTX(g.p, ptx.data()));
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  return ptx;
}

Expected<const void*> loadKernel(const std::string& ptx, const std::string& entry) {
  static std::mutex mutex;
  static std::unordered_map<std::string, cudaKernel_t> loaded;  // by entry and PTX
  const std::string key = entry + '\n' + ptx;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = loaded.find(key); it != loaded.end()) return static_cast<const void*>(it->second);
  cudaLibrary_t library = nullptr;
  // cudaLibraryLoadData reads NUL-terminated PTX text: std::string's c_str().
  PASSLAB_CUDA_TRY(
      cudaLibraryLoadData(&library, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  cudaKernel_t kernel = nullptr;
  if (cudaError_t e = cudaLibraryGetKernel(&kernel, library, entry.c_str()); e != cudaSuccess) {
    cudaLibraryUnload(library);
    return fromCuda(e, ("cudaLibraryGetKernel(" + entry + ")").c_str());
  }
  loaded.emplace(key, kernel);  // the library stays loaded: its kernels are in use
  return static_cast<const void*>(kernel);
}

Status launchGridStride(const void* kernel, int64_t n, void** args, cudaStream_t stream) {
  if (n <= 0) return Status::ok();
  constexpr int64_t kThreads = 256;
  const int64_t blocks = std::clamp<int64_t>((n + kThreads - 1) / kThreads, 1, 65535LL * 8);
  PASSLAB_CUDA_TRY(cudaLaunchKernel(kernel, dim3(static_cast<unsigned int>(blocks)),
                                    dim3(static_cast<unsigned int>(kThreads)), args, 0, stream));
  return Status::ok();
}

}  // namespace passlab::exec::cuda::nvrtc
