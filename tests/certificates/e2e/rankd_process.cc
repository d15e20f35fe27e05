#include "tests/certificates/e2e/rankd_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <regex>
#include <vector>

namespace gorank::certificates {

RankdProcess::~RankdProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    Wait();
  }
  if (drain_.joinable()) drain_.join();
}

int RankdProcess::Start(const std::string& binary, const std::string& db_path,
                        std::chrono::milliseconds timeout) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return 0;
  std::vector<std::string> args = {binary, "--db", db_path, "--listen",
                                   "127.0.0.1:0"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Only async-signal-safe calls until exec.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return 0;
  }
  pid_ = pid;
  {
    std::lock_guard<std::mutex> lock(mu_);
    output_.clear();
    eof_ = false;
  }
  if (drain_.joinable()) drain_.join();
  drain_ = std::thread([this, fd = fds[0]] { Drain(fd); });

  static const std::regex kServing("rankd serving on port ([0-9]+)");
  std::unique_lock<std::mutex> lock(mu_);
  std::smatch m;
  cv_.wait_for(lock, timeout,
               [&] { return eof_ || std::regex_search(output_, m, kServing); });
  if (!std::regex_search(output_, m, kServing)) return 0;
  return std::stoi(m[1].str());
}

void RankdProcess::Drain(int fd) {
  char buf[4096];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    std::lock_guard<std::mutex> lock(mu_);
    if (n <= 0) {
      eof_ = true;
      cv_.notify_all();
      break;
    }
    output_.append(buf, static_cast<size_t>(n));
    cv_.notify_all();
  }
  ::close(fd);
}

void RankdProcess::Signal(int signal) {
  if (pid_ > 0) ::kill(pid_, signal);
}

int RankdProcess::Wait() {
  int status = 0;
  if (pid_ > 0) {
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  return status;
}

std::string RankdProcess::Output() {
  std::lock_guard<std::mutex> lock(mu_);
  return output_;
}

}  // namespace gorank::certificates
