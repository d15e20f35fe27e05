// `player import FILE [--dry-run] [--encoding auto|utf-8|gb18030] [--skip-bad
// [OUT]]`: an association's player file (ImportPlayers). The file is a CSV with
// a header row naming some of the columns name, latin_name, gender, birth_date,
// resident_id, agency, rank, rank_date, external_id in any order (name and
// agency are required). The server checks every row; README "player import" has
// the rules.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gorank/v1/registry.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/import_file.h"

namespace gorank::cli {
namespace {

int RunPlayerImport(CliContext& ctx, const ImportArgs& a) {
  static const std::vector<std::string> kKnown = {
      "name",   "latin_name", "gender",    "birth_date", "resident_id",
      "agency", "rank",       "rank_date", "external_id"};
  static const std::vector<std::string> kRequired = {"name", "agency"};
  int status = kExitOk;
  std::optional<OpenedImport> o =
      OpenImport(a, kKnown, kRequired, "player", &status);
  if (!o) return status;
  return StreamImport<v1::PlayerRegistry, v1::ImportPlayersRequest,
                      v1::ImportPlayersResponse>(
      ctx, "player import", o->file, a.dry_run, o->refused_out,
      [](auto& stub, grpc::ClientContext* c, v1::ImportPlayersResponse* r) {
        return stub.ImportPlayers(c, r);
      },
      [&](v1::ImportPlayersRequest* req) {
        req->set_dry_run(a.dry_run);
        req->set_skip_bad(o->skip_bad);
        req->set_file_name(o->file_name);
        req->set_file_sha256(o->file.sha256);
      },
      [&](const CsvRecord& rec, v1::ImportPlayersRequest* req) {
        v1::PlayerImportRow* row = req->add_rows();
        row->set_line(rec.line);
        row->set_name(Field(rec, o->columns, "name"));
        row->set_latin_name(Field(rec, o->columns, "latin_name"));
        row->set_gender(Field(rec, o->columns, "gender"));
        row->set_birth_date(Field(rec, o->columns, "birth_date"));
        row->set_resident_id(Field(rec, o->columns, "resident_id"));
        row->set_agency(Field(rec, o->columns, "agency"));
        row->set_rank(Field(rec, o->columns, "rank"));
        row->set_rank_date(Field(rec, o->columns, "rank_date"));
        row->set_external_id(Field(rec, o->columns, "external_id"));
      });
}

}  // namespace

void AddPlayerImportCommand(CLI::App& player, CliContext& ctx, Action& action) {
  auto a = std::make_shared<ImportArgs>();
  auto* cmd = player.add_subcommand(
      "import",
      "import players from a CSV file (columns name, agency and, optionally, "
      "latin_name, "
      "gender, birth_date, resident_id, rank, rank_date, external_id)");
  AddImportArgs(*cmd, *a);
  cmd->callback([&ctx, &action, a] {
    action = [&ctx, a] { return RunPlayerImport(ctx, *a); };
  });
}

}  // namespace gorank::cli
