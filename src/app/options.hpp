#pragma once
// Command-line options (CLI11). Parsing is pure: it reads argv and either returns the options or
// throws UserError with a one-line message.
#include <cstdint>
#include <optional>
#include <string>

#include "bfs/engine.hpp"

namespace g500 {

struct RunOptions {
  int scale = 20;
  int edgefactor = 16;
  std::uint64_t seed = 1;
  int roots = 64;
  BfsOptions bfs;
  bool skip_validation = false;
  std::string json_path;  // empty: no JSON
  bool quiet = false;
  bool inject_fault = false;  // testing aid: break every tree before validation
};

struct GenerateOptions {
  int scale = 20;
  int edgefactor = 16;
  std::uint64_t seed = 1;
  std::string output;
  std::string weights_output;  // empty: no weights file
  bool quiet = false;
};

struct Command {
  enum class Kind { run, generate, help } kind = Kind::run;
  RunOptions run;
  GenerateOptions generate;
  std::string help_text;
};

Command parse_command_line(int argc, const char* const* argv);

}  // namespace g500
