#include "tests/e2e/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

extern char** environ;

namespace gorank::e2e {
namespace {

std::vector<char*> Argv(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const std::string& a : argv) out.push_back(const_cast<char*>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

pid_t Spawn(const std::vector<std::string>& argv, const std::string& out_path,
            const std::string& err_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (err_path == out_path) {
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  } else {
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
  }
  pid_t pid = -1;
  std::vector<char*> args = Argv(argv);
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) != 0)
    pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

int WaitFor(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RunResult Run(const std::vector<std::string>& argv,
              const std::string& scratch) {
  RunResult r;
  const pid_t pid = Spawn(argv, scratch + ".out", scratch + ".err");
  if (pid < 0) return r;
  r.exit_code = WaitFor(pid);
  r.out = ReadFile(scratch + ".out");
  r.err = ReadFile(scratch + ".err");
  return r;
}

Child::Child(const std::vector<std::string>& argv, const std::string& log_path)
    : pid_(Spawn(argv, log_path, log_path)) {}

Child::~Child() {
  if (running()) {
    kill(pid_, SIGKILL);
    Wait();
  }
}

void Child::Signal(int sig) {
  if (running()) kill(pid_, sig);
}

int Child::Wait() {
  if (pid_ > 0 && !reaped_) {
    exit_code_ = WaitFor(pid_);
    reaped_ = true;
  }
  return exit_code_;
}

}  // namespace gorank::e2e
