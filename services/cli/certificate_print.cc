// rankctl cert print: three reads over gRPC, then the PDF drawn locally.
#include "services/cli/certificate_print.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>

#include "gorank/v1/audit.grpc.pb.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "services/certificates/printable/certificate_pdf.h"
#include "services/certificates/printable/certificate_sheet.h"

namespace gorank::cli {
namespace {

namespace printable = certificates::printable;

struct PrintArgs {
  std::string number;
  std::string out;
  std::string verify_base = "http://127.0.0.1:8080";
};

// One unary call with the shared context; false (message printed, *exit
// set) when it fails.
template <typename Stub, typename Req, typename Resp, typename Method>
bool Call(CliContext& ctx, Stub& stub, Method method, const Req& req,
          Resp* resp, int* exit) {
  auto call = ctx.NewCall();
  if (!call) {
    *exit = kExitUsage;
    return false;
  }
  const grpc::Status s = (stub.*method)(call.get(), req, resp);
  if (!s.ok()) {
    *exit = ctx.Fail(s);
    return false;
  }
  return true;
}

// The certificate, its holder and its agency, as the server answers them.
bool Fetch(CliContext& ctx, const std::string& number,
           printable::PrintableCertificate* p, int* exit) {
  auto certs = v1::CertificateService::NewStub(ctx.Channel());
  v1::GetCertificateRequest creq;
  creq.set_number(number);
  v1::GetCertificateResponse cresp;
  if (!Call(ctx, *certs, &v1::CertificateService::Stub::GetCertificate, creq,
            &cresp, exit)) {
    return false;
  }
  const v1::Certificate& c = cresp.certificate();
  if (c.state() == v1::CERTIFICATE_STATE_REVOKED) {
    std::cerr << "rankctl: certificate " << number << " is revoked ("
              << c.revoke_reason()
              << "): a revoked certificate is not printed\n";
    *exit = kExitCallFailed;
    return false;
  }
  switch (c.grade().ladder()) {
    case v1::RANK_LADDER_KYU:
      p->ladder = printable::GradeLadder::kKyu;
      break;
    case v1::RANK_LADDER_AMATEUR_DAN:
      p->ladder = printable::GradeLadder::kAmateurDan;
      break;
    case v1::RANK_LADDER_PRO_DAN:
      p->ladder = printable::GradeLadder::kProDan;
      break;
    case v1::RANK_LADDER_GOMOKU_KYU:
      p->ladder = printable::GradeLadder::kGomokuKyu;
      break;
    case v1::RANK_LADDER_GOMOKU_DAN:
      p->ladder = printable::GradeLadder::kGomokuDan;
      break;
    default:
      std::cerr << "rankctl: certificate " << number << " has grade '"
                << c.grade().notation()
                << "', which cert print cannot lay out\n";
      *exit = kExitCallFailed;
      return false;
  }
  p->number = c.number();
  p->level = c.grade().level();
  p->year = c.issue_date().year();
  p->month = c.issue_date().month();
  p->day = c.issue_date().day();
  p->agency_prefix = c.agency_prefix();
  if (c.state() == v1::CERTIFICATE_STATE_UNDER_NOTICE)
    p->notice_until_unix = c.notice_until_unix();

  auto players = v1::PlayerRegistry::NewStub(ctx.Channel());
  v1::GetPlayerRequest preq;
  preq.set_player_id(c.player_id());
  v1::GetPlayerResponse presp;
  if (!Call(ctx, *players, &v1::PlayerRegistry::Stub::GetPlayer, preq, &presp,
            exit)) {
    return false;
  }
  p->holder_name = presp.player().name();
  p->holder_latin_name = presp.player().latin_name();

  // The signed statement the QR code carries (cert verify-offline).
  auto audit = v1::AuditService::NewStub(ctx.Channel());
  v1::GetCertificateStatementRequest sreq;
  sreq.set_number(number);
  v1::GetCertificateStatementResponse sresp;
  if (!Call(ctx, *audit, &v1::AuditService::Stub::GetCertificateStatement, sreq,
            &sresp, exit)) {
    return false;
  }
  p->statement = sresp.statement();

  auto agencies = v1::AgencyService::NewStub(ctx.Channel());
  v1::ListAgenciesResponse aresp;
  if (!Call(ctx, *agencies, &v1::AgencyService::Stub::ListAgencies,
            v1::ListAgenciesRequest(), &aresp, exit)) {
    return false;
  }
  for (const v1::Agency& a : aresp.agencies()) {
    if (a.prefix() == c.agency_prefix()) {
      p->agency_name = a.name();
      p->agency_name_en = a.name_en();
    }
  }
  return true;
}

int Print(CliContext& ctx, const PrintArgs& a) {
  if (a.out.empty()) return CliContext::Usage("--out FILE is required");
  // A bad --verify-base is a usage error, found before any call.
  if (absl::StatusOr<std::string> url =
          printable::VerifyUrl(a.verify_base, "000000000");
      !url.ok()) {
    return CliContext::Usage("--verify-base: " +
                             std::string(url.status().message()));
  }
  printable::PrintableCertificate p;
  p.verify_base = a.verify_base;
  int exit = kExitOk;
  if (!Fetch(ctx, a.number, &p, &exit)) return exit;

  absl::StatusOr<printable::CertificateSheet> sheet =
      printable::LayOutCertificate(p);
  absl::StatusOr<std::string> pdf =
      sheet.ok() ? printable::RenderCertificatePdf(*sheet) : sheet.status();
  if (!pdf.ok()) {
    std::cerr << "rankctl: cannot print certificate " << a.number << ": "
              << pdf.status().message() << "\n";
    return kExitCallFailed;
  }
  std::string error;
  if (!WriteFileAtomically(a.out, *pdf, &error)) {
    std::cerr << "rankctl: " << error << "\n";
    return kExitCallFailed;
  }
  std::cout << "wrote " << a.out << " (" << pdf->size()
            << " bytes): certificate " << p.number << ", " << sheet->grade_zh
            << ", " << p.holder_name << "; QR " << sheet->verify_url << "\n";
  return kExitOk;
}

}  // namespace

bool WriteFileAtomically(const std::string& path, const std::string& bytes,
                         std::string* error) {
  std::string tmp = path + ".tmp.XXXXXX";
  int fd = mkstemp(tmp.data());
  if (fd < 0) {
    *error =
        "cannot create a file next to " + path + ": " + std::strerror(errno);
    return false;
  }
  auto fail = [&](const char* step) {
    *error =
        "cannot write " + path + " (" + step + "): " + std::strerror(errno);
    if (fd >= 0) close(fd);
    unlink(tmp.c_str());
    return false;
  };
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail("write");
    done += static_cast<size_t>(n);
  }
  // mkstemp makes the file 0600; a printed certificate is no secret.
  if (fchmod(fd, 0644) != 0) return fail("chmod");
  if (fsync(fd) != 0) return fail("fsync");
  const int closing = fd;
  fd = -1;
  if (close(closing) != 0) return fail("close");
  if (rename(tmp.c_str(), path.c_str()) != 0) return fail("rename");
  return true;
}

void AddCertPrintCommand(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* print = cert.add_subcommand("print",
                                    "write a printable PDF of a certificate, "
                                    "with a QR code to its verification page");
  auto a = std::make_shared<PrintArgs>();
  print->add_option("number", a->number, "nine-digit number")->required();
  print
      ->add_option("--out", a->out,
                   "the PDF file to write (replaced atomically)")
      ->required();
  print
      ->add_option(
          "--verify-base", a->verify_base,
          "the public verification site (the federation's "
          "public_base_url); the QR "
          "code encodes <verify-base>/verify?number=NUMBER&s=STATEMENT "
          "(the signed statement, see cert verify-offline)")
      ->capture_default_str();
  print->callback(
      [&, a] { action = [&, a]() -> int { return Print(ctx, *a); }; });
}

}  // namespace gorank::cli
