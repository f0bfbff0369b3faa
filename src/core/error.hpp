#pragma once
// Errors a user can cause (bad flags, too little memory, bad files): reported as one line, exit 1.
#include <stdexcept>
#include <string>

namespace g500 {

class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A search whose result failed validation: the run has no results to report.
class ValidationFailure : public UserError {
 public:
  using UserError::UserError;
};

}  // namespace g500
