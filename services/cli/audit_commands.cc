// rankctl audit ... and rankctl backup.
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "gorank/v1/audit.grpc.pb.h"
#include "services/audit/checkpoint.h"
#include "services/audit/encoding.h"
#include "services/audit/log_file.h"
#include "services/audit/log_verifier.h"
#include "services/audit/signing_key.h"
#include "services/cli/commands.h"
#include "services/cli/office_file.h"
#include "services/cli/unary.h"
#include "services/common/file_text.h"

namespace gorank::cli {
namespace {

struct VerifyArgs {
  std::string checkpoint_file;
  std::string log_file;
  std::string key_base64;
};

absl::StatusOr<audit::Checkpoint> ReadCheckpointFile(const std::string& path) {
  absl::StatusOr<std::string> text = ReadTextFile("", path);
  if (!text.ok()) return text.status();
  return audit::Checkpoint::FromJson(*text);
}

// Fetches the whole log and the latest checkpoint from the server (while
// the log fails rankd's own check: the newest checkpoint it signed before,
// and `check` says why).
absl::StatusOr<std::pair<audit::ExportedLog, std::string>> FetchLog(
    CliContext& ctx, grpc::Status* rpc, v1::LogCheck* check = nullptr) {
  auto stub = v1::AuditService::NewStub(ctx.Channel());
  auto call = ctx.NewCall();
  if (!call) return absl::InvalidArgumentError("no token");
  v1::GetCheckpointResponse cp;
  *rpc = stub->GetCheckpoint(call.get(), v1::GetCheckpointRequest(), &cp);
  if (!rpc->ok()) return absl::UnavailableError("checkpoint");
  audit::ExportedLog log;
  if (check) *check = cp.log_check();
  // Every stored entry: fewer than the checkpoint covers when entries were
  // removed (the verifier names the first missing one).
  const int64_t size = cp.log_size();
  for (int64_t begin = 0; begin < size; begin += 1000) {
    v1::GetEntriesRequest req;
    req.set_begin(begin);
    req.set_end(std::min(size, begin + 1000));
    v1::GetEntriesResponse resp;
    auto c = ctx.NewCall();
    *rpc = stub->GetEntries(c.get(), req, &resp);
    if (!rpc->ok()) return absl::UnavailableError("entries");
    for (const auto& e : resp.entries())
      log.entries.push_back({e.entry(), e.leaf_hash()});
  }
  audit::Checkpoint latest{
      cp.checkpoint().tree_size(), cp.checkpoint().root_hash(),
      cp.checkpoint().time_unix(), cp.checkpoint().signature(),
      cp.checkpoint().key_id()};
  if (latest.tree_size > 0 || !latest.signature.empty())
    log.checkpoints.push_back(latest);
  return std::make_pair(std::move(log), cp.public_key());
}

int Verify(CliContext& ctx, const VerifyArgs& args) {
  audit::LogVerifyOptions options;
  if (!args.checkpoint_file.empty()) {
    auto trusted = ReadCheckpointFile(args.checkpoint_file);
    if (!trusted.ok())
      return CliContext::Usage(std::string(trusted.status().message()));
    options.trusted = *trusted;
  }
  audit::ExportedLog log;
  std::string server_key;
  v1::LogCheck server_check;
  server_check.set_ok(true);
  if (!args.log_file.empty()) {
    auto read = audit::ReadLogFileAt(args.log_file);
    if (!read.ok())
      return CliContext::Usage(std::string(read.status().message()));
    log = std::move(*read);
  } else {
    grpc::Status rpc;
    auto fetched = FetchLog(ctx, &rpc, &server_check);
    if (!fetched.ok()) return rpc.ok() ? kExitUsage : ctx.Fail(rpc);
    log = std::move(fetched->first);
    server_key = fetched->second;
  }
  // The key: given by the auditor, else the server's, which must then be the
  // key that signed the trusted checkpoint.
  absl::StatusOr<audit::VerifyingKey> key =
      !args.key_base64.empty()
          ? audit::VerifyingKey::FromBase64(args.key_base64)
          : audit::VerifyingKey::FromRaw(server_key);
  if (!key.ok()) {
    return CliContext::Usage(
        "a verifying key is needed: --key BASE64 (offline) — " +
        std::string(key.status().message()));
  }
  if (options.trusted && key->KeyId() != options.trusted->key_id) {
    std::cout << "FAIL: the log is signed by key " << key->KeyId()
              << ", the trusted checkpoint by key " << options.trusted->key_id
              << "\n";
    return kExitCheckFailed;
  }
  audit::LogVerdict verdict = audit::VerifyExportedLog(log, *key, options);
  // The first bad entry: the log's own findings first (the verdict, and
  // rankd's check, which pins an entry a signed root only narrows down to
  // a range); table rows only when the log itself is sound, since rows are
  // compared with what the log says.
  int64_t first_bad = -1;
  std::string reason;
  std::string problem;  // a failure that blames no entry
  auto consider = [&](int64_t index, const std::string& why) {
    if (index >= 0 && (first_bad < 0 || index < first_bad)) {
      first_bad = index;
      reason = why;
    } else if (index < 0 && problem.empty()) {
      problem = why;
    }
  };
  const bool server_pins =
      !server_check.ok() && server_check.first_bad_index() >= 0;
  if (!verdict.ok) {
    const bool in_range =
        server_pins && !verdict.exact() &&
        server_check.first_bad_index() >= verdict.first_bad_index &&
        server_check.first_bad_index() < verdict.bad_index_end;
    if (!in_range) consider(verdict.first_bad_index, verdict.reason);
  }
  if (!server_check.ok()) {
    consider(server_check.first_bad_index(),
             "rankd's own check: " + server_check.reason());
  }
  const bool log_bad = first_bad >= 0 || !problem.empty();
  int mismatches = 0;
  if (args.log_file.empty()) {
    auto stub = v1::AuditService::NewStub(ctx.Channel());
    auto call = ctx.NewCall();
    v1::VerifyTablesResponse tables;
    grpc::Status s =
        stub->VerifyTables(call.get(), v1::VerifyTablesRequest(), &tables);
    if (!s.ok()) return ctx.Fail(s);
    for (const auto& m : tables.mismatches()) {
      ++mismatches;
      std::cout << "table row " << m.row() << ": " << m.reason()
                << (m.log_index() >= 0 ? " (last written by entry " +
                                             std::to_string(m.log_index()) + ")"
                                       : "")
                << "\n";
      if (!log_bad) {
        consider(m.log_index(), m.log_index() >= 0
                                    ? m.row() + ": " + m.reason()
                                    : "table row " + m.row() + ": " +
                                          m.reason() +
                                          " (no log entry wrote it)");
      }
    }
    std::cout << "tables: " << tables.rows_checked() << " rows checked against "
              << tables.entries_read() << " log entries\n";
  }
  std::cout << "log: " << verdict.entries << " entries, signed size "
            << verdict.verified_size << ", root "
            << audit::HexEncode(verdict.root_hash) << "\n";
  if (verdict.ok && server_check.ok() && mismatches == 0) {
    std::cout << "OK: every root recomputed, signature valid"
              << (options.trusted ? ", consistent with the trusted checkpoint"
                                  : "")
              << "\n";
    return kExitOk;
  }
  if (first_bad >= 0) {
    std::cout << "FAIL: first bad entry " << first_bad << ": " << reason
              << "\n";
  } else {
    std::cout << "FAIL: "
              << (problem.empty() ? "the log does not verify" : problem)
              << "\n";
  }
  return kExitCheckFailed;
}

void PrintReport(const v1::AnnualReport& r) {
  std::cout << "agency " << r.agency_prefix() << " " << r.agency_name()
            << ", year " << r.year() << ": " << r.issued() << " certificates"
            << (r.imported() > 0
                    ? " (" + std::to_string(r.imported()) + " imported)"
                    : "")
            << ", " << r.anomalies() << " anomalies\n";
  std::cout << "  by grade:";
  for (const auto& [g, n] : r.by_grade()) std::cout << " " << g << "=" << n;
  std::cout << "\n  by basis:";
  for (const auto& [b, n] : r.by_basis()) std::cout << " " << b << "=" << n;
  if (r.max_serial() == 0) {
    std::cout << "\n  serials: none issued";
  } else {
    std::cout << "\n  serials: 1.." << r.max_serial();
  }
  for (int s : r.missing_serials()) std::cout << " MISSING " << s;
  for (int s : r.duplicate_serials()) std::cout << " DUPLICATE " << s;
  std::cout << "\n  stock: ordered " << r.stock_ordered()
            << (r.stock_released() ? " (released)" : " (not released)")
            << ", used " << r.stock_used()
            << (r.stock_exceeded() ? " EXCEEDED" : "") << "\n";
  auto notes = [](const char* title, const auto& list) {
    for (const auto& n : list) {
      std::cout << "  " << title << ": " << n.number() << " " << n.grade()
                << " " << n.detail() << "\n";
    }
  };
  notes("4d+", r.high_grades());
  notes("incomplete holder", r.incomplete_holders());
  notes("appraisal", r.appraisals());
  notes("revoked", r.revocations());
  notes("award (no certificate)", r.awards());
  if (!r.inactive_months().empty()) {
    std::cout << "  months without issuance:";
    for (int m : r.inactive_months()) std::cout << " " << m;
    std::cout << "\n";
  }
  // Every anomaly counted in the headline, with its record.
  int n = 0;
  for (const auto& a : r.anomaly_list()) {
    std::cout << "  anomaly " << ++n << ": "
              << (a.number().empty() ? "-" : a.number()) << " "
              << (a.grade().empty() ? "-" : a.grade()) << " " << a.detail()
              << "\n";
  }
}

// The annual report as a table (`--csv`, `--out`): section, number, grade,
// detail; a count is the detail of its row.
Sheet ReportSheet(const v1::AnnualReport& r) {
  Sheet sheet{"report", {"section", "number", "grade", "detail"}, {}};
  auto row = [&](const char* section, std::string number, std::string grade,
                 Cell detail) {
    sheet.rows.push_back({Cell::Text(section), Cell::Text(std::move(number)),
                          Cell::Text(std::move(grade)), std::move(detail)});
  };
  for (const auto& [g, n] : r.by_grade()) row("by_grade", "", g, Cell::Int(n));
  if (r.imported() > 0) row("imported", "", "", Cell::Int(r.imported()));
  for (const auto& [b, n] : r.by_basis()) {
    row("by_basis", "", "", Cell::Text(b + "=" + std::to_string(n)));
  }
  for (int s : r.missing_serials()) {
    row("missing_serial", "", "", Cell::Text("serial " + std::to_string(s)));
  }
  for (int s : r.duplicate_serials()) {
    row("duplicate_serial", "", "", Cell::Text("serial " + std::to_string(s)));
  }
  row("stock", "", "",
      Cell::Text("ordered=" + std::to_string(r.stock_ordered()) +
                 " released=" + std::to_string(r.stock_released() ? 1 : 0) +
                 " used=" + std::to_string(r.stock_used())));
  auto notes = [&](const char* section, const auto& list) {
    for (const auto& n : list)
      row(section, n.number(), n.grade(), Cell::Text(n.detail()));
  };
  notes("high_grade", r.high_grades());
  notes("incomplete_holder", r.incomplete_holders());
  notes("appraisal", r.appraisals());
  notes("revocation", r.revocations());
  notes("award", r.awards());
  for (int m : r.inactive_months()) row("inactive_month", "", "", Cell::Int(m));
  notes("anomaly", r.anomaly_list());
  return sheet;
}

// rankctl audit checkpoint
void AddCheckpoint(CLI::App* audit, CliContext& ctx, Action& action) {
  auto* checkpoint =
      audit->add_subcommand("checkpoint", "a signed checkpoint of the log now");
  auto cp_out = std::make_shared<std::string>();
  checkpoint->add_option("--out", *cp_out,
                         "also write it to this file (keep it: OLD.json)");
  checkpoint->callback([&, cp_out] {
    action = [&, cp_out]() -> int {
      bool log_failed = false;
      const int rc = Unary<v1::AuditService, v1::GetCheckpointResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetCheckpoint(c, v1::GetCheckpointRequest(), resp);
          },
          [&](const auto& resp) {
            if (!resp.log_check().ok()) {
              // rankd signed nothing: keep no file, say why.
              log_failed = true;
              std::cout << "FAIL: rankd signs no checkpoint: first bad entry "
                        << resp.log_check().first_bad_index() << ": "
                        << resp.log_check().reason() << "\n";
              return;
            }
            std::cout << resp.checkpoint().json() << "\n";
            if (!cp_out->empty())
              std::ofstream(*cp_out) << resp.checkpoint().json() << "\n";
          });
      return log_failed && rc == kExitOk ? kExitCheckFailed : rc;
    };
  });
}

// rankctl audit verify
void AddVerify(CLI::App* audit, CliContext& ctx, Action& action) {
  auto* verify =
      audit->add_subcommand("verify",
                            "recompute every root, check the signature, the "
                            "trusted checkpoint and the tables");
  auto va = std::make_shared<VerifyArgs>();
  verify->add_option("--checkpoint", va->checkpoint_file,
                     "a checkpoint kept earlier (OLD.json)");
  verify->add_option("--log", va->log_file,
                     "verify an exported log file, with no server");
  verify->add_option("--key", va->key_base64,
                     "the server's public key (base64), for --log");
  verify->callback(
      [&, va] { action = [&, va]() { return Verify(ctx, *va); }; });
}

// rankctl audit export
void AddExport(CLI::App* audit, CliContext& ctx, Action& action) {
  auto* exp = audit->add_subcommand(
      "export", "write the whole log and a checkpoint to a file");
  auto out = std::make_shared<std::string>();
  exp->add_option("--out", *out, "file to write")->required();
  exp->callback([&, out] {
    action = [&, out]() -> int {
      grpc::Status rpc;
      auto fetched = FetchLog(ctx, &rpc);
      if (!fetched.ok()) return rpc.ok() ? kExitUsage : ctx.Fail(rpc);
      std::ofstream file(*out);
      absl::Status s = audit::WriteLogFile(fetched->first, file);
      if (!s.ok() || !file) return CliContext::Usage("cannot write " + *out);
      std::cout << "wrote " << fetched->first.entries.size() << " entries to "
                << *out << "; public key "
                << audit::VerifyingKey::FromRaw(fetched->second)->Base64()
                << "\n";
      return kExitOk;
    };
  });
}

// rankctl audit report
void AddReport(CLI::App* audit, CliContext& ctx, Action& action) {
  auto* report = audit->add_subcommand("report", "an agency's annual report");
  auto rr = std::make_shared<v1::GetAnnualReportRequest>();
  auto csv = std::make_shared<bool>(false);
  auto report_out = std::make_shared<std::string>();
  report->add_option("--agency", *rr->mutable_agency_prefix(), "agency prefix")
      ->required();
  report
      ->add_option_function<int32_t>(
          "--year", [rr](int32_t v) { rr->set_year(v); }, "year")
      ->required();
  report->add_flag("--csv", *csv, "print as CSV (UTF-8 with BOM)");
  report->add_option(
      "--out", *report_out,
      "write the report to FILE: an Excel workbook when it ends in .xlsx, "
      "else CSV");
  report->callback([&, rr, csv, report_out] {
    action = [&, rr, csv, report_out]() -> int {
      return UnaryFirst<v1::AuditService, v1::GetAnnualReportResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetAnnualReport(c, *rr, resp);
          },
          [&](const auto& resp) {
            if (report_out->empty()) return kExitOk;
            const std::string error =
                WriteOfficeFile(*report_out, {ReportSheet(resp.report())});
            return error.empty() ? kExitOk : CliContext::Usage(error);
          },
          [&](const auto& resp) {
            if (!report_out->empty()) {
              std::cout << "wrote the report of "
                        << resp.report().agency_prefix() << " "
                        << resp.report().year() << " to " << *report_out
                        << "\n";
            } else if (*csv) {
              std::cout << CsvText(ReportSheet(resp.report()));
              return;
            } else {
              PrintReport(resp.report());
            }
            std::cout << "checkpoint: " << resp.checkpoint().json() << "\n";
          });
    };
  });
}

// rankctl audit summary
void AddSummary(CLI::App* audit, CliContext& ctx, Action& action) {
  auto* summary = audit->add_subcommand(
      "summary", "every agency's headline figures for a year");
  auto sy = std::make_shared<int>(0);
  summary->add_option("--year", *sy, "year")->required();
  summary->callback([&, sy] {
    action = [&, sy]() -> int {
      v1::GetNationalSummaryRequest req;
      req.set_year(*sy);
      return Unary<v1::AuditService, v1::GetNationalSummaryResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.GetNationalSummary(c, req, resp);
          },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {
                {"AGENCY", "NAME", "ISSUED", "REVOKED", "STOCK", "ANOMALIES"}};
            for (const auto& r : resp.reports()) {
              rows.push_back({r.agency_prefix(), r.agency_name(),
                              std::to_string(r.issued()),
                              std::to_string(r.revocations_size()),
                              std::to_string(r.stock_used()) + "/" +
                                  std::to_string(r.stock_ordered()),
                              std::to_string(r.anomalies())});
            }
            PrintTable(rows);
          });
    };
  });
}

// rankctl audit review record: a review outcome
void AddReviewRecord(CLI::App* review, CliContext& ctx, Action& action) {
  auto* record =
      review->add_subcommand("record", "record a review outcome (auditor)");
  auto rv = std::make_shared<v1::RecordReviewRequest>();
  auto outcome = std::make_shared<std::string>();
  record->add_option("--agency", *rv->mutable_agency_prefix(), "agency prefix")
      ->required();
  record
      ->add_option_function<int32_t>(
          "--year", [rv](int32_t v) { rv->set_year(v); }, "the year reviewed")
      ->required();
  record->add_option("--outcome", *outcome, "pass|fail|conditions")->required();
  record->add_option("--findings", *rv->mutable_findings(), "findings")
      ->required();
  record
      ->add_option_function<int64_t>(
          "--checkpoint-size", [rv](int64_t v) { rv->set_checkpoint_size(v); },
          "tree size of the report's checkpoint")
      ->required();
  record->callback([&, rv, outcome] {
    action = [&, rv, outcome]() -> int {
      if (*outcome == "pass")
        rv->set_outcome(v1::REVIEW_OUTCOME_PASS);
      else if (*outcome == "fail")
        rv->set_outcome(v1::REVIEW_OUTCOME_FAIL);
      else if (*outcome == "conditions")
        rv->set_outcome(v1::REVIEW_OUTCOME_PASS_WITH_CONDITIONS);
      else
        return CliContext::Usage("--outcome must be pass, fail or conditions");
      return Unary<v1::AuditService, v1::RecordReviewResponse>(
          ctx,
          [&](auto& s, auto* c, auto* resp) {
            return s.RecordReview(c, *rv, resp);
          },
          [](const auto& resp) {
            std::cout << "review " << resp.review().id()
                      << " recorded for agency "
                      << resp.review().agency_prefix() << " "
                      << resp.review().year() << "\n";
          });
    };
  });
}

// rankctl audit review list
void AddReviewList(CLI::App* review, CliContext& ctx, Action& action) {
  auto* list = review->add_subcommand("list", "reviews");
  auto lr = std::make_shared<v1::ListReviewsRequest>();
  list->add_option("--agency", *lr->mutable_agency_prefix(), "agency prefix");
  list->add_option_function<int32_t>(
      "--year", [lr](int32_t v) { lr->set_year(v); }, "year");
  list->callback([&, lr] {
    action = [&, lr]() -> int {
      return AllPages<v1::AuditService, v1::ListReviewsRequest,
                      v1::ListReviewsResponse>(
          ctx, *lr,
          [&](auto& s, auto* c, const auto& req, auto* resp) {
            return s.ListReviews(c, req, resp);
          },
          [](const auto& resp) {
            std::vector<std::vector<std::string>> rows = {
                {"ID", "AGENCY", "YEAR", "OUTCOME", "CHECKPOINT", "BY"}};
            for (const auto& r : resp.reviews()) {
              rows.push_back({std::to_string(r.id()), r.agency_prefix(),
                              std::to_string(r.year()),
                              v1::ReviewOutcome_Name(r.outcome()).substr(15),
                              std::to_string(r.checkpoint_size()),
                              r.reviewer()});
            }
            PrintTable(rows);
          });
    };
  });
}

// rankctl backup
void AddBackup(CLI::App& app, CliContext& ctx, Action& action) {
  auto* backup = app.add_subcommand(
      "backup", "a consistent snapshot of the database, taken live");
  auto bout = std::make_shared<std::string>();
  backup->add_option("--out", *bout, "file to write (must not exist)")
      ->required();
  backup->callback([&, bout] {
    action = [&, bout]() -> int {
      if (std::ifstream(*bout))
        return CliContext::Usage(*bout + " already exists");
      auto stub = v1::AuditService::NewStub(ctx.Channel());
      auto call = ctx.NewCall();
      if (!call) return kExitUsage;
      call->set_deadline(std::chrono::system_clock::now() +
                         std::chrono::hours(1));
      auto reader = stub->Backup(call.get(), v1::BackupRequest());
      const std::string tmp = *bout + ".part";
      // Private (0600) before the first byte: a backup holds ID numbers.
      ::unlink(tmp.c_str());
      const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
      if (fd < 0) return CliContext::Usage("cannot create " + tmp);
      ::close(fd);
      std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
      v1::BackupChunk chunk;
      int64_t bytes = 0;
      bool ids_removed = false;
      while (reader->Read(&chunk)) {
        if (bytes == 0) ids_removed = chunk.resident_ids_removed();
        file.write(chunk.data().data(),
                   static_cast<std::streamsize>(chunk.data().size()));
        bytes += static_cast<int64_t>(chunk.data().size());
      }
      grpc::Status s = reader->Finish();
      file.close();
      if (!s.ok() || !file) {
        std::remove(tmp.c_str());
        return s.ok() ? CliContext::Usage("cannot write " + *bout)
                      : ctx.Fail(s);
      }
      std::rename(tmp.c_str(), bout->c_str());
      std::cout
          << "backup of " << bytes << " bytes written to " << *bout
          << (ids_removed
                  ? " (an auditor's copy: resident ID numbers removed; it "
                    "cannot be restored as the registry)"
                  : "")
          << "\n";
      return kExitOk;
    };
  });
}

}  // namespace

void AddAuditCommands(CLI::App& app, CliContext& ctx, Action& action) {
  auto* audit = app.add_subcommand(
      "audit", "the verifiable audit log, reports and reviews");
  audit->require_subcommand(1);

  AddCheckpoint(audit, ctx, action);
  AddVerify(audit, ctx, action);
  AddExport(audit, ctx, action);
  AddReport(audit, ctx, action);
  AddSummary(audit, ctx, action);
  auto* review = audit->add_subcommand("review", "annual reviews (年审)");
  review->require_subcommand(1);
  AddReviewRecord(review, ctx, action);
  AddReviewList(review, ctx, action);
  AddBackup(app, ctx, action);
}

}  // namespace gorank::cli
