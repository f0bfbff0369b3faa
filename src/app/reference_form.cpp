#include "app/reference_form.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "core/error.hpp"

namespace g500 {
namespace {

// A whole number as the reference's atoi reads one, less its leniency: digits after an optional sign.
bool whole_number(std::string_view text) {
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The number without a leading '+', which atoi skips and g500's options do not take.
std::string as_atoi_reads(const std::string& text) { return text.front() == '+' ? text.substr(1) : text; }

bool has(const std::vector<std::string>& args, std::string_view option) {
  return std::any_of(args.begin(), args.end(), [&](const std::string& a) {
    return a == option || (a.size() > option.size() && a.compare(0, option.size(), option) == 0 && a[option.size()] == '=');
  });
}

std::string usage(const char* name, const char* reference) {
  return std::string("usage: ") + name + " SCALE [edgefactor] [g500 options], as the reference's " + reference;
}

// The drop-ins' part: kernels, the statistics block, SKIP_BFS and TMPFILE.
void reference_program(ReferenceForm& form, const Environment& env, const std::vector<std::string>& given) {
  const bool sssp = form.persona == Persona::reference_bfs_sssp;
  const char* name = sssp ? kReferenceBfsSsspName : kReferenceBfsName;
  if (has(given, "--kernels")) {
    throw UserError(std::string(name) + " runs the reference's kernels (" + (sssp ? "bfs,sssp" : "bfs") +
                    "): use g500 --kernels to choose others");
  }
  std::string kernels = sssp ? "bfs,sssp" : "bfs";
  if (env("SKIP_BFS")) {
    if (!sssp) throw UserError("SKIP_BFS is set, which leaves " + std::string(name) + " no kernel to run");
    kernels = "sssp";
    form.notes.push_back("SKIP_BFS is set: kernel 2 (BFS) does not run, only kernel 3 (SSSP)");
  }
  form.args.insert(form.args.end(), {"--kernels", kernels});
  if (!has(given, "--stats-style")) form.args.insert(form.args.end(), {"--stats-style", "reference"});
  if (const char* file = env("TMPFILE")) {
    if (*file == '\0') throw UserError("TMPFILE is set but empty: it must name the edge file");
    if (has(given, "--input")) throw UserError("TMPFILE and --input both name the graph: give one");
    form.edge_file = file;
    if (sssp) form.weight_file = form.edge_file + ".weights";
    form.reuse_file = env("REUSEFILE") != nullptr;
    const std::string files = "'" + form.edge_file + "'" + (sssp ? " and '" + form.weight_file + "'" : "");
    form.notes.push_back(form.reuse_file ? "TMPFILE is set: the graph goes through " + files +
                                               ", kept with a record of it for later runs (REUSEFILE is set)"
                                         : "TMPFILE is set: the graph goes through files of this run's own beside " +
                                               files + " (.g500-partial-HOST-PID), removed at the end");
  }
}

}  // namespace

Persona persona_of(const char* argv0) {
  std::string_view name = argv0 ? argv0 : "";
  if (const std::size_t slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  if (name == kReferenceBfsName) return Persona::reference_bfs;
  if (name == kReferenceBfsSsspName) return Persona::reference_bfs_sssp;
  return Persona::g500;
}

ReferenceForm reference_form(int argc, const char* const* argv, const Environment& env) {
  ReferenceForm form;
  form.persona = persona_of(argc > 0 ? argv[0] : nullptr);
  form.args.emplace_back(argc > 0 ? argv[0] : "g500");
  std::vector<std::string> rest(argv + std::min(argc, 1), argv + argc);
  const bool drop_in = form.persona != Persona::g500;
  // Help, the version, `generate` and `plan` take neither the positional form nor the environment.
  const bool asks_only = !rest.empty() && (rest[0] == "-h" || rest[0] == "--help" || rest[0] == "--version" ||
                                           ((rest[0] == "generate" || rest[0] == "plan") && !drop_in));
  // SCALE [edgefactor] first, as the reference takes them; a drop-in needs SCALE, as it does.
  std::size_t positional = 0;
  if (!rest.empty() && whole_number(rest[0])) {
    form.args.insert(form.args.end(), {"--scale", as_atoi_reads(rest[0])});
    positional = 1;
    if (rest.size() > 1 && whole_number(rest[1])) {
      form.args.insert(form.args.end(), {"--edgefactor", as_atoi_reads(rest[1])});
      positional = 2;
    }
  } else if (drop_in && !asks_only) {
    const bool sssp = form.persona == Persona::reference_bfs_sssp;
    throw UserError(usage(sssp ? kReferenceBfsSsspName : kReferenceBfsName,
                          sssp ? "graph500_reference_bfs_sssp" : "graph500_reference_bfs"));
  }
  const std::vector<std::string> given(rest.begin() + static_cast<std::ptrdiff_t>(positional), rest.end());
  form.args.insert(form.args.end(), given.begin(), given.end());
  if (asks_only) return form;
  if (drop_in) reference_program(form, env, given);
  // The reference skips validation when SKIP_VALIDATION is set at all, whatever its value.
  if (const char* skip = env("SKIP_VALIDATION")) {
    if (!has(given, "--skip-validation")) form.args.emplace_back("--skip-validation");
    form.notes.push_back(std::string("SKIP_VALIDATION is set (to '") + skip +
                         "'): no search is validated, as the reference does whatever the value");
  }
  return form;
}

}  // namespace g500
