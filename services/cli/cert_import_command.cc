// `cert import FILE`: not registered yet (being written).
#include "services/cli/commands.h"

namespace gorank::cli {

void AddCertImportCommand(CLI::App&, CliContext&, Action&) {}

}  // namespace gorank::cli
