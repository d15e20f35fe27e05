// `rating import FILE [--dry-run] [--encoding auto|utf-8|gb18030] [--skip-bad [OUT]]`:
// starting ratings (ImportRatings), e.g. from an EGD list. The file is a CSV
// with a header row: player (player id, resident ID or external id), gor
// and, optionally, pro_rating and as_of (YYYY-MM-DD; empty = today). The
// server checks every row; README "rating import" has the rules.
#include <cctype>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gorank/v1/ratings.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/import_file.h"

namespace gorank::cli {
namespace {

struct RatingImportArgs {
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

int RunRatingImport(CliContext& ctx, const RatingImportArgs& a) {
  FileEncoding encoding;
  if (!ParseFileEncoding(a.encoding, &encoding)) {
    return CliContext::Usage("--encoding must be auto, utf-8 or gb18030");
  }
  absl::StatusOr<CsvFile> file = ReadCsvFile(a.file, encoding);
  if (!file.ok()) return CliContext::Usage(std::string(file.status().message()));
  static const std::vector<std::string> kKnown = {"player", "gor", "pro_rating", "as_of"};
  static const std::vector<std::string> kRequired = {"player", "gor"};
  absl::StatusOr<std::map<std::string, int>> columns = MapColumns(*file, kKnown, kRequired);
  if (!columns.ok()) return CliContext::Usage(std::string(columns.status().message()));
  if (file->records.empty()) {
    return CliContext::Usage(a.file + ": no rating rows after the header");
  }
  const bool skip_bad = a.skip_bad->count() > 0;
  const std::string refused_out =
      skip_bad ? (a.refused_out.empty() ? DefaultRefusedPath(a.file) : a.refused_out) : "";
  const CsvFile& f = *file;
  const std::map<std::string, int>& cols = *columns;
  return StreamImport<v1::RatingService, v1::ImportRatingsRequest,
                      v1::ImportRatingsResponse>(
      ctx, "rating import", f, a.dry_run, refused_out,
      [](auto& stub, grpc::ClientContext* c, v1::ImportRatingsResponse* r) {
        return stub.ImportRatings(c, r);
      },
      [&](v1::ImportRatingsRequest* req) {
        req->set_dry_run(a.dry_run);
        req->set_skip_bad(skip_bad);
        req->set_file_name(f.name);
        req->set_file_sha256(f.sha256);
      },
      [&](const CsvRecord& rec, v1::ImportRatingsRequest* req) {
        v1::RatingImportRow* row = req->add_rows();
        row->set_line(rec.line);
        row->set_player(Field(rec, cols, "player"));
        row->set_gor(Field(rec, cols, "gor"));
        row->set_pro_rating(Field(rec, cols, "pro_rating"));
        row->set_as_of(Field(rec, cols, "as_of"));
      });
}

}  // namespace

void AddRatingImportCommand(CLI::App& rating, CliContext& ctx, Action& action) {
  auto a = std::make_shared<RatingImportArgs>();
  auto* cmd = rating.add_subcommand(
      "import",
      "import starting ratings from a CSV file (columns player, gor, optional pro_rating "
      "and as_of); national admin");
  cmd->add_option("FILE", a->file, "the CSV file (UTF-8, UTF-8 with BOM or GB18030)")
      ->required();
  cmd->add_flag("--dry-run", a->dry_run, "check every row and report; store nothing");
  cmd->add_option("--encoding", a->encoding, "auto|utf-8|gb18030")->capture_default_str();
  a->skip_bad = cmd->add_option("--skip-bad", a->refused_out,
                                "store the good rows even when some are refused, and write "
                                "the refused ones to OUT (default FILE.refused.csv; give OUT "
                                "as --skip-bad=OUT)")
                    ->expected(0, 1);
  cmd->callback([&ctx, &action, a] { action = [&ctx, a] { return RunRatingImport(ctx, *a); }; });
}

}  // namespace gorank::cli
