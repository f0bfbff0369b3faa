#pragma once
// What the harness's timed loop asks of a kernel's validation, the same for kernel 2, kernel 3 and
// --skip-validation's edge count: each search kept as it ends, a batch of them checked with one
// pass over the tuples. A validator reads each search's result where it was pointed when made (the
// kernel's parents, and distances), so the loop passes only the root.
#include <vector>

#include "core/types.hpp"
#include "validate/failure.hpp"

namespace g500 {

class SearchValidator {
 public:
  virtual ~SearchValidator() = default;
  // Searches per pass over the tuples.
  virtual int batch() const = 0;
  // Collective. Keeps the search just ended for the batch's check; at most batch() - 1 wait.
  virtual void wait(vertex_t root) = 0;
  // Collective. Checks the batch that ends with the search just ended: each search's result in
  // the order the searches came (with the edge count alone, every result ok). The batch is empty
  // again.
  virtual std::vector<ValidationResult> check(vertex_t root) = 0;
};

}  // namespace g500
