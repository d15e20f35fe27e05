// rankd's configuration: defaults, an optional TOML file, then command-line
// flags (flags win). Every key is documented in deploy/rankd.example.toml.
#ifndef GORANK_SERVICES_SERVER_SERVER_CONFIG_H_
#define GORANK_SERVICES_SERVER_SERVER_CONFIG_H_

#include <string>

#include "absl/status/statusor.h"

namespace gorank::server {

struct ServerConfig {
  // An SQLite file, or a PostgreSQL URL ("postgresql://user@host:port/db").
  std::string db_path = "data/rankd.db";
  // With db on PostgreSQL: the URL of a hot standby streaming from it that
  // serves the public's read RPCs (services/server/replica_reads.h lists
  // them); writes and every other read go to db. Empty: none.
  std::string db_read_replica;
  std::string listen = "127.0.0.1:50051";
  // Public web page (HTTP) address "HOST:PORT"; empty: no web page.
  std::string http_listen;
  // Where the public reaches the web page; printed certificates' QR codes
  // point to <public_base_url>/verify?number=<number>.
  std::string public_base_url = "http://127.0.0.1:8080";
  // Web page limits: requests a second and burst per client address (rate 0:
  // off), largest request body (bytes), connection read/write timeout and the
  // deadline of each gRPC call behind a page (ms), notices shown on a page.
  double http_rate = 10;
  double http_burst = 30;
  int http_max_body_bytes = 16384;
  int http_timeout_ms = 5000;
  int http_call_deadline_ms = 3000;
  int http_max_notices = 200;
  // The web page's own face: the federation's title and footer in Chinese
  // and English (empty: the built-in ones) and its logo, a PNG or SVG file of
  // at most 256 KiB (empty: none).
  std::string web_title_zh;
  std::string web_title_en;
  std::string web_footer_zh;
  std::string web_footer_en;
  std::string web_logo_file;
  // Where the bootstrap national-admin token is written at first start
  // (mode 0600). Default: "admin.token" beside the database.
  std::string admin_token_file;
  std::string log_level = "info";
  int reader_connections = 4;
  // Grace period for in-flight calls at shutdown.
  int shutdown_grace_ms = 5000;
  // Largest request accepted, bytes.
  int max_request_bytes = 4 << 20;
  // Ed25519 key (PKCS#8 PEM, mode 0600) that signs audit checkpoints;
  // created at first start. Default: "audit_ed25519.pem" beside the database.
  std::string audit_key_file;
  // Releasing stock for year Y needs a passed annual review of Y - 1.
  bool require_review_for_release = true;
  // Rate limits: calls a second and burst, per client address for calls
  // without a token, per token otherwise. 0 turns a limit off.
  double public_rate = 100;
  double public_burst = 500;
  double token_rate = 1000;
  double token_burst = 5000;
  // TLS: serve gRPC over TLS with this certificate chain and key (PEM). Empty:
  // plaintext, for local development only (a warning is logged).
  std::string tls_cert_file;
  std::string tls_key_file;
  // With TLS: CA (PEM) that signs client certificates. When set, a client
  // certificate is verified if presented, and required for every call that
  // carries a token (mutual TLS for non-public roles); public calls need none.
  std::string tls_client_ca_file;
  // Public-notice period of 4d..7d certificates, days.
  int notice_days = 7;
  // The in-memory public index that answers VerifyCertificate and
  // LookupRank: "auto" or "on" (the same: on both engines; on PostgreSQL it
  // follows the other instances' writes, IndexFollower) or "off".
  std::string public_index = "auto";
  // On PostgreSQL: the longest wait of the index's follower between two
  // reads of the change feed when no NOTIFY wakes it, ms. Not caught up for
  // max(1000, 4 x this), the index is set aside (reads go to the database).
  int public_index_poll_ms = 250;
  // Rating settings and promotion rules (TOML, the format of the shipped
  // services/ratings/default_ratings.toml). Empty: the shipped rules.
  std::string ratings_config_file;
  // How often the health probe reads the database, milliseconds; while it
  // fails, grpc.health.v1 reports NOT_SERVING. 0 turns the probe off.
  int health_probe_ms = 2000;
  // HOST:PORT of the plain-HTTP metrics endpoint (/metrics, /healthz).
  // Empty: off.
  std::string metrics_listen;

  // Where rankd keeps its files by default (admin token, audit key,
  // backups): the SQLite file's folder, or the working directory when the
  // database is on PostgreSQL.
  std::string StateDirectory() const;
  // admin_token_file with its default applied.
  std::string AdminTokenFile() const;
  // audit_key_file with its default applied.
  std::string AuditKeyFile() const;
};

// Reads a TOML file over `config`. INVALID_ARGUMENT naming the key (or the
// line of a syntax error) for anything it does not understand; NOT_FOUND
// when the file does not exist.
absl::Status LoadConfigFile(const std::string& path, ServerConfig* config);
// Same, from text (for tests and fuzzing).
absl::Status ParseConfigText(const std::string& text, ServerConfig* config);

}  // namespace gorank::server

#endif  // GORANK_SERVICES_SERVER_SERVER_CONFIG_H_
