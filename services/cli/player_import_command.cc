// `player import FILE [--dry-run] [--encoding auto|utf-8|gb18030] [--skip-bad [OUT]]`:
// an association's player file (ImportPlayers). The file is a CSV with a
// header row naming some of the columns name, latin_name, gender,
// birth_date, resident_id, agency, rank, rank_date, external_id in any order
// (name and agency are required). The server checks every row; README
// "player import" has the rules.
#include <cctype>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gorank/v1/registry.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/import_file.h"

namespace gorank::cli {
namespace {

struct PlayerImportArgs {
  std::string file;
  bool dry_run = false;
  std::string encoding = "auto";
  std::string refused_out;
  CLI::Option* skip_bad = nullptr;
};

// FILE without ".csv", then ".refused.csv".
std::string RefusedPath(const std::string& file) {
  std::string base = file;
  if (base.size() > 4) {
    std::string ext = base.substr(base.size() - 4);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".csv") base.resize(base.size() - 4);
  }
  return base + ".refused.csv";
}

// The file's name without its folders (it goes into every imported rank's
// basis: "import players.csv sha256:... line 7").
std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

int RunPlayerImport(CliContext& ctx, const PlayerImportArgs& a) {
  FileEncoding encoding;
  if (!ParseFileEncoding(a.encoding, &encoding)) {
    return CliContext::Usage("--encoding must be auto, utf-8 or gb18030");
  }
  absl::StatusOr<CsvFile> file = ReadCsvFile(a.file, encoding);
  if (!file.ok()) return CliContext::Usage(std::string(file.status().message()));
  static const std::vector<std::string> kKnown = {
      "name",   "latin_name", "gender",    "birth_date", "resident_id",
      "agency", "rank",       "rank_date", "external_id"};
  static const std::vector<std::string> kRequired = {"name", "agency"};
  absl::StatusOr<std::map<std::string, int>> columns = MapColumns(*file, kKnown, kRequired);
  if (!columns.ok()) return CliContext::Usage(std::string(columns.status().message()));
  if (file->records.empty()) {
    return CliContext::Usage(a.file + ": no player rows after the header");
  }
  const bool skip_bad = a.skip_bad->count() > 0;
  const std::string refused_out =
      skip_bad ? (a.refused_out.empty() ? RefusedPath(a.file) : a.refused_out) : "";
  const CsvFile& f = *file;
  const std::map<std::string, int>& cols = *columns;
  return StreamImport<v1::PlayerRegistry, v1::ImportPlayersRequest, v1::ImportPlayersResponse>(
      ctx, "player import", f, a.dry_run, refused_out,
      [](auto& stub, grpc::ClientContext* c, v1::ImportPlayersResponse* r) {
        return stub.ImportPlayers(c, r);
      },
      [&](v1::ImportPlayersRequest* req) {
        req->set_dry_run(a.dry_run);
        req->set_skip_bad(skip_bad);
        req->set_file_name(BaseName(f.name));
        req->set_file_sha256(f.sha256);
      },
      [&](const CsvRecord& rec, v1::ImportPlayersRequest* req) {
        v1::PlayerImportRow* row = req->add_rows();
        row->set_line(rec.line);
        row->set_name(Field(rec, cols, "name"));
        row->set_latin_name(Field(rec, cols, "latin_name"));
        row->set_gender(Field(rec, cols, "gender"));
        row->set_birth_date(Field(rec, cols, "birth_date"));
        row->set_resident_id(Field(rec, cols, "resident_id"));
        row->set_agency(Field(rec, cols, "agency"));
        row->set_rank(Field(rec, cols, "rank"));
        row->set_rank_date(Field(rec, cols, "rank_date"));
        row->set_external_id(Field(rec, cols, "external_id"));
      });
}

}  // namespace

void AddPlayerImportCommand(CLI::App& player, CliContext& ctx, Action& action) {
  auto a = std::make_shared<PlayerImportArgs>();
  auto* cmd = player.add_subcommand(
      "import",
      "import players from a CSV file (columns name, agency and, optionally, latin_name, "
      "gender, birth_date, resident_id, rank, rank_date, external_id)");
  cmd->add_option("FILE", a->file, "the CSV file (UTF-8, UTF-8 with BOM or GB18030)")
      ->required();
  cmd->add_flag("--dry-run", a->dry_run, "check every row and report; store nothing");
  cmd->add_option("--encoding", a->encoding, "auto|utf-8|gb18030")->capture_default_str();
  a->skip_bad = cmd->add_option("--skip-bad", a->refused_out,
                                "store the good rows even when some are refused, and write "
                                "the refused ones to OUT (default FILE.refused.csv; give OUT "
                                "as --skip-bad=OUT)")
                    ->expected(0, 1);
  cmd->callback(
      [&ctx, &action, a] { action = [&ctx, a] { return RunPlayerImport(ctx, *a); }; });
}

}  // namespace gorank::cli
