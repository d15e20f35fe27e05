#include "tests/testing/rankd_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

extern char** environ;

namespace gorank::testing {
namespace {

// This process's environment with `changes` applied ("NAME=value" sets,
// "NAME" unsets).
std::vector<std::string> Environment(const std::vector<std::string>& changes) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  for (const std::string& change : changes) {
    const std::string name = change.substr(0, change.find('='));
    std::erase_if(env, [&](const std::string& e) {
      return e.compare(0, name.size() + 1, name + "=") == 0;
    });
    if (change.find('=') != std::string::npos) env.push_back(change);
  }
  return env;
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Forks and execs `argv` with stdin on /dev/null and stdout/stderr on
// `out_fd`/`err_fd`; -1 when it cannot fork. The child is SIGKILLed when this
// process dies. Every descriptor this process opens is O_CLOEXEC, so the
// child holds no other child's pipe.
pid_t Spawn(std::vector<std::string> argv, int out_fd, int err_fd,
            const std::vector<std::string>& env_changes = {}) {
  std::vector<std::string> env = Environment(env_changes);
  std::vector<char*> args = Pointers(argv);
  std::vector<char*> envp = Pointers(env);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Only async-signal-safe calls until exec.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  return pid;
}

int ExitCode(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int WaitStatus(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

int OpenOutput(const std::string& path) {
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
}

}  // namespace

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RunResult RunProgram(const std::vector<std::string>& argv,
                     const std::string& scratch) {
  RunResult r;
  const int out = OpenOutput(scratch + ".out");
  const int err = OpenOutput(scratch + ".err");
  const pid_t pid = out >= 0 && err >= 0 ? Spawn(argv, out, err) : -1;
  if (out >= 0) ::close(out);
  if (err >= 0) ::close(err);
  if (pid < 0) return r;
  r.exit_code = ExitCode(WaitStatus(pid));
  r.out = ReadFile(scratch + ".out");
  r.err = ReadFile(scratch + ".err");
  return r;
}

RunResult RunCombined(const std::vector<std::string>& argv) {
  RunResult r;
  int fds[2];
  const pid_t pid =
      ::pipe2(fds, O_CLOEXEC) == 0 ? Spawn(argv, fds[1], fds[1]) : -1;
  if (pid < 0) {
    r.out = "cannot start " + argv.at(0);
    return r;
  }
  ::close(fds[1]);
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    r.out.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  r.exit_code = ExitCode(WaitStatus(pid));
  return r;
}

Child::Child(const std::vector<std::string>& argv, const std::string& log_path,
             const std::vector<std::string>& env) {
  if (!log_path.empty()) {
    log_.open(log_path, std::ios::binary | std::ios::trunc);
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return;
  pid_ = Spawn(argv, fds[1], fds[1], env);
  ::close(fds[1]);
  if (pid_ < 0) {
    ::close(fds[0]);
    return;
  }
  drain_ = std::thread([this, fd = fds[0]] { Drain(fd); });
}

Child::~Child() {
  if (running()) ::kill(pid_, SIGKILL);
  if (started()) Wait();
}

void Child::Drain(int fd) {
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (log_.is_open()) {
      log_.write(buf, n);
      log_.flush();
    }
    std::lock_guard<std::mutex> lock(mu_);
    output_.append(buf, static_cast<size_t>(n));
    cv_.notify_all();
  }
  ::close(fd);
  std::lock_guard<std::mutex> lock(mu_);
  eof_ = true;
  cv_.notify_all();
}

bool Child::running() {
  if (!started() || reaped_) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    reaped_ = true;
    status_ = status;
    return false;
  }
  return true;
}

void Child::Signal(int sig) {
  if (started() && !reaped_) ::kill(pid_, sig);
}

int Child::Wait() {
  if (!started()) return -1;
  if (!reaped_) {
    status_ = WaitStatus(pid_);
    reaped_ = true;
  }
  if (drain_.joinable()) drain_.join();
  return ExitCode(status_);
}

std::string Child::output() {
  std::lock_guard<std::mutex> lock(mu_);
  return output_;
}

bool Child::WaitForOutput(const std::regex& pattern,
                          std::chrono::milliseconds timeout,
                          std::vector<std::string>* groups) {
  std::unique_lock<std::mutex> lock(mu_);
  std::smatch m;
  const bool found = cv_.wait_for(lock, timeout, [&] {
    return std::regex_search(output_, m, pattern) || eof_;
  }) && std::regex_search(output_, m, pattern);
  if (found && groups != nullptr) {
    groups->clear();
    for (const auto& g : m) groups->push_back(g.str());
  }
  return found;
}

std::string RankdProcess::Start(const std::string& binary,
                                const RankdOptions& options) {
  port_ = http_port_ = 0;
  std::vector<std::string> argv = {binary, "--db", options.db, "--listen",
                                   "127.0.0.1:0"};
  if (options.web) {
    argv.push_back("--http-listen");
    argv.push_back("127.0.0.1:0");
  }
  argv.insert(argv.end(), options.flags.begin(), options.flags.end());
  child_ = std::make_unique<Child>(argv, options.log_path, options.env);
  if (!child_->started()) return "cannot start " + binary;
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  auto left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
  };
  static const std::regex kServing("rankd serving on port ([0-9]+)");
  static const std::regex kWeb(
      "public web page on http://127\\.0\\.0\\.1:([0-9]+)");
  std::vector<std::string> groups;
  if (!child_->WaitForOutput(kServing, left(), &groups)) {
    return std::string(child_->running() ? "rankd never logged its port"
                                         : "rankd exited") +
           ":\n" + child_->output();
  }
  port_ = std::stoi(groups[1]);
  if (options.web) {
    if (!child_->WaitForOutput(kWeb, left(), &groups)) {
      return "rankd never logged its web page's port:\n" + child_->output();
    }
    http_port_ = std::stoi(groups[1]);
  }
  return "";
}

bool RankdProcess::WaitForOutput(const std::regex& pattern,
                                 std::chrono::milliseconds timeout) {
  return child_ && child_->WaitForOutput(pattern, timeout);
}

void RankdProcess::Signal(int sig) {
  if (child_) child_->Signal(sig);
}

int RankdProcess::Wait() { return child_ ? child_->Wait() : -1; }

int RankdProcess::Stop() {
  if (!child_) return -1;
  child_->Signal(SIGTERM);
  return child_->Wait();
}

int RankdProcess::Kill() {
  if (!child_) return -1;
  child_->Signal(SIGKILL);
  return child_->Wait();
}

}  // namespace gorank::testing
