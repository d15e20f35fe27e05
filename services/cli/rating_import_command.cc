// `rating import FILE [--dry-run] [--encoding auto|utf-8|gb18030] [--skip-bad
// [OUT]]`: starting ratings (ImportRatings), e.g. from an EGD list. The file is
// a CSV with a header row: player (player id, resident ID or external id), gor
// and, optionally, pro_rating and as_of (YYYY-MM-DD; empty = today). The
// server checks every row; README "rating import" has the rules.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gorank/v1/ratings.grpc.pb.h"
#include "services/cli/commands.h"
#include "services/cli/import_file.h"

namespace gorank::cli {
namespace {

int RunRatingImport(CliContext& ctx, const ImportArgs& a) {
  static const std::vector<std::string> kKnown = {"player", "gor", "pro_rating",
                                                  "as_of"};
  static const std::vector<std::string> kRequired = {"player", "gor"};
  int status = kExitOk;
  std::optional<OpenedImport> o =
      OpenImport(a, kKnown, kRequired, "rating", &status);
  if (!o) return status;
  return StreamImport<v1::RatingService, v1::ImportRatingsRequest,
                      v1::ImportRatingsResponse>(
      ctx, "rating import", o->file, a.dry_run, o->refused_out,
      [](auto& stub, grpc::ClientContext* c, v1::ImportRatingsResponse* r) {
        return stub.ImportRatings(c, r);
      },
      [&](v1::ImportRatingsRequest* req) {
        req->set_dry_run(a.dry_run);
        req->set_skip_bad(o->skip_bad);
        req->set_file_name(o->file_name);
        req->set_file_sha256(o->file.sha256);
      },
      [&](const CsvRecord& rec, v1::ImportRatingsRequest* req) {
        v1::RatingImportRow* row = req->add_rows();
        row->set_line(rec.line);
        row->set_player(Field(rec, o->columns, "player"));
        row->set_gor(Field(rec, o->columns, "gor"));
        row->set_pro_rating(Field(rec, o->columns, "pro_rating"));
        row->set_as_of(Field(rec, o->columns, "as_of"));
      });
}

}  // namespace

void AddRatingImportCommand(CLI::App& rating, CliContext& ctx, Action& action) {
  auto a = std::make_shared<ImportArgs>();
  auto* cmd = rating.add_subcommand("import",
                                    "import starting ratings from a CSV file "
                                    "(columns player, gor, optional pro_rating "
                                    "and as_of); national admin");
  AddImportArgs(*cmd, *a);
  cmd->callback([&ctx, &action, a] {
    action = [&ctx, a] { return RunRatingImport(ctx, *a); };
  });
}

}  // namespace gorank::cli
