#include "core/support/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace passlab::log {

spdlog::logger& logger() {
  static std::shared_ptr<spdlog::logger> instance = [] {
    auto existing = spdlog::get("passlab");
    if (existing) return existing;
    auto l = spdlog::stderr_color_mt("passlab");
    l->set_level(spdlog::level::warn);
    l->set_pattern("[%l] %v");
    return l;
  }();
  return *instance;
}

void setLevel(spdlog::level::level_enum level) {
  logger().set_level(level);
}

}  // namespace passlab::log
