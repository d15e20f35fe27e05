// rankd_echo: a bare gRPC server with one unary RPC shaped like the public
// VerifyCertificate (bench_echo.proto). It answers every call VALID with a
// response of the same size as rankd's (the number and a masked holder name
// from the request, a grade, a date, an agency): no database, no lock, no
// call gate, no logging. It is the limit rankd's verify rate is compared
// with (tests/bench/ratios.sh).
//
//   rankd_echo [--listen 127.0.0.1:0]
//
// Prints "rankd_echo serving on port N" once it listens; serves until
// SIGINT or SIGTERM. Exit status 0 after a signal, 2 when it cannot listen.
#include <csignal>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>

#include "bench_echo.grpc.pb.h"  // generated in this folder
#include "gorank/v1/certificates.pb.h"
#include "grpcpp/grpcpp.h"

namespace gorank::bench {
namespace {

class EchoService final : public Echo::Service {
 public:
  grpc::Status VerifyCertificate(
      grpc::ServerContext* /*context*/,
      const v1::VerifyCertificateRequest* request,
      v1::VerifyCertificateResponse* response) override {
    response->set_outcome(v1::VERIFY_OUTCOME_VALID);
    response->set_number(request->number());
    response->mutable_grade()->set_notation("5k");
    response->mutable_issue_date()->set_year(2025);
    response->mutable_issue_date()->set_month(1);
    response->mutable_issue_date()->set_day(15);
    response->set_agency_prefix(request->number().substr(0, 3));
    response->set_agency_name("Echo agency");
    std::string masked = request->holder_name().substr(0, 1);
    masked += "***";
    response->set_masked_holder_name(masked);
    response->set_discipline(v1::DISCIPLINE_GO);
    return grpc::Status::OK;
  }
};

volatile std::sig_atomic_t g_stop = 0;
void OnSignal(int) { g_stop = 1; }

}  // namespace
}  // namespace gorank::bench

int main(int argc, char** argv) {
  std::string listen = "127.0.0.1:0";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--listen" && i + 1 < argc) {
      listen = argv[++i];
    } else {
      std::fprintf(stderr, "usage: rankd_echo [--listen HOST:PORT]\n");
      return 2;
    }
  }
  gorank::bench::EchoService service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(listen, grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) {
    std::fprintf(stderr, "rankd_echo: cannot listen on %s\n", listen.c_str());
    return 2;
  }
  std::printf("rankd_echo serving on port %d\n", port);
  std::fflush(stdout);
  std::signal(SIGINT, gorank::bench::OnSignal);
  std::signal(SIGTERM, gorank::bench::OnSignal);
  // The signal handler only sets a flag: poll it, then shut down here.
  while (!gorank::bench::g_stop) {
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, nullptr);
  }
  server->Shutdown();
  return 0;
}
