#pragma once
// Wall-clock stopwatch, started on construction. Read through clock_gettime(CLOCK_MONOTONIC): under
// SimGrid's SMPI (g500-smpi) that call is the simulated clock, so every time g500 reports is the
// simulated one there, with no other change.
#include <time.h>

namespace g500 {

class Timer {
 public:
  Timer() : start_(now()) {}
  void restart() { start_ = now(); }
  double seconds() const { return now() - start_; }

 private:
  static double now() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  double start_;
};

}  // namespace g500
