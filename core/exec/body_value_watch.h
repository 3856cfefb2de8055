// Values of If/Loop/Scan bodies seen as a run computes them (calibration of
// the values inside subgraphs for quantize_static, #25). A body's values are
// no graph outputs and are dropped after their last reader, so the run hands
// each one it was asked for to the watch of the thread running it. Included
// only by the interpreter and the calibration (a small header of its own, so
// that it rebuilds little).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/exec/value.h"
#include "core/support/error.h"

namespace passlab::exec {

// While it lives, every run of a subgraph body on the calling thread (an If
// branch taken, each Loop iteration, each Scan step) hands `see` the values
// named in `names` (with their index there): the body's inputs when it
// starts, each step's outputs after the step. An error `see` returns stops
// the run with it. Values of the main graph are not handed over (expose
// them as graph outputs). Watches nest: the newest one sees.
class BodyValueWatch {
 public:
  using See = std::function<Status(size_t index, const Value& value)>;
  BodyValueWatch(std::unordered_map<std::string, size_t> names, See see)
      : names_(std::move(names)), see_(std::move(see)), previous_(current()) {
    current() = this;
  }
  ~BodyValueWatch() { current() = previous_; }
  BodyValueWatch(const BodyValueWatch&) = delete;
  BodyValueWatch& operator=(const BodyValueWatch&) = delete;

  // The calling thread's watch, or nullptr.
  static BodyValueWatch*& current() {
    static thread_local BodyValueWatch* watch = nullptr;
    return watch;
  }
  // A body computed `value`, named `name`.
  Status saw(const std::string& name, const Value& value) const {
    auto it = names_.find(name);
    return it == names_.end() ? Status::ok() : see_(it->second, value);
  }

 private:
  std::unordered_map<std::string, size_t> names_;
  See see_;
  BodyValueWatch* previous_;
};

}  // namespace passlab::exec
