// `cert import FILE [--dry-run] [--encoding auto|utf-8|gb18030] [--skip-bad
// [OUT]]`: historic certificates under their original numbers
// (ImportCertificates). The file is a CSV with a header row: number, holder,
// grade, issue_date, issuing_agency and, optionally, discipline (go or gomoku;
// empty = go). The server checks every row; README "cert import" has the rules.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gorank/v1/certificates.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/import_file.h"

namespace gorank::cli {
namespace {

int RunCertImport(CliContext& ctx, const ImportArgs& a) {
  static const std::vector<std::string> kKnown = {
      "number",     "holder",         "grade",
      "issue_date", "issuing_agency", "discipline"};
  static const std::vector<std::string> kRequired = {
      "number", "holder", "grade", "issue_date", "issuing_agency"};
  int status = kExitOk;
  std::optional<OpenedImport> o =
      OpenImport(a, kKnown, kRequired, "certificate", &status);
  if (!o) return status;
  return StreamImport<v1::CertificateService, v1::ImportCertificatesRequest,
                      v1::ImportCertificatesResponse>(
      ctx, "cert import", o->file, a.dry_run, o->refused_out,
      [](auto& stub, grpc::ClientContext* c,
         v1::ImportCertificatesResponse* r) {
        return stub.ImportCertificates(c, r);
      },
      [&](v1::ImportCertificatesRequest* req) {
        req->set_dry_run(a.dry_run);
        req->set_skip_bad(o->skip_bad);
        req->set_file_name(o->file_name);
        req->set_file_sha256(o->file.sha256);
      },
      [&](const CsvRecord& rec, v1::ImportCertificatesRequest* req) {
        v1::CertificateImportRow* row = req->add_rows();
        row->set_line(rec.line);
        row->set_number(Field(rec, o->columns, "number"));
        row->set_holder(Field(rec, o->columns, "holder"));
        row->set_grade(Field(rec, o->columns, "grade"));
        row->set_issue_date(Field(rec, o->columns, "issue_date"));
        row->set_issuing_agency(Field(rec, o->columns, "issuing_agency"));
        row->set_discipline(Field(rec, o->columns, "discipline"));
      });
}

}  // namespace

void AddCertImportCommand(CLI::App& cert, CliContext& ctx, Action& action) {
  auto a = std::make_shared<ImportArgs>();
  auto* cmd = cert.add_subcommand("import",
                                  "import historic certificates under their "
                                  "original numbers from a CSV file (columns "
                                  "number, holder, grade, issue_date, "
                                  "issuing_agency, optional discipline)");
  AddImportArgs(*cmd, *a);
  cmd->callback([&ctx, &action, a] {
    action = [&ctx, a] { return RunCertImport(ctx, *a); };
  });
}

}  // namespace gorank::cli
