// The rankctl command groups. Each Add*Commands registers its subcommands on
// `app`; the chosen one stores what to run in `action` (run after parsing,
// returning the exit status).
#ifndef GORANK_SERVICES_CLI_COMMANDS_H_
#define GORANK_SERVICES_CLI_COMMANDS_H_

#include <functional>
#include <string>

#include "CLI/CLI.hpp"
#include "gorank/v1/common.pb.h"
#include "services/cli/cli_context.h"

namespace gorank::cli {

using Action = std::function<int()>;

void AddRegistryCommands(CLI::App& app, CliContext& ctx, Action& action);
void AddCertificateCommands(CLI::App& app, CliContext& ctx, Action& action);
void AddAuditCommands(CLI::App& app, CliContext& ctx, Action& action);
// `check FILE...`: the rules check of Go game records (public, no token).
void AddRulesCommands(CLI::App& app, CliContext& ctx, Action& action);
// `event ...` (tournaments, result files, standings) and `grade ...`
// (athlete technical grades).
void AddEventCommands(CLI::App& app, CliContext& ctx, Action& action);
// `rating get|history ID`, `rating list [--pro]` (public, no token) and
// `rating recompute [--dry-run]` (national admin).
void AddRatingCommands(CLI::App& app, CliContext& ctx, Action& action);
// `promotion rules|explain|evaluate|list|approve|reject`.
void AddPromotionCommands(CLI::App& app, CliContext& ctx, Action& action);
// `event pair`, `event sheet` (pairing_commands.cc), registered on the
// `event` subcommand.
void AddPairingCommands(CLI::App* event, CliContext& ctx, Action& action);
// `event result --board B --winner black|white|jigo|both-lose [--forfeit]`:
// the stored game of board B of `round` (a paired round) gets the outcome,
// its players, colours, handicap and komi unchanged (GetResults, then
// EditResults). Returns the exit status.
int RecordBoardResult(CliContext& ctx, int64_t event_id, int32_t round,
                      int32_t board, const std::string& winner, bool forfeit);
// The file imports (services/cli/import_file.h), each registered on its
// group's subcommand: `player import`, `cert import`, `rating import`.
void AddPlayerImportCommand(CLI::App& player, CliContext& ctx, Action& action);
void AddCertImportCommand(CLI::App& cert, CliContext& ctx, Action& action);
void AddRatingImportCommand(CLI::App& rating, CliContext& ctx, Action& action);

// Shared argument helpers. A rank travels as its notation (the server
// parses every accepted form); dates as YYYY-MM-DD.
void SetRank(const std::string& text, v1::Rank* out);
// "-" when absent; a Gomoku rank as "gomoku 3d".
std::string RankText(const v1::Rank& r);
// `--discipline go|gomoku`: false (message printed) for anything else.
bool SetDiscipline(const std::string& text, v1::Discipline* out);
// False (message printed) when `text` is not a date.
bool SetDate(const std::string& text, v1::Date* out);
std::string DateText(const v1::Date& d);  // "" when absent

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_COMMANDS_H_
