#pragma once
// How far this process is through the current pass over its tuples, for progress lines on long
// phases. Every pass over an edge source reports here (graph/edge_source.hpp); the harness listens
// on rank 0 while it names the phase (harness/progress.hpp), and nobody listens otherwise.
#include <cstdint>

namespace g500 {

class PassListener {
 public:
  virtual ~PassListener() = default;
  // `done` of `total` tuples of this pass are through; a pass starts again from 0.
  virtual void pass_advanced(std::int64_t done, std::int64_t total) = 0;
};

inline PassListener*& pass_listener() {
  static PassListener* listener = nullptr;
  return listener;
}

inline void report_pass(std::int64_t done, std::int64_t total) {
  if (PassListener* l = pass_listener()) l->pass_advanced(done, total);
}

}  // namespace g500
