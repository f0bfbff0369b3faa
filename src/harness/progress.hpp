#pragma once
// Progress lines on stderr from rank 0, unless --quiet.
#include <cstdarg>
#include <cstdio>

namespace g500 {

class Progress {
 public:
  explicit Progress(bool enabled) : enabled_(enabled) {}
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

}  // namespace g500
