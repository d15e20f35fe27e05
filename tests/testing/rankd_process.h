// Running the real binaries from a test (POSIX): one-shot commands with their
// output (RunProgram, RunCombined), a long-running child whose output a thread
// drains into memory and, when asked, a log file (Child), and the real rankd
// on a database and 127.0.0.1:0 (RankdProcess): its port is read from its own
// "rankd serving on port N" line as the line arrives on the pipe (no polling,
// no sleeps; every wait is bounded), stopped with SIGTERM (or SIGKILL), its
// log kept. The one launcher for every test folder.
#ifndef GORANK_TESTS_TESTING_RANKD_PROCESS_H_
#define GORANK_TESTS_TESTING_RANKD_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

namespace gorank::testing {

struct RunResult {
  int exit_code = -1;  // -1 when killed by a signal or not started
  std::string out;
  std::string err;
};

// Runs `argv` (argv[0] is the program's path) to completion with stdin on
// /dev/null. stdout and stderr go to `<scratch>.out` / `<scratch>.err` and
// are returned.
RunResult RunProgram(const std::vector<std::string>& argv,
                     const std::string& scratch);

// Runs `argv` to completion; stdout and stderr interleaved in `out` (`err`
// is empty; "cannot start ..." when the program could not be run).
RunResult RunCombined(const std::vector<std::string>& argv);

// The whole file at `path` ("" when it cannot be read).
std::string ReadFile(const std::string& path);

// A long-running child: stdin on /dev/null, stdout and stderr on one pipe
// that a thread drains into output() (and appends to `log_path` when not
// empty). `env` entries "NAME=value" are set, "NAME" alone is unset, in the
// child's copy of this process's environment. The child is SIGKILLed if the
// test process dies (PR_SET_PDEATHSIG) and by the destructor when it still
// runs. Not thread-safe except output() and WaitForOutput().
class Child {
 public:
  explicit Child(const std::vector<std::string>& argv,
                 const std::string& log_path = "",
                 const std::vector<std::string>& env = {});
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  bool started() const { return pid_ > 0; }
  // True until the child has exited (checked without blocking).
  bool running();
  // Sends `sig` to a child not yet reaped.
  void Signal(int sig);
  // Waits for the exit and for the end of its output; returns the exit code
  // (-1 after a death by signal). Later calls return the same.
  int Wait();
  // The raw waitpid status, once Wait() returned.
  int status() const { return status_; }
  // Everything the child wrote so far.
  std::string output();
  // Waits at most `timeout` until output() matches `pattern`; false when the
  // output ended (the child exited) or the time passed first. `*groups`
  // receives the match and its groups when not null.
  bool WaitForOutput(const std::regex& pattern,
                     std::chrono::milliseconds timeout,
                     std::vector<std::string>* groups = nullptr);

 private:
  void Drain(int fd);

  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
  std::thread drain_;
  std::ofstream log_;  // written by drain_ only
  std::mutex mu_;
  std::condition_variable cv_;
  std::string output_;  // guarded by mu_
  bool eof_ = false;    // guarded by mu_
};

struct RankdOptions {
  std::string db;                  // --db (a path or a postgresql:// URL)
  std::vector<std::string> flags;  // after --db DB --listen 127.0.0.1:0
  // Also --http-listen 127.0.0.1:0; Start waits for the web page's port too.
  bool web = false;
  std::string log_path;          // the output also goes there ("": memory)
  std::vector<std::string> env;  // as for Child
  std::chrono::milliseconds timeout = std::chrono::seconds(60);
};

// One real rankd. Not thread-safe except output().
class RankdProcess {
 public:
  RankdProcess() = default;
  // Starts `binary --db DB --listen 127.0.0.1:0 [--http-listen 127.0.0.1:0]
  // FLAGS...` and waits (at most options.timeout) for its "serving on port N"
  // line (and its "public web page on http://127.0.0.1:N" line with `web`).
  // Returns "" once it serves, else what went wrong followed by its output.
  // A rankd started before by this object must have been stopped.
  std::string Start(const std::string& binary, const RankdOptions& options);

  int port() const { return port_; }
  int http_port() const { return http_port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  bool running() { return child_ && child_->running(); }
  // rankd's output so far (its whole log once Wait() returned).
  std::string output() { return child_ ? child_->output() : ""; }
  // Waits (bounded) until rankd's output matches `pattern`.
  bool WaitForOutput(const std::regex& pattern,
                     std::chrono::milliseconds timeout);
  void Signal(int sig);
  // Waits for the exit; the exit code (-1 after a signal, or never started).
  int Wait();
  // The raw waitpid status after Wait().
  int status() const { return child_ ? child_->status() : 0; }
  // SIGTERM (unless it already exited), then Wait(); -1 when never started.
  int Stop();
  // SIGKILL, then Wait().
  int Kill();

 private:
  std::unique_ptr<Child> child_;
  int port_ = 0;
  int http_port_ = 0;
};

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_RANKD_PROCESS_H_
