#include "services/server/rankd_server.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/server_builder.h"
#include "services/audit/annual_report.h"
#include "services/audit/audit_service.h"
#include "services/audit/audit_trail.h"
#include "services/audit/keyed_digest.h"
#include "services/audit/signing_key.h"
#include "services/auth/call_gate.h"
#include "services/auth/token_manager.h"
#include "services/auth/token_service.h"
#include "services/certificates/certificate_service.h"
#include "services/certificates/certification.h"
#include "services/certificates/index_follower.h"
#include "services/certificates/indexed_certificate_repository.h"
#include "services/certificates/public_index.h"
#include "services/common/file_text.h"
#include "services/common/metrics.h"
#include "services/common/parse_error_interceptor.h"
#include "services/common/status_macros.h"
#include "services/eligibility/eligibility_service.h"
#include "services/eligibility/grade_desk.h"
#include "services/ratings/rating_service.h"
#include "services/ratings/ratings_config.h"
#include "services/registry/player_registry.h"
#include "services/registry/registry_service.h"
#include "services/rules/rules_service.h"
#include "services/server/health_monitor.h"
#include "services/server/metrics_endpoint.h"
#include "services/server/replica_read_methods.h"
#include "services/server/server_metrics.h"
#include "services/tournaments/event_desk.h"
#include "services/tournaments/registry_player_directory.h"
#include "services/tournaments/tournament_service.h"
#include "services/web/web_server.h"
#include "spdlog/spdlog.h"
#include "storage/database.h"
#include "storage/own_audit_entries.h"
#include "storage/pg_change_feed.h"
#include "storage/sql_audit_repository.h"
#include "storage/sql_certificate_repository.h"
#include "storage/sql_event_repository.h"
#include "storage/sql_rating_repository.h"
#include "storage/sql_registry_repository.h"
#include "storage/sql_token_repository.h"

namespace gorank::server {

// Everything the server owns, in construction order (destroyed in reverse:
// handlers before domain objects before repositories before the database).
struct RankdServer::Parts {
  // On PostgreSQL: the audit entries this process wrote, which its index
  // follower need not read back (before db: it outlives db's writes).
  std::unique_ptr<storage::OwnAuditEntries> own_entries;
  std::unique_ptr<storage::Database> db;
  std::unique_ptr<storage::SqlRegistryRepository> registry_repo;
  std::unique_ptr<storage::SqlTokenRepository> token_repo;
  std::unique_ptr<storage::SqlCertificateRepository> certificate_repo;
  // The public index and the repositories that keep it coherent (null when
  // public_index is off). The views are what the modules are given: the
  // indexed repositories, or the SQL ones.
  std::unique_ptr<certificates::PublicIndex> public_index;
  std::unique_ptr<certificates::IndexedRegistryRepository> indexed_registry;
  std::unique_ptr<certificates::IndexedCertificateRepository>
      indexed_certificates;
  // On PostgreSQL: the other instances' writes into the index (stopped
  // before the parts above are destroyed).
  std::unique_ptr<certificates::ChangeFeed> index_feed;
  std::unique_ptr<certificates::IndexFollower> index_follower;
  registry::RegistryRepository* registry_view = nullptr;
  certificates::CertificateRepository* certificate_view = nullptr;
  std::unique_ptr<storage::SqlAuditRepository> audit_repo;
  std::unique_ptr<audit::SigningKey> audit_key;
  std::unique_ptr<audit::AuditTrail> audit_trail;
  std::unique_ptr<audit::Reporting> reporting;
  std::unique_ptr<auth::TokenManager> tokens;
  std::unique_ptr<registry::PlayerRegistry> registry;
  std::unique_ptr<certificates::Certification> certification;
  std::unique_ptr<Metrics> metrics;  // recorded by the gate
  std::unique_ptr<CallGate> gate;
  std::unique_ptr<registry::PlayerRegistryService> player_service;
  std::unique_ptr<registry::AgencyServiceImpl> agency_service;
  std::unique_ptr<auth::TokenServiceImpl> token_service;
  std::unique_ptr<registry::RankServiceImpl> rank_service;
  std::unique_ptr<certificates::CertificateServiceImpl> certificate_service;
  std::unique_ptr<audit::StatementDesk> statement_desk;
  std::unique_ptr<audit::AuditServiceImpl> audit_service;
  std::unique_ptr<rules::RulesServiceImpl> rules_service;
  // Tournaments and athlete grades (destroyed before the parts above).
  std::unique_ptr<storage::SqlEventRepository> event_repo;
  std::unique_ptr<tournaments::EventDesk> event_desk;
  std::unique_ptr<tournaments::RegistryPlayerDirectory> player_directory;
  std::unique_ptr<eligibility::GradeDesk> grade_desk;
  std::unique_ptr<tournaments::TournamentServiceImpl> tournament_service;
  std::unique_ptr<eligibility::EligibilityServiceImpl> eligibility_service;
  // Ratings and promotions.
  ratings::RatingsConfig ratings_config;
  std::unique_ptr<storage::SqlRatingRepository> rating_repo;
  std::unique_ptr<ratings::RatingLedger> rating_ledger;
  std::unique_ptr<ratings::RatingLists> rating_lists;
  std::unique_ptr<ratings::PromotionDesk> promotion_desk;
  std::unique_ptr<ratings::RatingServiceImpl> rating_service;
  // Operations: stopped first at shutdown (they read the parts above).
  std::unique_ptr<HealthMonitor> health_monitor;
  std::unique_ptr<MetricsEndpoint> metrics_endpoint;
};

namespace {

// Writes `secret` to `path` readable by the owner only; the file is created
// beside and renamed into place so it is never seen half-written.
absl::Status WriteSecretFile(const std::string& path,
                             const std::string& secret) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return absl::UnavailableError("cannot create " + tmp);
  const std::string line = secret + "\n";
  const bool ok = ::write(fd, line.data(), line.size()) ==
                      static_cast<ssize_t>(line.size()) &&
                  ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    return absl::UnavailableError("cannot write " + path);
  }
  return absl::OkStatus();
}

const char* const kServiceNames[] = {
    "gorank.v1.PlayerRegistry",     "gorank.v1.AgencyService",
    "gorank.v1.TokenService",       "gorank.v1.RankService",
    "gorank.v1.CertificateService", "gorank.v1.AuditService",
    "gorank.v1.RulesService",       "gorank.v1.TournamentService",
    "gorank.v1.EligibilityService", "gorank.v1.RatingService"};

// The checkpoint-signing key: loaded from `path`, or created there (mode
// 0600) at first start.
absl::StatusOr<std::unique_ptr<audit::SigningKey>> LoadOrCreateKey(
    const std::string& path) {
  auto key = audit::SigningKey::LoadPemFile(path);
  if (absl::IsNotFound(key.status())) {
    GORANK_ASSIGN_OR_RETURN(audit::SigningKey fresh,
                            audit::SigningKey::Generate());
    GORANK_RETURN_IF_ERROR(fresh.SavePemFile(path));
    spdlog::warn("first start: audit signing key created at {} (mode 0600)",
                 path);
    key = std::move(fresh);
  }
  if (!key.ok()) return key.status();
  spdlog::info("audit checkpoints signed with key {} (public key {})",
               key->KeyId(), key->public_key().Base64());
  return std::make_unique<audit::SigningKey>(std::move(*key));
}

// TLS credentials from the configured files, or plaintext (with a warning)
// when none are configured.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> Credentials(
    const ServerConfig& c) {
  if (c.tls_cert_file.empty() && c.tls_key_file.empty()) {
    if (!c.tls_client_ca_file.empty()) {
      return absl::InvalidArgumentError(
          "tls_client_ca_file needs tls_cert_file and tls_key_file");
    }
    spdlog::warn(
        "serving gRPC in PLAINTEXT: for local development only; configure "
        "tls_cert_file and tls_key_file for anything else");
    return grpc::InsecureServerCredentials();
  }
  if (c.tls_cert_file.empty() || c.tls_key_file.empty()) {
    return absl::InvalidArgumentError(
        "TLS needs both tls_cert_file and tls_key_file");
  }
  grpc::SslServerCredentialsOptions options;
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  GORANK_ASSIGN_OR_RETURN(pair.cert_chain,
                          ReadTextFile("TLS certificate", c.tls_cert_file));
  GORANK_ASSIGN_OR_RETURN(pair.private_key,
                          ReadTextFile("TLS key", c.tls_key_file));
  options.pem_key_cert_pairs.push_back(pair);
  if (!c.tls_client_ca_file.empty()) {
    GORANK_ASSIGN_OR_RETURN(options.pem_root_certs,
                            ReadTextFile("client CA", c.tls_client_ca_file));
    // Public callers need no certificate; a presented one must verify, and
    // the call gate requires one from every caller with a token.
    options.client_certificate_request =
        GRPC_SSL_REQUEST_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  spdlog::info("serving gRPC over TLS{}",
               c.tls_client_ca_file.empty()
                   ? ""
                   : ", client certificates required for tokens");
  return grpc::SslServerCredentials(options);
}

// A fresh random secret with which the web page's in-process calls show the
// call gate that the visitor's address they carry may be trusted.
std::string RandomRelayKey() {
  std::random_device random;
  std::string key;
  for (int i = 0; i < 4; ++i) key += std::to_string(random()) + "-";
  return key;
}

// The year (Asia/Shanghai) this registry was installed: when rankd's first
// start created the national-admin token, i.e. the oldest token. This year
// while there is no token yet.
absl::StatusOr<int> InstallationYear(auth::TokenManager& tokens,
                                     const Clock& clock) {
  GORANK_ASSIGN_OR_RETURN(std::vector<auth::TokenRecord> all, tokens.List());
  int64_t first = 0;
  for (const auth::TokenRecord& t : all) {
    if (t.created_unix > 0 && (first == 0 || t.created_unix < first))
      first = t.created_unix;
  }
  return first == 0 ? clock.Today().year : ShanghaiDate(first).year;
}

// Per-module wiring, in the order Start runs it. Each function builds its
// module's repositories, domain objects and handlers into `p`; the hooks
// between modules are set where the later module is wired.

// The signing key first: the row digests and entry links of the log are
// keyed with a secret derived from it (never stored in the database).
absl::Status WireStorage(const ServerConfig& config, RankdServer::Parts& p) {
  GORANK_ASSIGN_OR_RETURN(p.audit_key, LoadOrCreateKey(config.AuditKeyFile()));
  storage::DatabaseOptions db_options;
  db_options.reader_connections = config.reader_connections;
  db_options.row_digest_key = audit::RowDigestKey(*p.audit_key);
  db_options.read_replica = config.db_read_replica;
  GORANK_ASSIGN_OR_RETURN(p.db,
                          storage::Database::Open(config.db_path, db_options));
  GORANK_ASSIGN_OR_RETURN(int version, p.db->SchemaVersion());
  spdlog::info("database {} open: integrity ok, schema version {}",
               p.db->path(), version);
  const storage::Database::ReplicaStats replica = p.db->replica_stats();
  if (!replica.address.empty()) {
    spdlog::info(
        "read replica {} open ({}, schema version {}): it serves the "
        "public's read RPCs",
        replica.address, replica.standby ? "a hot standby" : "NOT a standby",
        version);
    if (!replica.standby) {
      spdlog::warn(
          "db_read_replica {} is not in recovery: its answers are right only "
          "if it holds this very database",
          replica.address);
    }
  }
  return absl::OkStatus();
}

// Where the public index's follower reads the change feed: the primary, where
// NOTIFY wakes it at each commit. (PgChangeFeed reads a hot standby too, by
// polling; the follower's read-backs go to db, which is never older.)
std::string IndexFeedUrl(const ServerConfig& config) { return config.db_path; }

// The public index's state for /metrics (nothing while it is off).
void AddIndexMetrics(Metrics* metrics, const certificates::PublicIndex* index,
                     const certificates::IndexFollower* follower) {
  using Type = Metrics::Type;
  if (index == nullptr) return;
  metrics->AddSampled(
      "rankd_public_index_usable",
      "1 while verify and lookup answer from the in-memory index, 0 while "
      "they read the database (stale, invalidated).",
      Type::kGauge,
      [index]() -> std::optional<double> { return index->usable() ? 1 : 0; });
  if (follower == nullptr) return;
  struct Figure {
    const char* name;
    const char* help;
    Type type;
    double (*of)(const certificates::FollowerStats&);
  };
  static const Figure kFigures[] = {
      {"rankd_public_index_stale",
       "1 while the index is set aside: its follower has not caught up with "
       "the change feed within the bound.",
       Type::kGauge,
       [](const certificates::FollowerStats& s) -> double {
         return s.stale ? 1 : 0;
       }},
      {"rankd_public_index_feed_connected",
       "1 while the change feed's connection answers.", Type::kGauge,
       [](const certificates::FollowerStats& s) -> double {
         return s.connected ? 1 : 0;
       }},
      {"rankd_public_index_feed_seconds_behind",
       "Seconds since the follower last caught up with the change feed.",
       Type::kGauge,
       [](const certificates::FollowerStats& s) { return s.seconds_behind; }},
      {"rankd_public_index_feed_position",
       "The last audit log entry the follower applied.", Type::kGauge,
       [](const certificates::FollowerStats& s) {
         return static_cast<double>(s.position);
       }},
      {"rankd_public_index_feed_reconnects_total",
       "Change feed connections opened after the first.", Type::kCounter,
       [](const certificates::FollowerStats& s) {
         return static_cast<double>(s.reconnects);
       }},
      {"rankd_public_index_rebuilds_total",
       "Rebuilds of the index from the database by its follower.",
       Type::kCounter, [](const certificates::FollowerStats& s) {
         return static_cast<double>(s.rebuilds);
       }}};
  for (const Figure& f : kFigures) {
    metrics->AddSampled(f.name, f.help, f.type,
                        [follower, of = f.of]() -> std::optional<double> {
                          return of(follower->stats());
                        });
  }
}

// The public index (services/certificates/public_index.h): built from the
// database and kept coherent by the indexed repositories, which every module
// is then given; on PostgreSQL an IndexFollower brings in the writes of the
// other instances (its feed position is read before the build, so nothing
// committed meanwhile is missed). When the build fails the server runs
// without it (public reads from the database).
void WirePublicIndex(const ServerConfig& config, RankdServer::Parts& p) {
  p.registry_view = p.registry_repo.get();
  p.certificate_view = p.certificate_repo.get();
  if (config.public_index == "off") {
    spdlog::info("public index off: verify and lookup read the database");
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  auto index = std::make_unique<certificates::PublicIndex>();
  std::unique_ptr<certificates::ChangeFeed> feed;
  std::unique_ptr<certificates::IndexFollower> follower;
  if (p.db->engine() == storage::Engine::kPostgres) {
    p.own_entries = std::make_unique<storage::OwnAuditEntries>();
    p.db->TrackOwnAuditEntries(p.own_entries.get());
    feed = std::make_unique<storage::PgChangeFeed>(IndexFeedUrl(config),
                                                   p.own_entries.get());
    certificates::FollowerOptions options;
    options.poll = std::chrono::milliseconds(config.public_index_poll_ms);
    options.stale_after =
        std::max(std::chrono::milliseconds(1000), 4 * options.poll);
    follower = std::make_unique<certificates::IndexFollower>(
        index.get(), p.certificate_repo.get(), p.registry_repo.get(),
        feed.get(), options, [](bool error, const std::string& what) {
          if (error) {
            spdlog::warn("public index: {}", what);
          } else {
            spdlog::info("public index: {}", what);
          }
        });
    absl::Status connected = feed->Connect();
    absl::StatusOr<int64_t> head =
        connected.ok() ? feed->Head() : absl::StatusOr<int64_t>(connected);
    if (!head.ok()) {
      spdlog::error(
          "public index off (verify reads the database): its change feed "
          "did not start: {}",
          head.status().ToString());
      return;
    }
    follower->SetPosition(*head);
  }
  absl::Status built =
      index->Build(p.certificate_repo.get(), p.registry_repo.get());
  if (!built.ok()) {
    spdlog::error("public index not built (verify reads the database): {}",
                  built.ToString());
    return;
  }
  const bool following = follower != nullptr;
  index->SetInvalidationListener([following](const absl::Status& why) {
    spdlog::error(
        "public index dropped: a committed write could not be read back "
        "({}); verify and lookup read the database {}",
        why.ToString(),
        following ? "until the follower has rebuilt it" : "until restart");
  });
  spdlog::info("public index: {} certificates, {} players in {} ms{}",
               index->certificate_count(), index->player_count(),
               std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - start)
                   .count(),
               following ? "; following the other instances' writes" : "");
  p.public_index = std::move(index);
  p.indexed_registry =
      std::make_unique<certificates::IndexedRegistryRepository>(
          p.registry_repo.get(), p.public_index.get());
  p.indexed_certificates =
      std::make_unique<certificates::IndexedCertificateRepository>(
          p.certificate_repo.get(), p.registry_repo.get(),
          p.public_index.get());
  p.registry_view = p.indexed_registry.get();
  p.certificate_view = p.indexed_certificates.get();
  if (following) {
    p.index_feed = std::move(feed);
    p.index_follower = std::move(follower);
    p.index_follower->Start();
  }
}

// Tokens, players and agencies, certificates.
void WireRegistryAndCertificates(const ServerConfig& config, const Clock* clock,
                                 RankdServer::Parts& p) {
  p.registry_repo =
      std::make_unique<storage::SqlRegistryRepository>(p.db.get());
  p.token_repo = std::make_unique<storage::SqlTokenRepository>(p.db.get());
  p.tokens = std::make_unique<auth::TokenManager>(p.token_repo.get(), clock);
  p.certificate_repo =
      std::make_unique<storage::SqlCertificateRepository>(p.db.get());
  WirePublicIndex(config, p);
  p.registry =
      std::make_unique<registry::PlayerRegistry>(p.registry_view, clock);
  certificates::CertificationOptions cert_options;
  cert_options.notice_days = config.notice_days;
  cert_options.shared_database = p.db->engine() == storage::Engine::kPostgres;
  p.certification = std::make_unique<certificates::Certification>(
      p.certificate_view, p.registry_view, clock, cert_options);
  p.certification->SetPublicIndex(p.public_index.get());
  // Ranks change when a public notice ends: settle due notices before any
  // registry read shows a rank.
  certificates::Certification* office = p.certification.get();
  p.registry->SetBeforeRead([office] { return office->SettleDueNotices(); });
}

// The audit trail and its start-up check; returns whether the log passed
// (when it did not, every write is refused until the database is restored).
absl::StatusOr<bool> WireAudit(const ServerConfig& config, const Clock* clock,
                               RankdServer::Parts& p) {
  p.audit_repo = std::make_unique<storage::SqlAuditRepository>(p.db.get());
  p.audit_trail = std::make_unique<audit::AuditTrail>(p.audit_repo.get(),
                                                      p.audit_key.get(), clock);
  // The log against the newest checkpoint rankd signed: a log that is
  // shorter or differs stops every write (health NOT_SERVING) until the
  // database is restored.
  p.audit_trail->SetLogFailureListener(
      [db = p.db.get()](const audit::LogCheck& check) {
        const std::string why = audit::LogRefusal(check);
        spdlog::error("audit log check FAILED: {}", why);
        // UNAVAILABLE, as for a database that cannot take writes (repositories
        // pass it through; FAILED_PRECONDITION would read as a constraint).
        db->RefuseWrites(absl::UnavailableError(why));
      });
  GORANK_ASSIGN_OR_RETURN(audit::LogCheck log_check, p.audit_trail->CheckLog());
  if (log_check.ok) {
    GORANK_ASSIGN_OR_RETURN(audit::Checkpoint start_cp,
                            p.audit_trail->SignCheckpointNow());
    spdlog::info(
        "audit log: {} entries match rankd's checkpoint of size {}; signed "
        "size {}",
        log_check.entries, log_check.checkpoint_size, start_cp.tree_size);
  }
  p.reporting = std::make_unique<audit::Reporting>(
      p.certificate_view, p.registry_view, p.audit_trail.get(), clock);
  // Stock for year Y is released only after the agency passed the review of
  // Y - 1. The first-year rule: no review is demanded of a year before the
  // installation (there was nothing to review), so the stock of the
  // installation year (and of earlier years) is released without one.
  audit::AuditTrail* trail = p.audit_trail.get();
  if (config.require_review_for_release) {
    auth::TokenManager* tokens = p.tokens.get();
    p.certification->SetReleasePrecondition(
        [trail, tokens, clock](const std::string& prefix,
                               int year) -> absl::Status {
          GORANK_ASSIGN_OR_RETURN(const int installed,
                                  InstallationYear(*tokens, *clock));
          if (year - 1 < installed) return absl::OkStatus();
          return trail->CheckReviewPassed(prefix, year - 1);
        });
  }
  return log_check.ok;
}

// The call gate and the handlers of the registry, certificate, audit and
// rules services.
CallGateOptions WireGateAndHandlers(const ServerConfig& config,
                                    const Clock* clock, RankdServer::Parts& p) {
  CallGateOptions gate_options;
  gate_options.public_limit =
      RateLimit{config.public_rate, config.public_burst};
  gate_options.token_limit = RateLimit{config.token_rate, config.token_burst};
  gate_options.relay_key = RandomRelayKey();
  gate_options.client_cert_required = !config.tls_client_ca_file.empty();
  p.metrics = std::make_unique<Metrics>();
  gate_options.metrics = p.metrics.get();
  if (!config.db_read_replica.empty())
    gate_options.replica_read_methods = ReplicaReadMethods();
  p.gate = std::make_unique<CallGate>(p.tokens.get(), gate_options);
  p.player_service = std::make_unique<registry::PlayerRegistryService>(
      p.gate.get(), p.registry.get());
  p.agency_service = std::make_unique<registry::AgencyServiceImpl>(
      p.gate.get(), p.registry.get());
  p.token_service =
      std::make_unique<auth::TokenServiceImpl>(p.gate.get(), p.tokens.get());
  p.rank_service = std::make_unique<registry::RankServiceImpl>(p.gate.get());
  p.certificate_service =
      std::make_unique<certificates::CertificateServiceImpl>(
          p.gate.get(), p.certification.get(), clock);
  p.audit_service = std::make_unique<audit::AuditServiceImpl>(
      p.gate.get(), p.audit_trail.get(), p.reporting.get(),
      config.StateDirectory());
  // Certificate statements and the revocation list, signed with the audit
  // key (one federation key: certificate_statement.h).
  p.statement_desk = std::make_unique<audit::StatementDesk>(
      p.certification.get(), p.registry_view, p.audit_repo.get(),
      p.audit_key.get(), clock);
  p.audit_service->SetStatementDesk(p.statement_desk.get());
  p.rules_service = std::make_unique<rules::RulesServiceImpl>(p.gate.get());
  return gate_options;
}

// Tournaments and athlete grades; the tournament-award basis of the registry.
void WireTournaments(const Clock* clock, RankdServer::Parts& p) {
  p.event_repo = std::make_unique<storage::SqlEventRepository>(p.db.get());
  p.event_desk =
      std::make_unique<tournaments::EventDesk>(p.event_repo.get(), clock);
  // Entrants are registered players: entered by id, imported rows matched.
  p.player_directory =
      std::make_unique<tournaments::RegistryPlayerDirectory>(p.registry_view);
  p.event_desk->SetPlayerDirectory(p.player_directory.get());
  // A tournament award rests on a closed event the player played in, or on
  // one of the player's certificates in force.
  certificates::Certification* office = p.certification.get();
  tournaments::EventRepository* events = p.event_repo.get();
  p.registry->SetAwardBasisCheck(
      [office, events](
          const registry::Player& player,
          const registry::AwardBasis& basis) -> absl::StatusOr<std::string> {
        if (!basis.certificate.empty()) {
          return office->AwardCertificateBasis(player, basis.certificate);
        }
        const tournaments::EventId id{basis.event_id};
        GORANK_ASSIGN_OR_RETURN(tournaments::Event event, events->GetEvent(id));
        const std::string named =
            "event " + std::to_string(id.value) + " (" + event.name + ")";
        if (!event.closed) {
          return absl::FailedPreconditionError(
              named + " is not closed: an award rests on final results");
        }
        GORANK_ASSIGN_OR_RETURN(std::vector<tournaments::EventId> played,
                                events->EventsOfPlayer(player.id));
        if (std::find(played.begin(), played.end(), id) == played.end()) {
          return absl::FailedPreconditionError(
              "player " + std::to_string(player.id.value) +
              " is not an entrant of " + named);
        }
        return named;
      });
  p.grade_desk = std::make_unique<eligibility::GradeDesk>(
      p.event_repo.get(), p.certificate_view, clock);
  p.tournament_service = std::make_unique<tournaments::TournamentServiceImpl>(
      p.gate.get(), p.event_desk.get());
  p.eligibility_service = std::make_unique<eligibility::EligibilityServiceImpl>(
      p.gate.get(), p.grade_desk.get());
}

// Ratings: the rules in force (the shipped file unless ratings_config_file
// names another; a bad file stops the start with its name and the problem),
// the stored rating table loaded as it is when its digest is right, else
// brought up to date by a full recompute (written only when it differs, and
// not at all while the log fails its check), the incremental update on
// every event close, and the promotion desk.
absl::Status WireRatings(const ServerConfig& config, const Clock* clock,
                         bool log_ok, RankdServer::Parts& p) {
  if (config.ratings_config_file.empty()) {
    p.ratings_config = ratings::DefaultRatingsConfig();
  } else {
    absl::StatusOr<ratings::RatingsConfig> loaded =
        ratings::LoadRatingsConfigFile(config.ratings_config_file);
    if (!loaded.ok()) {
      return absl::Status(
          loaded.status().code(),
          "ratings_config_file: " + std::string(loaded.status().message()));
    }
    p.ratings_config = std::move(*loaded);
    spdlog::info("promotion rules and rating settings from {}",
                 config.ratings_config_file);
  }
  p.rating_repo = std::make_unique<storage::SqlRatingRepository>(p.db.get());
  p.rating_ledger = std::make_unique<ratings::RatingLedger>(
      p.event_repo.get(), p.rating_repo.get(), clock, p.ratings_config.rating);
  // The monthly lists: the ended months' lists are kept before any rating
  // write, at start and before a monthly read (rating_lists.h).
  p.rating_lists =
      std::make_unique<ratings::RatingLists>(p.rating_repo.get(), clock);
  ratings::RatingLists* lists = p.rating_lists.get();
  p.rating_ledger->SetBeforeWrite([lists] { return lists->KeepEndedMonths(); });
  if (log_ok) {
    if (absl::Status kept = lists->KeepEndedMonths(); !kept.ok()) {
      spdlog::error("ratings: the ended months' lists not kept: {}",
                    kept.ToString());
    }
  }
  const auto start = std::chrono::steady_clock::now();
  GORANK_ASSIGN_OR_RETURN(
      ratings::RecomputeReport report,
      p.rating_ledger->LoadOrRecompute("system:start", /*dry_run=*/!log_ok));
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  if (report.loaded) {
    spdlog::info(
        "ratings: stored table loaded, {} events, {} players, table {} "
        "({} ms)",
        report.events, report.players, report.table_sha256.substr(0, 16), ms);
  } else {
    spdlog::info(
        "ratings: recomputed ({}): {} events, {} players, table {}{} ({} ms)",
        report.recompute_reason, report.events, report.players,
        report.table_sha256.substr(0, 16), report.stored ? " (stored)" : "",
        ms);
  }
  ratings::RatingLedger* ledger = p.rating_ledger.get();
  p.event_desk->SetAfterClose(
      [ledger](const auth::Caller& caller, const tournaments::Event& e) {
        absl::Status s = ledger->EventClosed(e.id, caller.Describe());
        if (!s.ok()) {
          spdlog::error(
              "ratings not advanced by event {} (run RecomputeRatings): {}",
              e.id.value, s.ToString());
        }
      });
  p.promotion_desk = std::make_unique<ratings::PromotionDesk>(
      &p.ratings_config.promotion, p.rating_repo.get(), p.event_repo.get(),
      p.registry_view, p.certification.get(), clock);
  p.rating_service = std::make_unique<ratings::RatingServiceImpl>(
      p.gate.get(), p.rating_repo.get(), p.rating_lists.get(),
      p.rating_ledger.get(), p.promotion_desk.get());
  return absl::OkStatus();
}

// The gRPC server with every handler, listening on config.listen.
absl::StatusOr<std::unique_ptr<grpc::Server>> BuildGrpcServer(
    const ServerConfig& config, RankdServer::Parts& p, int* port) {
  GORANK_ASSIGN_OR_RETURN(std::shared_ptr<grpc::ServerCredentials> credentials,
                          Credentials(config));
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(config.listen, credentials, port);
  builder.SetMaxReceiveMessageSize(config.max_request_bytes);
  // A request gRPC cannot parse (a string that is not UTF-8) gets
  // INVALID_ARGUMENT naming the field instead of a bare INTERNAL.
  std::vector<
      std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
      interceptors;
  interceptors.push_back(NewParseErrorInterceptorFactory());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  // gRPC enables SO_REUSEPORT by default: a second rankd would silently share
  // the port with the first. Refuse to bind a busy address instead.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // gRPC's sync server keeps 1 to 2 threads polling by default: under load
  // (handlers that wait for a group commit, or 16 verifies in flight) it
  // started and ended a thread for nearly every call. 2 to 16 pollers keep
  // them: measured with rankd_load on 2 cores, issue 820-990/s -> 1,230/s,
  // verify at 16 in flight 5,930/s -> 6,750/s, 1 in flight unchanged
  // (4,000/s).
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, 2);
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, 16);
  for (grpc::Service* service : std::initializer_list<grpc::Service*>{
           p.player_service.get(), p.agency_service.get(),
           p.token_service.get(), p.rank_service.get(),
           p.certificate_service.get(), p.audit_service.get(),
           p.rules_service.get(), p.tournament_service.get(),
           p.eligibility_service.get(), p.rating_service.get()}) {
    builder.RegisterService(service);
  }
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || *port == 0)
    return absl::UnavailableError("cannot listen on " + config.listen);
  return server;
}

}  // namespace

absl::StatusOr<std::unique_ptr<RankdServer>> RankdServer::Start(
    const ServerConfig& config, const Clock* clock) {
  std::unique_ptr<RankdServer> s(new RankdServer());
  s->grace_ms_ = config.shutdown_grace_ms;
  s->parts_ = std::make_unique<Parts>();
  Parts& p = *s->parts_;

  GORANK_RETURN_IF_ERROR(WireStorage(config, p));
  WireRegistryAndCertificates(config, clock, p);
  GORANK_ASSIGN_OR_RETURN(const bool log_ok, WireAudit(config, clock, p));
  const CallGateOptions gate_options = WireGateAndHandlers(config, clock, p);
  WireTournaments(clock, p);
  GORANK_RETURN_IF_ERROR(WireRatings(config, clock, log_ok, p));

  std::optional<std::string> secret;
  if (log_ok) {
    GORANK_ASSIGN_OR_RETURN(secret, p.tokens->BootstrapIfEmpty());
  }
  if (secret) {
    const std::string path = config.AdminTokenFile();
    GORANK_RETURN_IF_ERROR(WriteSecretFile(path, *secret));
    s->bootstrap_secret_ = *secret;
    spdlog::warn("first start: national-admin token written to {} (mode 0600)",
                 path);
  }

  GORANK_ASSIGN_OR_RETURN(s->server_, BuildGrpcServer(config, p, &s->port_));
  if (!config.http_listen.empty()) {
    web::WebOptions web_options;
    web_options.listen = config.http_listen;
    web_options.limit = RateLimit{config.http_rate, config.http_burst};
    web_options.max_body_bytes =
        static_cast<size_t>(config.http_max_body_bytes);
    web_options.io_timeout_ms = config.http_timeout_ms;
    web_options.call_deadline_ms = config.http_call_deadline_ms;
    web_options.max_notices = config.http_max_notices;
    web_options.relay_key = gate_options.relay_key;
    web_options.public_base_url = config.public_base_url;
    web_options.branding = {config.web_title_zh, config.web_title_en,
                            config.web_footer_zh, config.web_footer_en};
    web_options.logo_file = config.web_logo_file;
    GORANK_ASSIGN_OR_RETURN(
        s->web_, web::WebServer::Start(web_options, s->InProcessChannel()));
    s->http_port_ = s->web_->port();
  }
  auto* health = s->server_->GetHealthCheckService();
  // NOT_SERVING from the first call on while the audit log fails its check.
  health->SetServingStatus(log_ok);
  for (const char* name : kServiceNames) health->SetServingStatus(name, log_ok);
  if (!log_ok) {
    spdlog::error(
        "health: NOT_SERVING: the audit log failed its check; reads only");
  }
  spdlog::info("rankd serving on port {}", s->port_);
  GORANK_RETURN_IF_ERROR(s->StartOperations(config));
  if (!log_ok) s->ProbeHealthNow();  // the monitor learns it too
  return s;
}

RankdServer::~RankdServer() { Shutdown(); }

std::shared_ptr<grpc::Channel> RankdServer::InProcessChannel() {
  return server_->InProcessChannel(grpc::ChannelArguments());
}

storage::Database* RankdServer::database() {
  return parts_ ? parts_->db.get() : nullptr;
}

absl::Status RankdServer::StartOperations(const ServerConfig& config) {
  Parts& p = *parts_;
  // Health follows the storage probe: NOT_SERVING for "" and every service
  // while the database cannot be read.
  grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService();
  p.health_monitor = std::make_unique<HealthMonitor>(
      [db = p.db.get()] {
        absl::Status s = db->Probe();
        // Writes refused (the audit log failed its check) are not serving.
        return s.ok() ? db->write_refusal() : s;
      },
      [health](bool serving, const absl::Status& why) {
        if (serving) {
          spdlog::info("health: SERVING again, the database answers");
        } else {
          spdlog::error("health: NOT_SERVING: {}", why.ToString());
        }
        health->SetServingStatus(serving);  // "" and every registered name
      });
  p.health_monitor->Start(config.health_probe_ms);
  const double start = std::chrono::duration<double>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
  AddServerMetrics(p.metrics.get(), p.db.get(), p.health_monitor.get(), start);
  AddIndexMetrics(p.metrics.get(), p.public_index.get(),
                  p.index_follower.get());
  if (!config.metrics_listen.empty()) {
    HealthMonitor* monitor = p.health_monitor.get();
    GORANK_ASSIGN_OR_RETURN(p.metrics_endpoint,
                            MetricsEndpoint::Start(
                                config.metrics_listen,
                                [m = p.metrics.get()] { return m->Render(); },
                                [monitor] { return monitor->serving(); }));
    metrics_port_ = p.metrics_endpoint->port();
    spdlog::info(
        "metrics endpoint on port {} (metrics_listen {}): /metrics, /healthz",
        metrics_port_, config.metrics_listen);
  }
  return absl::OkStatus();
}

bool RankdServer::ProbeHealthNow() {
  return parts_ && parts_->health_monitor && parts_->health_monitor->ProbeNow();
}

void RankdServer::Shutdown() {
  if (shut_down_ || !server_) return;
  shut_down_ = true;
  if (web_) web_->Stop();  // first: its pages call the gRPC server
  if (parts_->metrics_endpoint) parts_->metrics_endpoint->Stop();
  if (parts_->health_monitor) parts_->health_monitor->Stop();
  server_->GetHealthCheckService()->Shutdown();
  server_->Shutdown(std::chrono::system_clock::now() +
                    std::chrono::milliseconds(grace_ms_));
  server_->Wait();
  // A checkpoint over every entry of this run, so that the next start finds
  // any of them removed (nothing is signed while the log fails its check).
  if (parts_->audit_trail && parts_->audit_trail->last_log_check().ok) {
    absl::StatusOr<audit::Checkpoint> cp =
        parts_->audit_trail->SignCheckpointNow();
    if (!cp.ok())
      spdlog::warn("no checkpoint signed at shutdown: {}",
                   cp.status().ToString());
  }
  parts_.reset();  // closes the database after the last call returned
  spdlog::info("rankd stopped; database closed");
}

}  // namespace gorank::server
