#pragma once
// Progress on stderr from rank 0, unless --quiet: lines that say what the run is doing (Progress),
// and, within a long phase, how far it is (PhaseProgress).
#include <unistd.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/pass_progress.hpp"
#include "core/timer.hpp"

namespace g500 {

class Progress {
 public:
  explicit Progress(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }
  __attribute__((format(printf, 2, 3))) void say(const char* fmt, ...) const {
    if (!enabled_) return;
    std::va_list args;
    va_start(args, fmt);
    std::fputs("g500: ", stderr);
    std::vfprintf(stderr, fmt, args);
    std::fputc('\n', stderr);
    va_end(args);
  }

 private:
  bool enabled_;
};

// While it lives, a named phase: each pass over the tuples (core/pass_progress.hpp), or advanced()
// for a phase that counts its own way, prints "PHASE[, pass N]: P% after E s, about R s left" at
// most every interval() seconds, and not before the phase has run that long (short phases print
// nothing). On a terminal the line updates in place; elsewhere each is a line of its own.
class PhaseProgress : public PassListener {
 public:
  // 3 s, or $G500_PROGRESS_SECONDS (the tests set 0 to see every line of a small run).
  static double interval() {
    const char* env = std::getenv("G500_PROGRESS_SECONDS");
    return env && *env ? std::atof(env) : 3.0;
  }

  PhaseProgress(const Progress& progress, std::string phase)
      : enabled_(progress.enabled()), phase_(std::move(phase)), terminal_(isatty(STDERR_FILENO) == 1),
        interval_(interval()) {
    if (!enabled_) return;
    outer_ = pass_listener();
    pass_listener() = this;
  }
  ~PhaseProgress() override {
    if (!enabled_) return;
    pass_listener() = outer_;
    if (terminal_ && printed_) std::fputc('\n', stderr);
  }
  PhaseProgress(const PhaseProgress&) = delete;
  PhaseProgress& operator=(const PhaseProgress&) = delete;

  void pass_advanced(std::int64_t done, std::int64_t total) override {
    // Within a pass the count rises; it starts again at the next pass's first round.
    if (done <= last_done_ || passes_ == 0) {
      ++passes_;
      pass_timer_.restart();
    }
    last_done_ = done;
    show(total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0, passes_);
  }
  // A phase that is not a pass over the tuples: the share done.
  void advanced(double fraction) {
    if (enabled_) show(fraction, 0);
  }

 private:
  void show(double fraction, int pass) {
    const double elapsed = phase_timer_.seconds();
    if (elapsed < interval_ || (printed_ && elapsed - shown_at_ < interval_)) return;
    shown_at_ = elapsed;
    const double in_pass = pass > 0 ? pass_timer_.seconds() : elapsed;
    const double left = fraction > 0 ? in_pass * (1 - fraction) / fraction : 0;
    std::string what = phase_;
    if (pass > 1) what += ", pass " + std::to_string(pass);
    std::fprintf(stderr, "%sg500: %s: %.0f%% after %.1f s, about %.1f s left%s", terminal_ ? "\r" : "", what.c_str(),
                 100 * fraction, elapsed, left, terminal_ ? "\033[K" : "\n");
    std::fflush(stderr);
    printed_ = true;
  }

  bool enabled_;
  std::string phase_;
  bool terminal_;
  double interval_;
  PassListener* outer_ = nullptr;
  Timer phase_timer_, pass_timer_;
  double shown_at_ = 0;
  std::int64_t last_done_ = 0;
  int passes_ = 0;
  bool printed_ = false;
};

}  // namespace g500
