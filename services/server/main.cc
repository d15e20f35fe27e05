// rankd: the rank-certification and player registry server.
//
//   rankd --db PATH|URL --listen HOST:PORT [--config FILE]
//         [--db-read-replica URL]
//         [--admin-token-file F] [--audit-key-file F]
//         [--metrics-listen HOST:PORT]
//   rankd --db PATH|URL --restore BACKUP [--force]
//   rankd --db PATH|URL --migrate-to PATH|URL
//
// Runs until SIGTERM or SIGINT, then lets in-flight calls finish and closes
// the database cleanly. Exit status: 0 after a clean stop, 1 when it cannot
// start (the reason is logged), 2 for bad flags.

#include <pthread.h>

#include <csignal>

#include "CLI/CLI.hpp"
#include "absl/synchronization/mutex.h"
#include "services/server/rankd_server.h"
#include "services/server/restore.h"
#include "spdlog/spdlog.h"
#include "storage/database.h"

int main(int argc, char** argv) {
  // Debian's Abseil checks every absl::Mutex acquisition (gRPC's own
  // included) for lock-order cycles, a debugging aid that cost about 1.3% of
  // rankd's CPU at one public verify in flight (perf, GraphCycles::GetId).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  using gorank::server::ServerConfig;
  CLI::App app{"rankd: Go rank-certification and player registry server"};
  std::string config_file;
  std::string db, listen, token_file, log_level;
  app.add_option("--config", config_file,
                 "TOML config file (see deploy/rankd.example.toml)");
  app.add_option("--db", db,
                 "SQLite database file (created if missing) or PostgreSQL URL "
                 "postgresql://USER@HOST:PORT/DBNAME");
  app.add_option("--listen", listen, "HOST:PORT to serve gRPC on");
  std::string db_read_replica;
  app.add_option("--db-read-replica", db_read_replica,
                 "PostgreSQL URL of a hot standby of --db that serves the "
                 "public's reads (config db_read_replica)");
  std::string http_listen;
  app.add_option(
      "--http-listen", http_listen,
      "HOST:PORT for the public web page (config http_listen; empty: none)");
  app.add_option("--admin-token-file", token_file,
                 "where the first start writes the national-admin token");
  app.add_option("--log-level", log_level, "trace|debug|info|warn|error");
  std::string audit_key_file;
  app.add_option("--audit-key-file", audit_key_file,
                 "the audit log's signing key (config audit_key_file; every "
                 "instance on one "
                 "database needs the same key)");
  std::string metrics_listen;
  app.add_option(
      "--metrics-listen", metrics_listen,
      "HOST:PORT for the HTTP metrics endpoint (/metrics, /healthz)");
  std::string restore_from;
  bool force = false;
  app.add_option("--restore", restore_from,
                 "restore the database at --db from a backup made by `rankctl "
                 "backup`, then exit");
  app.add_flag("--force", force,
               "with --restore: replace an existing database");
  std::string migrate_to;
  app.add_option(
      "--migrate-to", migrate_to,
      "copy the whole registry at --db into a new SQLite file or an empty "
      "PostgreSQL database (URL), then exit; rankd must not be serving --db");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  ServerConfig config;
  if (!config_file.empty()) {
    absl::Status s = gorank::server::LoadConfigFile(config_file, &config);
    if (!s.ok()) {
      spdlog::error("{}", s.ToString());
      return 2;
    }
  }
  if (!db.empty()) config.db_path = db;
  if (!listen.empty()) config.listen = listen;
  if (!db_read_replica.empty()) config.db_read_replica = db_read_replica;
  if (!http_listen.empty()) config.http_listen = http_listen;
  if (!token_file.empty()) config.admin_token_file = token_file;
  if (!audit_key_file.empty()) config.audit_key_file = audit_key_file;
  if (!log_level.empty()) config.log_level = log_level;
  if (!metrics_listen.empty()) config.metrics_listen = metrics_listen;
  spdlog::set_level(spdlog::level::from_str(config.log_level));

  if (!restore_from.empty()) {
    absl::Status s =
        gorank::server::RestoreDatabase(restore_from, config.db_path, force);
    if (!s.ok()) {
      spdlog::error("restore failed: {}", s.ToString());
      return 1;
    }
    spdlog::info("restored {} from {}; start rankd on it as usual",
                 config.db_path, restore_from);
    return 0;
  }

  if (!migrate_to.empty()) {
    auto report = gorank::server::MigrateDatabase(config.db_path, migrate_to);
    if (!report.ok()) {
      spdlog::error("migration failed, nothing written: {}",
                    report.status().ToString());
      return 1;
    }
    spdlog::info(
        "copied {} rows of {} tables ({} audit log entries) from {} to {}; row "
        "digests "
        "identical (fingerprint {}); start rankd on the new database, with the "
        "same "
        "audit_key_file",
        report->rows, report->tables, report->audit_entries,
        gorank::storage::DisplayAddress(config.db_path),
        gorank::storage::DisplayAddress(migrate_to), report->rows_sha256);
    return 0;
  }

  // Block the stop signals in every thread (gRPC's included) and take them
  // synchronously in main.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto server = gorank::server::RankdServer::Start(config);
  if (!server.ok()) {
    spdlog::error("rankd cannot start: {}", server.status().ToString());
    return 1;
  }
  int sig = 0;
  sigwait(&stop_signals, &sig);
  spdlog::info("received {}, shutting down",
               sig == SIGTERM ? "SIGTERM" : "SIGINT");
  (*server)->Shutdown();
  return 0;
}
