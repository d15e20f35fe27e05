#include "tests/e2e/rankd_instance.h"

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

namespace gorank::e2e {
namespace {

int PortAfter(const std::string& log, const std::string& marker) {
  const size_t at = log.find(marker);
  return at == std::string::npos ? 0
                                 : std::atoi(log.c_str() + at + marker.size());
}

}  // namespace

std::string RankdInstance::Start(const std::string& rankd_path,
                                 const std::string& db,
                                 const std::string& log) {
  child_ = std::make_unique<Child>(
      std::vector<std::string>{rankd_path, "--db", db, "--listen",
                               "127.0.0.1:0", "--http-listen", "127.0.0.1:0"},
      log);
  if (!child_->started()) return "rankd did not start";
  for (int attempt = 0; attempt < 500; ++attempt) {
    const std::string text = ReadFile(log);
    grpc_port_ = PortAfter(text, "rankd serving on port ");
    http_port_ = PortAfter(text, "public web page on http://127.0.0.1:");
    if (grpc_port_ > 0 && http_port_ > 0) return "";
    if (!child_->running()) return "rankd exited:\n" + text;
    std::this_thread::sleep_for(
        std::chrono::milliseconds(20));  // bounded poll of the log
  }
  return "rankd never logged its ports:\n" + ReadFile(log);
}

int RankdInstance::Stop() {
  if (!child_ || !child_->running()) return -1;
  child_->Signal(SIGTERM);
  return child_->Wait();
}

}  // namespace gorank::e2e
