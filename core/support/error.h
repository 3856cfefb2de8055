// Error values that name the problem. Core code reports recoverable failures
// (bad input, unsupported models) with Expected<T>/Status, never by crashing.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "core/support/text.h"

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
  Error(ErrorCode code, Text message)
      : code_(code), text_(std::move(message)), message_(text_.str()) {}
  ErrorCode code() const { return code_; }
  // The message in English, and structured (for translation).
  const std::string& message() const { return message_; }
  const Text& text() const { return text_; }
  // Returns a copy whose message is prefixed with `context: `.
  Error withContext(const Text& context) const {
    return Error(code_, Text::of("%1: %2", context, text_));
  }

 private:
  ErrorCode code_;
  Text text_;
  std::string message_;
};

// Status: success or an Error. A success holds no Error at all, so the many
// Status values that say "ok" cost nothing to make.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error e) : error_(std::move(e)) {}  // NOLINT(google-explicit-constructor)
  static Status ok() { return Status(); }
  bool isOk() const { return !error_.has_value(); }
  explicit operator bool() const { return isOk(); }
  const Error& error() const {
    assert(error_);
    return *error_;
  }
  // The error's message and text; empty for a success.
  const std::string& message() const {
    static const std::string kNone;
    return error_ ? error_->message() : kNone;
  }
  const Text& text() const {
    static const Text kNone;
    return error_ ? error_->text() : kNone;
  }

 private:
  std::optional<Error> error_;
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

inline Error invalidArgument(Text m) {
  return {ErrorCode::kInvalidArgument, std::move(m)};
}
inline Error parseError(Text m) {
  return {ErrorCode::kParse, std::move(m)};
}
inline Error invalidModel(Text m) {
  return {ErrorCode::kInvalidModel, std::move(m)};
}
inline Error unsupported(Text m) {
  return {ErrorCode::kUnsupported, std::move(m)};
}
inline Error ioError(Text m) {
  return {ErrorCode::kIo, std::move(m)};
}
inline Error limitError(Text m) {
  return {ErrorCode::kLimit, std::move(m)};
}
inline Error internalError(Text m) {
  return {ErrorCode::kInternal, std::move(m)};
}

}  // namespace passlab

// Propagates a failed Status/Expected from the enclosing function.
#define PASSLAB_RETURN_IF_ERROR(expr)                            \
  do {                                                           \
    auto passlab_status_ = (expr);                               \
    if (!passlab_status_.isOk()) return passlab_status_.error(); \
  } while (0)
