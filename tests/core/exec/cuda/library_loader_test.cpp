// cuBLASLt and NVRTC opened at run time (cublaslt_api.h, nvrtc_api.h): every
// function the backend calls resolves from the toolkit's library (present on
// the build machine, no GPU needed), the version is the one the headers
// describe, and a missing library or function is an error that names it.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

#include "core/exec/cuda/cublaslt_api.h"
#include "core/exec/cuda/nvrtc_api.h"
#include "core/exec/cuda/nvrtc_program.h"

namespace passlab::exec::cuda {
namespace {

TEST(CublasLtLoader, ResolvesEveryFunctionAndReportsItsVersion) {
  auto lt = loadCublasLt();
  ASSERT_TRUE(lt) << lt.error().message();
#define PASSLAB_EXPECT_RESOLVED(name) EXPECT_NE((*lt)->name, nullptr) << #name;
  PASSLAB_CUBLASLT_FUNCTIONS(PASSLAB_EXPECT_RESOLVED)
#undef PASSLAB_EXPECT_RESOLVED
  const size_t v = (*lt)->version();
  EXPECT_EQ(v / 10000, static_cast<size_t>(CUBLAS_VER_MAJOR)) << "cublasLtGetVersion() " << v;
  EXPECT_FALSE((*lt)->library.path().empty());
  // Once per process: the same table every time.
  auto again = loadCublasLt();
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *lt);
  EXPECT_EQ(&cublasLtApi(), *lt);
  // A status through the loaded library's names.
  EXPECT_STREQ((*lt)->cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED),
               "CUBLAS_STATUS_NOT_SUPPORTED");
}

TEST(CublasLtLoader, HandleMadeAndDestroyedWithoutAGpu) {
  // cublasLtCreate needs no device (it fails cleanly without a driver).
  auto lt = loadCublasLt();
  ASSERT_TRUE(lt) << lt.error().message();
  cublasLtHandle_t h = nullptr;
  const cublasStatus_t s = (*lt)->cublasLtCreate(&h);
  if (s == CUBLAS_STATUS_SUCCESS) {
    EXPECT_NE(h, nullptr);
    EXPECT_EQ((*lt)->cublasLtDestroy(h), CUBLAS_STATUS_SUCCESS);
  } else {
    EXPECT_EQ(h, nullptr);
  }
}

TEST(CublasLtLoader, MissingLibraryNamesItAndEveryPathTried) {
  auto lt = openCublasLt({"/nonexistent/libcublasLt.so.13", "libpasslab_no_such_cublasLt.so.13"});
  ASSERT_FALSE(lt);
  EXPECT_EQ(lt.error().code(), ErrorCode::kUnsupported);
  const std::string m = lt.error().message();
  EXPECT_NE(m.find("cuBLASLt is not available"), std::string::npos) << m;
  EXPECT_NE(m.find("/nonexistent/libcublasLt.so.13"), std::string::npos) << m;
  EXPECT_NE(m.find("libpasslab_no_such_cublasLt.so.13"), std::string::npos) << m;
}

TEST(CublasLtLoader, NoPathIsAnErrorNotACrash) {
  auto lt = openCublasLt({});
  ASSERT_FALSE(lt);
  EXPECT_NE(lt.error().message().find("no path given"), std::string::npos);
}

TEST(CublasLtLoader, WrongLibraryNamesTheMissingFunction) {
  // libm opens but has none of cuBLASLt's functions: the first one is named.
  auto lt = openCublasLt({"libm.so.6"});
  ASSERT_FALSE(lt);
  EXPECT_EQ(lt.error().code(), ErrorCode::kUnsupported);
  const std::string m = lt.error().message();
  EXPECT_NE(m.find("lacks the function cublasLtGetVersion"), std::string::npos) << m;
  EXPECT_NE(m.find("libm.so.6"), std::string::npos) << m;
}

TEST(CublasLtLoader, FirstCandidateThatOpensIsUsed) {
  auto lt = openCublasLt({"/nonexistent/libcublasLt.so.13", cublasLtCandidates().back()});
  ASSERT_TRUE(lt) << lt.error().message();
  EXPECT_EQ(lt->library.path(), cublasLtCandidates().back());
  EXPECT_GT(lt->version(), 0u);
}

TEST(NvrtcLoader, ResolvesEveryFunctionAndReportsItsVersion) {
  auto rtc = loadNvrtc();
  ASSERT_TRUE(rtc) << rtc.error().message();
#define PASSLAB_EXPECT_RESOLVED(name) EXPECT_NE((*rtc)->name, nullptr) << #name;
  PASSLAB_NVRTC_FUNCTIONS(PASSLAB_EXPECT_RESOLVED)
#undef PASSLAB_EXPECT_RESOLVED
  int major = 0, minor = 0;
  ASSERT_EQ((*rtc)->nvrtcVersion(&major, &minor), NVRTC_SUCCESS);
  EXPECT_EQ(major, CUDART_VERSION / 1000);
  EXPECT_EQ(nvrtc::version(), std::to_string(major) + "." + std::to_string(minor));
  EXPECT_EQ(&nvrtcApi(), *rtc);
  EXPECT_STREQ((*rtc)->nvrtcGetErrorString(NVRTC_ERROR_COMPILATION), "NVRTC_ERROR_COMPILATION");
}

TEST(NvrtcLoader, CompilesThroughTheTable) {
  auto ptx = nvrtc::compileToPtx("extern \"C\" __global__ void passlab_k(float* x) { x[0] = 1; }",
                                 "k.cu", "compute_90");
  ASSERT_TRUE(ptx) << ptx.error().message();
  EXPECT_NE(ptx->find(".entry passlab_k"), std::string::npos);
}

TEST(NvrtcLoader, MissingLibraryNamesIt) {
  auto rtc = openNvrtc({"/nonexistent/libnvrtc.so.13"});
  ASSERT_FALSE(rtc);
  EXPECT_EQ(rtc.error().code(), ErrorCode::kUnsupported);
  const std::string m = rtc.error().message();
  EXPECT_NE(m.find("NVRTC is not available"), std::string::npos) << m;
  EXPECT_NE(m.find("/nonexistent/libnvrtc.so.13"), std::string::npos) << m;
}

TEST(NvrtcLoader, WrongLibraryNamesTheMissingFunction) {
  auto rtc = openNvrtc({"libm.so.6"});
  ASSERT_FALSE(rtc);
  EXPECT_NE(rtc.error().message().find("lacks the function nvrtcVersion"), std::string::npos)
      << rtc.error().message();
}

}  // namespace
}  // namespace passlab::exec::cuda
