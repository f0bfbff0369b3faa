#include "app/command_line.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <set>

#include "bfs/registry.hpp"
#include "core/cli_decimal.hpp"
#include "core/error.hpp"

namespace g500 {
namespace {

constexpr int kMaxScale = 42;

// Returns --scale and --edgefactor, which a graph file replaces.
std::pair<CLI::Option*, CLI::Option*> add_graph_options(CLI::App& app, int& scale, int& edgefactor,
                                                        std::uint64_t& seed) {
  CLI::Option* s = app.add_option("-s,--scale", scale, "log2 of the number of vertices (1..42)")
                       ->capture_default_str()->transform(decimal<int>());
  CLI::Option* e = app.add_option("-e,--edgefactor", edgefactor, "edge tuples per vertex (>= 1)")
                       ->capture_default_str()->transform(decimal<int>());
  app.add_option("--seed", seed, "seed of the generator and of the root choice (0 .. 2^64-1)")
      ->capture_default_str()->transform(decimal<std::uint64_t>());
  return {s, e};
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

  CLI::App app{"g500: the Graph500 benchmark (generator, kernel 1, BFS kernel 2, SSSP kernel 3, validation, "
               "statistics).\n"
               "Run under MPI: mpirun -np N g500 --scale S",
               "g500"};
  app.set_help_flag("-h,--help", "print this help and exit");
  bool version = false;
  app.add_flag("--version", version, "print the version and build options (engines, CUDA, MPI) and exit");
  const auto [scale_option, edgefactor_option] = add_graph_options(app, run.scale, run.edgefactor, run.seed);
  app.add_option("--input", run.input_path,
                 "read the graph from this file instead of generating it (docs/formats.md: binary, text edge "
                 "list, Matrix Market)")
      ->excludes(scale_option)->excludes(edgefactor_option);
  app.add_option("--input-weights", run.input_weights,
                 "the weights of a binary --input (what g500 generate --weights writes), for SSSP");
  app.add_option("--format", run.input_format, "format of --input: auto (from the extension), binary, edgelist, mtx")
      ->capture_default_str()->check(CLI::IsMember({"auto", "binary", "edgelist", "mtx"}));
  app.add_option("--root", run.root_ids,
                 "search from this vertex (repeatable; the graph's own ids, so from 1 in Matrix Market files) "
                 "instead of --roots chosen by the seed")
      ->transform(decimal<vertex_t>())->allow_extra_args(false);
  app.add_option("--roots-file", run.roots_file, "search from the vertices listed in this file, one id a line");
  const std::map<std::string, Relabel> relabel_modes = {
      {"auto", Relabel::automatic}, {"on", Relabel::on}, {"off", Relabel::off}};
  app.add_option("--relabel", run.relabel,
                 "renumber --input's ids 0..N-1 in id order: on, off, or auto (when the largest id exceeds four "
                 "times the tuple count); results keep the file's ids")
      ->transform(CLI::CheckedTransformer(relabel_modes))->default_str("auto");
  app.add_option("-n,--roots", run.roots, "number of BFS roots (>= 1)")->capture_default_str()->transform(decimal<int>());
  std::string engines_help = "BFS engine:";
  for (const EngineSpec& e : engine_table()) engines_help += "\n  " + e.name + ": " + e.help;
  app.add_option("--bfs", run.bfs.engine, engines_help)->capture_default_str();
  // Every engine's option groups, each once.
  std::set<const OptionGroup*> groups;
  for (const EngineSpec& e : engine_table())
    for (const OptionGroup* g : e.option_groups)
      if (groups.insert(g).second) g->add(app, run.bfs);
  std::vector<std::string> kernels = {"bfs"};
  app.add_option("--kernels", kernels, "kernels to run over the roots, comma-separated: bfs (kernel 2), sssp (kernel 3)")
      ->delimiter(',')->check(CLI::IsMember({"bfs", "sssp"}))->default_str("bfs");
  app.add_option("--delta", run.kernels.delta, "SSSP: delta-stepping bucket width (the reference's 0.1)")
      ->capture_default_str();
  app.add_option("--validation-batch", run.kernels.bfs_validation_batch,
                 "BFS searches validated together, with one pass over the tuples: faster by up to that factor, "
                 "for a byte per vertex per search on every rank")
      ->capture_default_str()->check(CLI::Range(1, 16))->transform(decimal<int>());
  app.add_flag("--skip-validation", run.skip_validation, "do not validate (the output is then marked not valid)");
  app.add_option("--json", run.json_path, "write every figure of the run to this JSON file");
  app.add_option("--output", run.output_path,
                 "write every search's tree: each reached vertex with its parent and depth (distance for SSSP)");
  const std::map<std::string, bool> output_formats = {{"text", false}, {"binary", true}};
  app.add_option("--output-format", run.output_binary, "--output as text lines or 40-byte binary records (docs/formats.md)")
      ->transform(CLI::CheckedTransformer(output_formats))->default_str("text");
  app.add_flag("--comm-matrix", run.comm_matrix, "also write kernel 2's source x destination bytes to the JSON");
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

  if (version) {
    cmd.kind = Command::Kind::version;
    return cmd;
  }
  if (generate->parsed()) {
    cmd.kind = Command::Kind::generate;
    check_graph_options(gen.scale, gen.edgefactor);
    return cmd;
  }
  check_graph_options(run.scale, run.edgefactor);
  run.kernels.bfs = std::find(kernels.begin(), kernels.end(), "bfs") != kernels.end();
  run.kernels.sssp = std::find(kernels.begin(), kernels.end(), "sssp") != kernels.end();
  if (!(run.kernels.delta > 0) || !std::isfinite(run.kernels.delta)) {
    throw UserError("--delta must be a positive number, got " + std::to_string(run.kernels.delta));
  }
  if (run.roots < 1) throw UserError("--roots must be at least 1, got " + std::to_string(run.roots));
  for (const OptionGroup* g : find_engine(run.bfs.engine).option_groups) g->check(run.bfs);
  return cmd;
}

}  // namespace g500
