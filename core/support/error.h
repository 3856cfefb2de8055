// Error values that name the problem. Core code reports recoverable failures
// (bad input, unsupported models) with Expected<T>/Status, never by crashing.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace passlab {

enum class ErrorCode {
  kInvalidArgument,  // caller passed something wrong
  kParse,            // bytes that are not what they claim to be
  kInvalidModel,     // a model that breaks a rule of ONNX
  kUnsupported,      // valid, but PassLab cannot do it
  kIo,               // file system
  kLimit,            // a configured limit (memory, size, iterations) was hit
  kCancelled,
  kInternal,
};

class Error {
 public:
  Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // Returns a copy whose message is prefixed with `context: `.
  Error withContext(const std::string& context) const {
    return Error(code_, context + ": " + message_);
  }

 private:
  ErrorCode code_;
  std::string message_;
};

// Status: success or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error e) : error_(std::move(e)), ok_(false) {}  // NOLINT(google-explicit-constructor)
  static Status ok() { return Status(); }
  bool isOk() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const {
    assert(!ok_);
    return error_;
  }
  const std::string& message() const { return error_.message(); }

 private:
  Error error_{ErrorCode::kInternal, ""};
  bool ok_ = true;
};

// Expected<T>: a value or an Error (C++23's std::expected is not in C++20).
template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Expected(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
  bool isOk() const { return v_.index() == 0; }
  explicit operator bool() const { return isOk(); }
  T& value() & {
    assert(isOk());
    return std::get<0>(v_);
  }
  const T& value() const& {
    assert(isOk());
    return std::get<0>(v_);
  }
  T&& value() && {
    assert(isOk());
    return std::get<0>(std::move(v_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const Error& error() const {
    assert(!isOk());
    return std::get<1>(v_);
  }
  Status status() const { return isOk() ? Status() : Status(error()); }

 private:
  std::variant<T, Error> v_;
};

inline Error invalidArgument(std::string m) {
  return {ErrorCode::kInvalidArgument, std::move(m)};
}
inline Error parseError(std::string m) {
  return {ErrorCode::kParse, std::move(m)};
}
inline Error invalidModel(std::string m) {
  return {ErrorCode::kInvalidModel, std::move(m)};
}
inline Error unsupported(std::string m) {
  return {ErrorCode::kUnsupported, std::move(m)};
}
inline Error ioError(std::string m) {
  return {ErrorCode::kIo, std::move(m)};
}
inline Error limitError(std::string m) {
  return {ErrorCode::kLimit, std::move(m)};
}
inline Error internalError(std::string m) {
  return {ErrorCode::kInternal, std::move(m)};
}

}  // namespace passlab

// Propagates a failed Status/Expected from the enclosing function.
#define PASSLAB_RETURN_IF_ERROR(expr)                            \
  do {                                                           \
    auto passlab_status_ = (expr);                               \
    if (!passlab_status_.isOk()) return passlab_status_.error(); \
  } while (0)
