// rankctl cert statement, cert revocations, cert verify-offline.
#include "services/cli/certificate_offline.h"

#include <iostream>

#include "gorank/v1/audit.grpc.pb.h"
#include "services/audit/certificate_statement.h"
#include "services/cli/certificate_print.h"
#include "services/cli/qr_image.h"
#include "services/cli/unary.h"

namespace gorank::cli {
namespace {

struct OfflineArgs {
  std::string key_file;
  std::string revocations_file;
  std::string image;
  std::string name;
  std::string text;
};

int VerifyOfflineCommand(const OfflineArgs& a) {
  if (a.text.empty() == a.image.empty()) {
    return CliContext::Usage(
        "give the statement TEXT (or the verify URL) or --image QR.png, "
        "not both");
  }
  absl::StatusOr<audit::VerifyingKey> key = ReadFederationKey(a.key_file);
  if (!key.ok()) return CliContext::Usage(std::string(key.status().message()));
  std::optional<audit::RevocationList> revocations;
  if (!a.revocations_file.empty()) {
    absl::StatusOr<std::string> json = ReadWholeFile(a.revocations_file);
    if (!json.ok()) {
      return CliContext::Usage(std::string(json.status().message()));
    }
    absl::StatusOr<audit::RevocationList> list =
        audit::RevocationList::FromJson(*json);
    if (!list.ok()) {
      return CliContext::Usage(a.revocations_file + ": " +
                               std::string(list.status().message()));
    }
    revocations = std::move(*list);
  }
  std::string text = a.text;
  if (!a.image.empty()) {
    absl::StatusOr<std::vector<std::string>> codes = ReadQrCodes(a.image);
    if (absl::IsNotFound(codes.status())) {
      return CliContext::Usage(std::string(codes.status().message()));
    }
    if (!codes.ok()) {
      std::cerr << "rankctl: malformed: " << codes.status().message() << "\n";
      return kExitMalformed;
    }
    // The first code that carries a statement (a page may hold others).
    text = codes->front();
    for (const std::string& code : *codes) {
      if (audit::ParseStatement(code).ok()) {
        text = code;
        break;
      }
    }
  }
  const OfflineVerdict v = VerifyOffline(text, *key, revocations, a.name);
  (v.exit == kExitOk ? std::cout : std::cerr)
      << (v.exit == kExitOk ? "" : "rankctl: ") << v.text << "\n";
  return v.exit;
}

void AddStatement(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* cmd = cert.add_subcommand(
      "statement",
      "print a certificate's signed statement (what its QR code carries)");
  auto number = std::make_shared<std::string>();
  cmd->add_option("number", *number, "nine-digit number")->required();
  cmd->callback([&, number] {
    action = [&, number]() -> int {
      v1::GetCertificateStatementRequest req;
      req.set_number(*number);
      return Unary<v1::AuditService, v1::GetCertificateStatementResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetCertificateStatement(c, req, resp);
          },
          [](const auto& resp) { std::cout << resp.statement() << "\n"; });
    };
  });
}

void AddRevocations(CLI::App& cert, CliContext& ctx, Action& action) {
  auto* cmd = cert.add_subcommand(
      "revocations",
      "fetch the signed list of revoked certificates (for verify-offline)");
  auto out = std::make_shared<std::string>();
  cmd->add_option("--out", *out, "write the list's JSON file here");
  cmd->callback([&, out] {
    action = [&, out]() -> int {
      return UnaryFirst<v1::AuditService, v1::GetRevocationListResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetRevocationList(c, v1::GetRevocationListRequest(), resp);
          },
          [out](const auto& resp) -> int {
            std::string error;
            if (!out->empty() &&
                !WriteFileAtomically(*out, resp.json() + "\n", &error)) {
              std::cerr << "rankctl: " << error << "\n";
              return kExitCallFailed;
            }
            return kExitOk;
          },
          [out](const auto& resp) {
            if (out->empty()) {
              std::cout << resp.json() << "\n";
              return;
            }
            std::cout << "wrote " << *out << ": " << resp.revoked_size()
                      << " revoked, as of audit log size " << resp.tree_size()
                      << "\n";
          });
    };
  });
}

void AddVerifyOffline(CLI::App& cert, Action& action) {
  auto* cmd = cert.add_subcommand(
      "verify-offline",
      "check a certificate's statement (its QR code) with the federation's "
      "public key, without the network");
  cmd->footer(
      "Exit status:\n"
      "  0  valid: the signature verifies (and, when given, not revoked and "
      "the name matches)\n"
      "  2  usage: bad flags, or a key, list or image file that cannot be "
      "read\n"
      "  4  malformed: not a certificate statement, or no QR code in the "
      "picture\n"
      "  5  tampered: the signature does not verify (the statement was "
      "altered)\n"
      "  6  wrong key: the statement names another federation key\n"
      "  7  revoked: in the --revocations list (the reason gives its date)\n"
      "  8  bad revocation list: the list is not signed by the key\n"
      "  9  name mismatch: --name is not the name the statement was made "
      "for");
  auto a = std::make_shared<OfflineArgs>();
  cmd->add_option("text", a->text,
                  "the statement GR1.<payload>.<signature>, or the verify "
                  "URL that carries it (s=...)");
  cmd->add_option("--key", a->key_file,
                  "the federation's public key (PEM, or base64 of the 32 "
                  "raw bytes), e.g. from /.well-known/gorank/federation.pub")
      ->required();
  cmd->add_option("--revocations", a->revocations_file,
                  "a signed revocation list (JSON from "
                  "/.well-known/gorank/revocations.json or `cert revocations "
                  "--out`)");
  cmd->add_option("--image", a->image,
                  "a PNG picture with the QR code (a scan or pdftoppm page)");
  cmd->add_option("--name", a->name,
                  "the holder's name as printed: checked against the "
                  "statement's name digest");
  cmd->callback([&action, a] {
    action = [a]() -> int { return VerifyOfflineCommand(*a); };
  });
}

}  // namespace

void AddCertOfflineCommands(CLI::App& cert, CliContext& ctx, Action& action) {
  AddStatement(cert, ctx, action);
  AddRevocations(cert, ctx, action);
  AddVerifyOffline(cert, action);
}

}  // namespace gorank::cli
