// The real rankd and rankctl binaries driven from a test: rankd as a child
// process whose output is drained by a thread (so readiness is awaited on
// its "rankd serving on port N" line, never by sleeping), and one-shot
// rankctl runs with their combined output. Test-only; POSIX.
#ifndef GORANK_TESTS_AUDIT_RANKD_PROCESS_H_
#define GORANK_TESTS_AUDIT_RANKD_PROCESS_H_

#include <sys/types.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gorank::audit {

struct CommandResult {
  int exit_code = -1;  // -1 when killed by a signal or not started
  std::string output;  // stdout and stderr interleaved
};

// Runs `argv` (argv[0] is the program's path) to completion.
CommandResult RunCommand(const std::vector<std::string>& argv);

// One rankd child. Not thread-safe (owned by one test).
class RankdProcess {
 public:
  // Starts `rankd_path --db DB --listen 127.0.0.1:0 --log-level info
  // [extra_args...]` and waits (at most `timeout_seconds`) for it to log its
  // port. port() is 0 when it did not come up; output() says why.
  RankdProcess(const std::string& rankd_path, const std::string& db_path,
               int timeout_seconds = 30,
               const std::vector<std::string>& extra_args = {});
  ~RankdProcess();  // SIGKILLs a child still running
  RankdProcess(const RankdProcess&) = delete;
  RankdProcess& operator=(const RankdProcess&) = delete;

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string output();
  // SIGTERM, then waits for the exit; returns the exit code (-1: signal).
  int Stop();

 private:
  void Drain(int fd);

  pid_t pid_ = -1;
  int port_ = 0;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string output_;  // guarded by mu_
  bool eof_ = false;    // guarded by mu_
};

}  // namespace gorank::audit

#endif  // GORANK_TESTS_AUDIT_RANKD_PROCESS_H_
