// rankctl: the command-line client of rankd for associations.
//
//   rankctl [--config FILE] [--server ADDR] [--token-file F] [--json] <command>
//   ...
//
// Connection settings: a flag, else RANKCTL_SERVER / RANKCTL_TOKEN_FILE /
// RANKCTL_CA_FILE, else the config file (--config, or
// ~/.config/rankctl/config.toml when it exists), else the default.
//
// Exit status: 0 success, 1 the server refused or failed the call (one line
// on stderr: "rankctl: CODE: message"), 2 usage error (a message naming the
// flag), 3 `check` found a failing record or `cert verify` answered NOT_VALID.

#include "CLI/CLI.hpp"
#include "services/cli/cli_context.h"
#include "services/cli/commands.h"
#include "services/cli/integer_args.h"

int main(int argc, char** argv) {
  using namespace gorank::cli;
  CLI::App app{"rankctl: client of the rankd rank-certification registry"};
  app.require_subcommand(1);
  // Global flags may also be written after the command ("player get 1 --json").
  app.fallthrough();
  CliContext ctx;
  std::string config_file;
  app.add_option("--config", config_file,
                 "rankctl config file (default: ~/.config/rankctl/config.toml "
                 "if it exists)");
  auto* server = app.add_option("--server", ctx.server,
                                "rankd address HOST:PORT (env RANKCTL_SERVER)")
                     ->capture_default_str();
  auto* token_file = app.add_option(
      "--token-file", ctx.token_file,
      "file holding the bearer token (env RANKCTL_TOKEN_FILE; none: act as "
      "the public)");
  app.add_flag("--json", ctx.json, "print answers as JSON");
  app.add_option("--timeout", ctx.timeout_seconds,
                 "seconds to wait for an answer")
      ->capture_default_str();
  auto* ca_file = app.add_option(
      "--ca-file", ctx.ca_file,
      "use TLS; the CA that signed rankd's certificate (env RANKCTL_CA_FILE)");
  auto* cert_file = app.add_option("--cert-file", ctx.cert_file,
                                   "client certificate for mutual TLS (PEM)");
  auto* key_file = app.add_option("--key-file", ctx.key_file,
                                  "client key for mutual TLS (PEM)");
  auto* time_zone = app.add_option("--time-zone", ctx.time_zone,
                                   "time zone times are printed in (IANA name)")
                        ->capture_default_str();
  Action action;
  AddRegistryCommands(app, ctx, action);
  AddCertificateCommands(app, ctx, action);
  AddAuditCommands(app, ctx, action);
  AddRulesCommands(app, ctx, action);
  AddEventCommands(app, ctx, action);
  AddRatingCommands(app, ctx, action);
  AddPromotionCommands(app, ctx, action);
  AddPlayerImportCommand(*app.get_subcommand("player"), ctx, action);
  AddCertImportCommand(*app.get_subcommand("cert"), ctx, action);
  AddRatingImportCommand(*app.get_subcommand("rating"), ctx, action);
  RequireDecimalIntegers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  if (!action) return CliContext::Usage("no command given; see --help");
  const FlagsGiven given{server->count() > 0,   token_file->count() > 0,
                         ca_file->count() > 0,  cert_file->count() > 0,
                         key_file->count() > 0, time_zone->count() > 0};
  if (const std::string bad = ctx.ApplySettings(config_file, given);
      !bad.empty()) {
    return CliContext::Usage(bad);
  }
  if (const std::string bad = ctx.ApplyTimeZone(); !bad.empty()) {
    return CliContext::Usage(bad);
  }
  return action();
}
