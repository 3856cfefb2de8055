#include "core/layout/layout_engine.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "core/layout/subprocess.h"
#include "core/support/strings.h"

namespace passlab::layout {

namespace fs = std::filesystem;

namespace {

bool isExecutable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::string seconds(std::chrono::milliseconds ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(ms.count()) / 1000.0);
  return buf;
}

}  // namespace

std::string findLayoutHelper() {
  const char* env = std::getenv("PASSLAB_LAYOUT_HELPER");
  if (env != nullptr && *env != '\0') return isExecutable(env) ? env : "";
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = self.parent_path();
    for (const fs::path& candidate :
         {dir / "passlab-layout", dir / ".." / "layout" / "passlab-layout",
          dir / ".." / ".." / "app" / "layout" / "passlab-layout",
          dir / ".." / "libexec" / "passlab" / "passlab-layout"})
      if (isExecutable(candidate)) return fs::weakly_canonical(candidate, ec).string();
  }
  if (const char* path = std::getenv("PATH"))
    for (const std::string& dir : str::split(path, ':'))
      if (!dir.empty() && isExecutable(fs::path(dir) / "passlab-layout"))
        return (fs::path(dir) / "passlab-layout").string();
  return "";
}

LayoutResult computeLayout(const LayoutRequest& request, const EngineOptions& options,
                           std::stop_token stop) {
  auto started = std::chrono::steady_clock::now();
  auto fallback = [&](Fallback reason, std::string why) {
    LayoutResult r = layeredLayout(request, options.layered);
    r.fallback = reason;
    r.note = std::move(why);
    r.cancelled = reason == Fallback::kCancelled;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return r;
  };
  if (request.nodes.empty()) {
    LayoutResult r;
    r.engine = Engine::kLayered;
    return r;
  }
  if (options.prefer == EngineOptions::Prefer::kLayered) return fallback(Fallback::kChosen, "");
  if (request.nodes.size() > options.graphvizMaxNodes)
    return fallback(Fallback::kTooLarge,
                    "Graphviz skipped: " + std::to_string(request.nodes.size()) +
                        " boxes is more than the limit of " +
                        std::to_string(options.graphvizMaxNodes));
  std::string helper = options.helperPath.empty() ? findLayoutHelper() : options.helperPath;
  if (helper.empty())
    return fallback(Fallback::kHelperMissing,
                    "Graphviz helper passlab-layout not found (set PASSLAB_LAYOUT_HELPER)");

  ProcessLimits limits;
  limits.timeout = options.timeout;
  ProcessOutcome run = runProcess(helper, {}, writeDot(request, options.dot), limits, stop);
  if (run.end == ProcessOutcome::End::kCancelled)
    return fallback(Fallback::kCancelled, "Graphviz layout cancelled");
  if (run.end == ProcessOutcome::End::kTimedOut)
    return fallback(Fallback::kTimedOut,
                    "Graphviz took longer than " + seconds(options.timeout) + " and was stopped");
  if (!run.ok()) return fallback(Fallback::kHelperFailed, "Graphviz helper " + run.describe());
  auto parsed = parseLayoutAnswer(run.out, request);
  if (!parsed)
    return fallback(Fallback::kBadAnswer,
                    "Graphviz helper answered badly: " + parsed.error().message());
  LayoutResult r = std::move(parsed.value());
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace passlab::layout
