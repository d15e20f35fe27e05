// rankctl cert statement, cert revocations, cert verify-offline.
#include "services/cli/certificate_offline.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "gorank/v1/audit.grpc.pb.h"
#include "services/audit/certificate_statement.h"
#include "services/cli/certificate_print.h"
#include "services/cli/qr_image.h"
#include "services/cli/unary.h"
#include "services/common/date.h"

namespace gorank::cli {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' ||
                        s.back() == ' ' || s.back() == '\t')) {
    s.pop_back();
  }
  return s.substr(std::min(s.size(), s.find_first_not_of(" \t\r\n")));
}

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
    absl::StatusOr<std::string> json = ReadFile(a.revocations_file);
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
    text = codes->front();
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
      "Exit status: 0 valid; 2 usage (bad flags, a key, list or image file "
      "that cannot be read); 4 malformed (not a certificate statement, no QR "
      "code in the picture); 5 tampered (the signature does not verify); "
      "6 wrong key (the statement names another federation key); 7 revoked "
      "(in the --revocations list, with its date); 8 the revocation list is "
      "not signed by the key; 9 --name is not the holder's name.");
  auto a = std::make_shared<OfflineArgs>();
  cmd->add_option("text", a->text,
                  "the statement GR1.<payload>.<signature>, or the verify "
                  "URL that carries it (s=...)");
  cmd->add_option("--key", a->key_file,
                  "the federation's public key (PEM, or base64 of the 32 "
                  "raw bytes), e.g. from /.well-known/gorank/federation.pub")
      ->required();
  cmd->add_option("--revocations", a->revocations_file,
                  "a signed revocation list (JSON from /api/v1/revocations "
                  "or `cert revocations --out`)");
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

absl::StatusOr<audit::VerifyingKey> ReadFederationKey(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  const std::string t = Trimmed(*text);
  absl::StatusOr<audit::VerifyingKey> key =
      t.rfind("-----BEGIN", 0) == 0 ? audit::VerifyingKey::FromPem(t)
                                    : audit::VerifyingKey::FromBase64(t);
  if (!key.ok()) {
    return absl::InvalidArgumentError(
        path + " is not an Ed25519 public key (PEM or base64 of 32 bytes): " +
        std::string(key.status().message()));
  }
  return key;
}

OfflineVerdict VerifyOffline(
    const std::string& text, const audit::VerifyingKey& key,
    const std::optional<audit::RevocationList>& revocations,
    const std::string& name) {
  absl::StatusOr<audit::ParsedStatement> parsed = audit::ParseStatement(text);
  if (!parsed.ok()) {
    return {kExitMalformed,
            "malformed: " + std::string(parsed.status().message())};
  }
  const audit::CertificateStatement& s = parsed->statement;
  switch (audit::CheckStatement(*parsed, key)) {
    case audit::StatementCheck::kWrongKey:
      return {kExitWrongKey, "wrong key: the statement of certificate " +
                                 s.number + " is signed by key " + s.key_id +
                                 ", not by the given key " + key.KeyId()};
    case audit::StatementCheck::kBadSignature:
      return {kExitTampered,
              "tampered: the signature of the statement of certificate " +
                  s.number + " does not verify with key " + key.KeyId() +
                  " (the statement was altered)"};
    case audit::StatementCheck::kValid:
      break;
  }
  std::string revocation_line = "revocations not checked (no --revocations)";
  if (revocations) {
    if (audit::Verdict v = audit::VerifyRevocationList(*revocations, key);
        !v.ok) {
      return {kExitBadRevocationList, "bad revocation list: " + v.reason};
    }
    const std::string as_of = ShanghaiDate(revocations->time_unix).ToString() +
                              " (audit log size " +
                              std::to_string(revocations->tree_size) + ")";
    if (std::optional<audit::Revocation> r = revocations->Find(s.number)) {
      return {kExitRevoked, "revoked: certificate " + s.number +
                                " was revoked on " +
                                ShanghaiDate(r->revoked_unix).ToString() +
                                " (revocation list of " + as_of + ")"};
    }
    revocation_line = "not revoked as of " + as_of;
  }
  std::string name_line = "holder's name not checked (no --name)";
  if (!name.empty()) {
    if (!audit::NameMatches(s, name)) {
      return {kExitNameMismatch,
              "name mismatch: the statement of certificate " + s.number +
                  " was not made for '" + name + "'"};
    }
    name_line = "holder's name matches";
  }
  std::string out;
  out += "number      " + s.number + "\n";
  out += "grade       " + s.grade +
         (s.discipline == "gomoku" ? " (gomoku)" : "") + "\n";
  out += "issued      " + s.issue_date + "\n";
  out += "agency      " + s.agency_prefix + "\n";
  out += "key         " + s.key_id + "\n";
  out += "audit log   " +
         (s.log_index >= 0 ? "entry " + std::to_string(s.log_index)
                           : std::string("no entry named")) +
         "\n";
  out += "revocation  " + revocation_line + "\n";
  out += "name        " + name_line + "\n";
  out += "valid: signature valid";
  return {kExitOk, out};
}

void AddCertOfflineCommands(CLI::App& cert, CliContext& ctx, Action& action) {
  AddStatement(cert, ctx, action);
  AddRevocations(cert, ctx, action);
  AddVerifyOffline(cert, action);
}

}  // namespace gorank::cli
