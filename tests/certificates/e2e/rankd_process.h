// RankdProcess: the real rankd binary run as a child process for end-to-end
// tests, on a given database and 127.0.0.1:0, its output captured, the port
// read from its "rankd serving on port N" log line (no fixed ports, no
// sleeps: bounded waits on the captured output).
#ifndef GORANK_TESTS_CERTIFICATES_E2E_RANKD_PROCESS_H_
#define GORANK_TESTS_CERTIFICATES_E2E_RANKD_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace gorank::certificates {

// Not thread-safe except Output(). The destructor kills a child still
// running (SIGKILL) and reaps it.
class RankdProcess {
 public:
  RankdProcess() = default;
  ~RankdProcess();
  RankdProcess(const RankdProcess&) = delete;
  RankdProcess& operator=(const RankdProcess&) = delete;

  // Starts `binary` --db `db_path` --listen 127.0.0.1:0 and waits up to
  // `timeout` for its port. Returns the port, or 0 (with Output() telling
  // why) when it did not come up.
  int Start(const std::string& binary, const std::string& db_path,
            std::chrono::milliseconds timeout);
  // Sends `signal` to the child.
  void Signal(int signal);
  // Waits for the child to exit; returns the raw waitpid status.
  int Wait();
  // Everything the child wrote to stdout and stderr so far.
  std::string Output();

 private:
  void Drain(int fd);

  pid_t pid_ = -1;
  std::thread drain_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string output_;
  bool eof_ = false;
};

}  // namespace gorank::certificates

#endif  // GORANK_TESTS_CERTIFICATES_E2E_RANKD_PROCESS_H_
