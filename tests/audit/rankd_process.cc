#include "tests/audit/rankd_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

extern char** environ;

namespace gorank::audit {
namespace {

// Spawns `argv` with stdout and stderr on the write end of a new pipe;
// returns the pid (-1 on failure) and sets *read_fd.
pid_t SpawnPiped(const std::vector<std::string>& argv, int* read_fd) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) != 0)
    pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return -1;
  }
  *read_fd = fds[0];
  return pid;
}

int ExitCode(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv) {
  CommandResult result;
  int fd = -1;
  const pid_t pid = SpawnPiped(argv, &fd);
  if (pid < 0) {
    result.output = "cannot start " + argv.at(0);
    return result;
  }
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0)
    result.output.append(buf, static_cast<size_t>(n));
  ::close(fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = ExitCode(status);
  return result;
}

RankdProcess::RankdProcess(const std::string& rankd_path,
                           const std::string& db_path, int timeout_seconds,
                           const std::vector<std::string>& extra_args) {
  int fd = -1;
  std::vector<std::string> argv = {rankd_path, "--db",        db_path,
                                   "--listen", "127.0.0.1:0", "--log-level",
                                   "info"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  pid_ = SpawnPiped(argv, &fd);
  if (pid_ < 0) return;
  reader_ = std::thread([this, fd] { Drain(fd); });
  const std::string marker = "rankd serving on port ";
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, std::chrono::seconds(timeout_seconds), [&] {
    return eof_ || output_.find(marker) != std::string::npos;
  });
  const size_t at = output_.find(marker);
  if (at != std::string::npos)
    port_ = std::atoi(output_.c_str() + at + marker.size());
}

void RankdProcess::Drain(int fd) {
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) {
    std::lock_guard<std::mutex> lock(mu_);
    output_.append(buf, static_cast<size_t>(n));
    cv_.notify_all();
  }
  ::close(fd);
  std::lock_guard<std::mutex> lock(mu_);
  eof_ = true;
  cv_.notify_all();
}

std::string RankdProcess::output() {
  std::lock_guard<std::mutex> lock(mu_);
  return output_;
}

int RankdProcess::Stop() {
  if (pid_ < 0) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  if (reader_.joinable()) reader_.join();
  return ExitCode(status);
}

RankdProcess::~RankdProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (reader_.joinable()) reader_.join();
}

}  // namespace gorank::audit
