#pragma once
// The command line (CLI11). Parsing is pure and needs no MPI: it reads argv and either returns
// what to do or throws UserError with a one-line message, so main can pick the MPI thread level the
// chosen engine needs before MPI starts.
#include <string>

#include "harness/plan.hpp"
#include "harness/run_options.hpp"

namespace g500 {

struct Command {
  enum class Kind { run, generate, plan, help, version } kind = Kind::run;
  RunOptions run;
  GenerateOptions generate;
  PlanOptions plan;
  std::string help_text;
};

Command parse_command_line(int argc, const char* const* argv);

}  // namespace g500
