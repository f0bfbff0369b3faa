#include "app/options.hpp"

#include <CLI/CLI.hpp>

#include "core/error.hpp"

namespace g500 {
namespace {

constexpr int kMaxScale = 42;

void add_graph_options(CLI::App& app, int& scale, int& edgefactor, std::uint64_t& seed) {
  app.add_option("-s,--scale", scale, "log2 of the number of vertices (1..42)")->capture_default_str();
  app.add_option("-e,--edgefactor", edgefactor, "edge tuples per vertex (>= 1)")->capture_default_str();
  app.add_option("--seed", seed, "seed of the generator and of the root choice")->capture_default_str();
}

void check_graph_options(int scale, int edgefactor) {
  if (scale < 1 || scale > kMaxScale) {
    throw UserError("--scale must be between 1 and " + std::to_string(kMaxScale) + ", got " + std::to_string(scale));
  }
  if (edgefactor < 1) throw UserError("--edgefactor must be at least 1, got " + std::to_string(edgefactor));
  if (static_cast<double>(edgefactor) * std::ldexp(1.0, scale) > 9.0e18) {
    throw UserError("--edgefactor " + std::to_string(edgefactor) + " at SCALE " + std::to_string(scale) +
                    " gives more than 2^63 edges");
  }
}

// CLI11's messages can span lines; keep the first, as one line.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

Command parse_command_line(int argc, const char* const* argv) {
  Command cmd;
  RunOptions& run = cmd.run;
  GenerateOptions& gen = cmd.generate;

  CLI::App app{"g500: the Graph500 benchmark (generator, kernel 1, BFS kernel 2, validation, statistics).\n"
               "Run under MPI: mpirun -np N g500 --scale S",
               "g500"};
  app.set_help_flag("-h,--help", "print this help and exit");
  add_graph_options(app, run.scale, run.edgefactor, run.seed);
  app.add_option("-n,--roots", run.roots, "number of BFS roots (>= 1)")->capture_default_str();
  std::string engines;
  for (const auto& e : engine_names()) engines += (engines.empty() ? "" : "|") + e;
  app.add_option("--bfs", run.bfs.engine, "BFS engine: " + engines)->capture_default_str();
  app.add_option("--alpha", run.bfs.alpha, "direction switch: go bottom-up when frontier edges > unexplored / alpha")
      ->capture_default_str();
  app.add_option("--beta", run.bfs.beta, "direction switch: back to top-down when frontier < N / beta")
      ->capture_default_str();
  app.add_option("--summary-granularity", run.bfs.summary_granularity,
                 "frontier bits per summary bit (power of two)")->capture_default_str();
  app.add_flag("--skip-validation", run.skip_validation, "do not validate (the output is then marked not valid)");
  app.add_option("--json", run.json_path, "write every figure of the run to this JSON file");
  app.add_flag("-q,--quiet", run.quiet, "no progress on stderr");
  // Not in --help: lets the tests watch a validation failure end to end.
  app.add_flag("--inject-fault", run.inject_fault, "testing aid: drop the root from its own tree before validating")->group("");

  CLI::App* generate = app.add_subcommand("generate", "write the Kronecker edge list to a file");
  add_graph_options(*generate, gen.scale, gen.edgefactor, gen.seed);
  generate->add_option("-o,--output", gen.output, "edge file: little-endian int64 pairs (docs/formats.md)")->required();
  generate->add_option("--weights", gen.weights_output, "also write edge weights: little-endian float32 per edge");
  generate->add_flag("-q,--quiet", gen.quiet, "no progress on stderr");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    cmd.kind = Command::Kind::help;
    cmd.help_text = app.help();
    return cmd;
  } catch (const CLI::ParseError& e) {
    throw UserError(first_line(e.what()));
  }

  if (generate->parsed()) {
    cmd.kind = Command::Kind::generate;
    check_graph_options(gen.scale, gen.edgefactor);
    return cmd;
  }
  check_graph_options(run.scale, run.edgefactor);
  if (run.roots < 1) throw UserError("--roots must be at least 1, got " + std::to_string(run.roots));
  const auto names = engine_names();
  if (std::find(names.begin(), names.end(), run.bfs.engine) == names.end()) {
    throw UserError("unknown BFS engine '" + run.bfs.engine + "' (known: " + engines + ")");
  }
  if (!(run.bfs.alpha > 0)) throw UserError("--alpha must be positive");
  if (!(run.bfs.beta > 0)) throw UserError("--beta must be positive");
  const int g = run.bfs.summary_granularity;
  if (g < 1 || g > (1 << 20) || (g & (g - 1)) != 0) {
    throw UserError("--summary-granularity must be a power of two between 1 and 2^20, got " + std::to_string(g));
  }
  return cmd;
}

}  // namespace g500
