// Typed errors and results. Bad files, bad parameters and device failures are values returned to the
// caller (who shows them to the user); programmer errors use TRESSEL_ASSERT instead.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tressel {

enum class ErrorCode {
    InvalidArgument,  // a parameter outside its documented range
    NotFound,         // a file or a named object that does not exist
    Io,               // reading or writing failed
    Parse,            // malformed or truncated content
    Unsupported,      // valid content that Tressel does not handle
    LimitExceeded,    // a request above a configured cap (memory, counts)
    OutOfMemory,      // host or device allocation failed
    DeviceLost,       // the GPU was lost or reset
    Gpu,              // any other Vulkan failure
    Cancelled,        // the user cancelled a long operation
};

const char* to_string(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::InvalidArgument;
    std::string message;  // complete sentence(s) for the user; names the file, path or parameter

    std::string describe() const { return std::string(to_string(code)) + ": " + message; }
};

inline Error make_error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

// Either a value or an Error. Small on purpose: has_value / value / error, and a void specialisation.
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : e_(std::move(error)) {}
    bool ok() const { return !e_.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return *e_; }

private:
    std::optional<Error> e_;
};

using Status = Result<void>;

[[noreturn]] void assert_fail(const char* expr, const char* file, int line, const char* how_to_fix);

}  // namespace tressel

// Programmer errors only (never file contents or user parameters). Always on. `how_to_fix` tells the
// caller what they did wrong.
#define TRESSEL_ASSERT(expr, how_to_fix) \
    ((expr) ? (void)0 : ::tressel::assert_fail(#expr, __FILE__, __LINE__, how_to_fix))

// Propagate an error from an expression returning Result<...>.
#define TRESSEL_TRY(expr)                              \
    do {                                               \
        auto&& tressel_try_r_ = (expr);                \
        if (!tressel_try_r_.ok()) return tressel_try_r_.error(); \
    } while (0)
