#include "io/output_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"
#include "mpi/comm.hpp"

namespace g500::io {
namespace {

bool exists_not_regular(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

std::string reason() { return std::strerror(errno); }

// Staging files being written, removed by a catchable signal (SIGINT, SIGTERM, SIGHUP: what mpirun
// forwards when it is interrupted) before the process dies. Fixed slots, so that the handler only
// unlinks and re-raises.
constexpr int kSlots = 8;
constexpr std::size_t kPathBytes = 4096;
char g_staging[kSlots][kPathBytes];
volatile std::sig_atomic_t g_in_use[kSlots];
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The staging files, removed by the signal handler below and before mpi::abort_job ends the job
// for one rank's error (only unlink: safe in a signal handler).
void remove_staging_now() {
  for (int i = 0; i < kSlots; ++i)
    if (g_in_use[i]) unlink(g_staging[i]);
}

extern "C" void remove_staging_and_die(int sig) {
  remove_staging_now();
  std::signal(sig, SIG_DFL);
  raise(sig);
}

// Installs the handler once, where no one else has one, and the abort hook.
void install_cleanup() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  mpi::at_job_abort(remove_staging_now);
  for (const int sig : kCleanupSignals) {
    struct sigaction now;
    if (sigaction(sig, nullptr, &now) != 0 || now.sa_handler != SIG_DFL) continue;
    struct sigaction mine = {};
    mine.sa_handler = remove_staging_and_die;
    sigemptyset(&mine.sa_mask);
    sigaction(sig, &mine, nullptr);
  }
}

// The slot updates run with the cleanup signals blocked, so the handler never sees half a path.
class SignalsBlocked {
 public:
  SignalsBlocked() {
    sigset_t set;
    sigemptyset(&set);
    for (const int sig : kCleanupSignals) sigaddset(&set, sig);
    sigprocmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalsBlocked() { sigprocmask(SIG_SETMASK, &old_, nullptr); }

 private:
  sigset_t old_;
};

void remove_on_signal_impl(const std::string& path) {
  if (path.size() >= kPathBytes) return;
  install_cleanup();
  const SignalsBlocked blocked;
  for (int i = 0; i < kSlots; ++i) {
    if (g_in_use[i]) continue;
    std::memcpy(g_staging[i], path.c_str(), path.size() + 1);
    g_in_use[i] = 1;
    return;
  }
}

void forget_on_signal_impl(const std::string& path) {
  const SignalsBlocked blocked;
  for (int i = 0; i < kSlots; ++i)
    if (g_in_use[i] && path == g_staging[i]) g_in_use[i] = 0;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "host";
  std::string host(name);
  for (char& c : host)
    if (c == '/' || c == '-') c = '_';
  return host;
}

// Whether process `pid` of this host still runs: a zombie (killed, its parent not yet told) does not.
bool running(long pid) {
  if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  char stat_path[64];
  std::snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", pid);
  FILE* f = std::fopen(stat_path, "r");
  if (!f) return true;
  char line[512] = {};
  const bool read = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  const char* after_name = read ? std::strrchr(line, ')') : nullptr;  // "pid (name) state ..."
  return !(after_name && after_name[1] == ' ' && after_name[2] == 'Z');
}

// Staging files of `path` left by runs on this host whose process is gone (killed with SIGKILL,
// which nobody can catch): removed, each with a line on stderr. Others' files (a live run, another
// host of a shared file system) are left alone.
void remove_stale_staging(const std::string& path, const std::string& host) {
  const std::filesystem::path target(path);
  const std::string folder = target.has_parent_path() ? target.parent_path().string() : ".";
  const std::string prefix = target.filename().string() + ".g500-partial-" + host + "-";
  DIR* dir = opendir(folder.c_str());
  if (!dir) return;
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    // PID, or PID.g500-partial-... for a staging file of a run's own scratch name (a drop-in's TMPFILE).
    std::string digits = name.substr(prefix.size());
    const std::size_t nested = digits.find(".g500-partial-");
    if (nested != std::string::npos) digits.resize(nested);
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::stol(digits);
    if (running(pid)) continue;
    const std::string stale = (target.has_parent_path() ? folder + "/" : std::string()) + name;
    if (unlink(stale.c_str()) == 0) {
      std::fprintf(stderr, "g500: removed '%s', left by a run that was killed (process %ld is gone)\n", stale.c_str(),
                   pid);
    }
  }
  closedir(dir);
}

}  // namespace

void remove_on_signal(const std::string& path) { remove_on_signal_impl(path); }
void forget_on_signal(const std::string& path) { forget_on_signal_impl(path); }

namespace {

// Where `path` leads once its own links are followed, even to a file not made yet (a dangling link),
// with dots and repeated slashes resolved.
std::filesystem::path followed(const std::filesystem::path& path) {
  std::filesystem::path at = path;
  std::error_code ec;
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(at, ec); ++hops) {
    const std::filesystem::path to = std::filesystem::read_symlink(at, ec);
    if (ec) break;
    at = to.is_absolute() ? to : at.parent_path() / to;
  }
  const std::filesystem::path resolved = std::filesystem::weakly_canonical(at, ec);
  return ec ? at : resolved;
}

// Whether a and b are one file: the same device and inode when both exist, else the same path once
// links are followed.
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  if (stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return followed(a) == followed(b);
}

}  // namespace

void check_distinct(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& out = outputs[i];
    if (out.path.empty()) continue;
    for (const NamedPath& in : inputs) {
      if (!in.path.empty() && same_file(in.path, out.path)) {
        throw UserError(std::string(out.option) + " '" + out.path + "' is the " + in.option + " file '" + in.path +
                        "': an output must not overwrite an input");
      }
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (!outputs[j].path.empty() && same_file(outputs[j].path, out.path)) {
        throw UserError(std::string(out.option) + " '" + out.path + "' and " + outputs[j].option + " '" +
                        outputs[j].path + "' are one file: give each output a file of its own");
      }
    }
  }
}

StagedPath stage(const std::string& given, long unique) {
  // Through a symbolic link to where it points, so the rename replaces the target, not the link.
  std::error_code ec;
  const std::string path = std::filesystem::is_symlink(given, ec) ? followed(given).string() : given;
  if (exists_not_regular(path)) return {path, path, true};
  const std::string host = host_name();
  remove_stale_staging(path, host);
  StagedPath staged{path, path + ".g500-partial-" + host + "-" + std::to_string(unique), false};
  remove_on_signal(staged.write_path);
  return staged;
}

void check_writable(const std::string& path) {
  if (exists_not_regular(path)) {
    const int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd < 0) throw UserError("cannot write '" + path + "': " + reason());
    close(fd);
    return;
  }
  // A probe file beside the target: the folder must take new files, and the target stays as it is.
  const std::string probe = path + ".g500-probe-" + std::to_string(getpid());
  const int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) throw UserError("cannot write '" + path + "': " + reason());
  close(fd);
  unlink(probe.c_str());
}

void commit(const StagedPath& staged) {
  if (staged.in_place) return;
  if (std::rename(staged.write_path.c_str(), staged.final_path.c_str()) != 0) {
    const std::string why = reason();
    discard(staged);
    throw UserError("cannot write '" + staged.final_path + "': " + why);
  }
  forget_on_signal(staged.write_path);
}

void discard(const StagedPath& staged) noexcept {
  if (staged.in_place) return;
  unlink(staged.write_path.c_str());
  forget_on_signal(staged.write_path);
}

void write_text_file(const std::string& path, const std::string& content) { commit(write_text_staged(path, content)); }

StagedPath write_text_staged(const std::string& path, const std::string& content) {
  const StagedPath staged = stage(path, static_cast<long>(getpid()));
  const int fd = staged.in_place ? open(staged.write_path.c_str(), O_WRONLY)
                                 : open(staged.write_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw UserError("cannot write '" + path + "': " + reason());
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? reason() : "short write";
      close(fd);
      discard(staged);
      throw UserError("cannot write '" + path + "': " + why);
    }
    done += static_cast<std::size_t>(n);
  }
  // A full disk can surface only at fsync or close (delayed allocation, network filesystems).
  const bool synced = staged.in_place || fsync(fd) == 0;
  const std::string sync_error = synced ? "" : reason();
  const bool closed = close(fd) == 0;
  if (!synced || !closed) {
    const std::string why = synced ? reason() : sync_error;
    discard(staged);
    throw UserError("cannot write '" + path + "': " + why);
  }
  return staged;
}

}  // namespace g500::io
