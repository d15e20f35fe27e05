// Running the real binaries from a test: a child process with its output
// captured to files (posix_spawn), waiting for it, and signalling it.
#ifndef GORANK_TESTS_E2E_PROCESS_H_
#define GORANK_TESTS_E2E_PROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace gorank::e2e {

struct RunResult {
  int exit_code = -1;  // -1 when killed by a signal
  std::string out;
  std::string err;
};

// Runs `argv` (argv[0] is the path) to completion. stdout and stderr go to
// `<scratch>.out` / `<scratch>.err` and are returned.
RunResult Run(const std::vector<std::string>& argv, const std::string& scratch);

// A long-running child whose stdout and stderr both go to `log_path`.
class Child {
 public:
  Child(const std::vector<std::string>& argv, const std::string& log_path);
  ~Child();  // SIGKILLs a child still running
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  bool started() const { return pid_ > 0; }
  // Sends `sig`; then Wait() returns the exit code (-1 after a signal death).
  void Signal(int sig);
  int Wait();
  bool running() const { return pid_ > 0 && !reaped_; }

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int exit_code_ = -1;
};

std::string ReadFile(const std::string& path);

}  // namespace gorank::e2e

#endif  // GORANK_TESTS_E2E_PROCESS_H_
