// Logging through spdlog. Core code logs to the "passlab" logger; the CLI and
// GUI choose sinks and level.
#pragma once

#include <spdlog/spdlog.h>

namespace passlab::log {

// The shared logger (created on first use, stderr sink, level "warn").
spdlog::logger& logger();
void setLevel(spdlog::level::level_enum level);

}  // namespace passlab::log
