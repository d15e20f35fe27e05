// `cert import FILE [--dry-run] [--encoding auto|utf-8|gb18030] [--skip-bad [OUT]]`:
// historic certificates under their original numbers (ImportCertificates).
// The file is a CSV with a header row: number, holder, grade, issue_date,
// issuing_agency and, optionally, discipline (go or gomoku; empty = go).
// The server checks every row; README "cert import" has the rules.
#include <cctype>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gorank/v1/certificates.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/import_file.h"

namespace gorank::cli {
namespace {

struct CertImportArgs {
  std::string file;
  bool dry_run = false;
  std::string encoding = "auto";
  std::string refused_out;
  CLI::Option* skip_bad = nullptr;
};

// FILE without ".csv", then ".refused.csv".
std::string DefaultRefusedPath(const std::string& file) {
  std::string base = file;
  if (base.size() > 4) {
    std::string ext = base.substr(base.size() - 4);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".csv") base.resize(base.size() - 4);
  }
  return base + ".refused.csv";
}

int RunCertImport(CliContext& ctx, const CertImportArgs& a) {
  FileEncoding encoding;
  if (!ParseFileEncoding(a.encoding, &encoding)) {
    return CliContext::Usage("--encoding must be auto, utf-8 or gb18030");
  }
  absl::StatusOr<CsvFile> file = ReadCsvFile(a.file, encoding);
  if (!file.ok()) return CliContext::Usage(std::string(file.status().message()));
  static const std::vector<std::string> kKnown = {"number", "holder", "grade", "issue_date",
                                                  "issuing_agency", "discipline"};
  static const std::vector<std::string> kRequired = {"number", "holder", "grade", "issue_date",
                                                     "issuing_agency"};
  absl::StatusOr<std::map<std::string, int>> columns = MapColumns(*file, kKnown, kRequired);
  if (!columns.ok()) return CliContext::Usage(std::string(columns.status().message()));
  if (file->records.empty()) {
    return CliContext::Usage(a.file + ": no certificate rows after the header");
  }
  const bool skip_bad = a.skip_bad->count() > 0;
  const std::string refused_out =
      skip_bad ? (a.refused_out.empty() ? DefaultRefusedPath(a.file) : a.refused_out) : "";
  const CsvFile& f = *file;
  const std::map<std::string, int>& cols = *columns;
  return StreamImport<v1::CertificateService, v1::ImportCertificatesRequest,
                      v1::ImportCertificatesResponse>(
      ctx, "cert import", f, a.dry_run, refused_out,
      [](auto& stub, grpc::ClientContext* c, v1::ImportCertificatesResponse* r) {
        return stub.ImportCertificates(c, r);
      },
      [&](v1::ImportCertificatesRequest* req) {
        req->set_dry_run(a.dry_run);
        req->set_skip_bad(skip_bad);
        req->set_file_name(f.name);
        req->set_file_sha256(f.sha256);
      },
      [&](const CsvRecord& rec, v1::ImportCertificatesRequest* req) {
        v1::CertificateImportRow* row = req->add_rows();
        row->set_line(rec.line);
        row->set_number(Field(rec, cols, "number"));
        row->set_holder(Field(rec, cols, "holder"));
        row->set_grade(Field(rec, cols, "grade"));
        row->set_issue_date(Field(rec, cols, "issue_date"));
        row->set_issuing_agency(Field(rec, cols, "issuing_agency"));
        row->set_discipline(Field(rec, cols, "discipline"));
      });
}

}  // namespace

void AddCertImportCommand(CLI::App& cert, CliContext& ctx, Action& action) {
  auto a = std::make_shared<CertImportArgs>();
  auto* cmd = cert.add_subcommand(
      "import",
      "import historic certificates under their original numbers from a CSV file (columns "
      "number, holder, grade, issue_date, issuing_agency, optional discipline)");
  cmd->add_option("FILE", a->file, "the CSV file (UTF-8, UTF-8 with BOM or GB18030)")
      ->required();
  cmd->add_flag("--dry-run", a->dry_run, "check every row and report; store nothing");
  cmd->add_option("--encoding", a->encoding, "auto|utf-8|gb18030")->capture_default_str();
  a->skip_bad = cmd->add_option("--skip-bad", a->refused_out,
                                "store the good rows even when some are refused, and write "
                                "the refused ones to OUT (default FILE.refused.csv; give OUT "
                                "as --skip-bad=OUT)")
                    ->expected(0, 1);
  cmd->callback([&ctx, &action, a] { action = [&ctx, a] { return RunCertImport(ctx, *a); }; });
}

}  // namespace gorank::cli
