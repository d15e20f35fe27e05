// `rating import FILE`: not registered yet (being written).
#include "services/cli/commands.h"

namespace gorank::cli {

void AddRatingImportCommand(CLI::App&, CliContext&, Action&) {}

}  // namespace gorank::cli
