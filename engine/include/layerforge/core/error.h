#pragma once
// One exception type crosses the engine boundary. Its kind decides the CLI exit code:
// bad input or usage -> 2, anything that failed while running -> 1.
#include <stdexcept>
#include <string>

namespace lf {

enum class ErrorKind { Input, Runtime };

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const { return kind_; }

private:
    ErrorKind kind_;
};

inline Error input_error(const std::string& m) { return Error(ErrorKind::Input, m); }
inline Error runtime_error(const std::string& m) { return Error(ErrorKind::Runtime, m); }

}  // namespace lf
