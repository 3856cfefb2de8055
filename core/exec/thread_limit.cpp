#include "core/exec/thread_limit.h"

#include <algorithm>

namespace passlab::exec {

namespace {
thread_local int tlsLimit = 0;
}  // namespace

int threadLimit() {
  return tlsLimit;
}

ScopedThreadLimit::ScopedThreadLimit(int threads) : previous_(tlsLimit) {
  tlsLimit = std::max(threads, 0);
}

ScopedThreadLimit::~ScopedThreadLimit() {
  tlsLimit = previous_;
}

}  // namespace passlab::exec
