// rankctl cert print NUMBER --out FILE [--verify-base URL]: fetches the
// certificate (GetCertificate, needs a token), its holder (GetPlayer) and
// agency (ListAgencies), and writes a printable PDF with a QR code that
// points at the public verification page for the number.
#ifndef GORANK_SERVICES_CLI_CERTIFICATE_PRINT_H_
#define GORANK_SERVICES_CLI_CERTIFICATE_PRINT_H_

#include "CLI/CLI.hpp"
#include "services/cli/cli_context.h"
#include "services/cli/commands.h"

namespace gorank::cli {

// Registers `print` under the `cert` subcommand.
void AddCertPrintCommand(CLI::App& cert, CliContext& ctx, Action& action);

// Writes `bytes` to `path` atomically: a temporary file in the same
// directory, flushed to disk, then renamed over `path`. On failure `path` is
// untouched and the message says what failed.
bool WriteFileAtomically(const std::string& path, const std::string& bytes,
                         std::string* error);

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_CERTIFICATE_PRINT_H_
