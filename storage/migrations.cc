#include "storage/migrations.h"

#include <sstream>
#include <string>

#include "nlohmann/json.hpp"
#include "services/common/status_macros.h"
#include "storage/audit_log.h"
#include "storage/pg_schema.h"
#include "storage/regions.h"

namespace gorank::storage {
namespace {

constexpr char kSchemaV1[] = R"sql(
CREATE TABLE agencies(
  prefix TEXT PRIMARY KEY CHECK (length(prefix) = 3),
  name TEXT NOT NULL,
  name_en TEXT NOT NULL DEFAULT '',
  level INTEGER NOT NULL,
  status INTEGER NOT NULL,
  status_reason TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE TABLE players(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  latin_name TEXT NOT NULL DEFAULT '',
  gender INTEGER NOT NULL,
  birth_date TEXT,
  agency_prefix TEXT NOT NULL REFERENCES agencies(prefix),
  resident_id TEXT UNIQUE,
  rank_ordinal INTEGER,
  created_unix INTEGER NOT NULL,
  updated_unix INTEGER NOT NULL
) STRICT;
CREATE INDEX players_by_name ON players(name);
CREATE INDEX players_by_latin_name ON players(latin_name);
CREATE INDEX players_by_agency ON players(agency_prefix, id);

CREATE TABLE rank_history(
  id INTEGER PRIMARY KEY,
  player_id INTEGER NOT NULL REFERENCES players(id),
  discipline TEXT NOT NULL DEFAULT 'go',
  from_ordinal INTEGER,
  to_ordinal INTEGER,
  effective_date TEXT NOT NULL,
  reason INTEGER NOT NULL,
  basis TEXT NOT NULL,
  actor TEXT NOT NULL,
  recorded_unix INTEGER NOT NULL
) STRICT;
CREATE INDEX rank_history_by_player ON rank_history(player_id, id);

CREATE TABLE tokens(
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  role INTEGER NOT NULL,
  agency_prefix TEXT REFERENCES agencies(prefix),
  label TEXT NOT NULL,
  created_unix INTEGER NOT NULL,
  revoked_unix INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE audit_log(
  seq INTEGER PRIMARY KEY,
  entry BLOB NOT NULL,
  leaf_hash BLOB NOT NULL
) STRICT;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
)sql";

constexpr char kSchemaV3[] = R"sql(
CREATE TABLE certificate_serials(
  prefix TEXT NOT NULL REFERENCES agencies(prefix),
  year INTEGER NOT NULL,
  last_serial INTEGER NOT NULL CHECK (last_serial BETWEEN 0 AND 9999),
  PRIMARY KEY (prefix, year)
) STRICT;

CREATE TABLE certificates(
  number TEXT PRIMARY KEY CHECK (length(number) = 9),
  discipline TEXT NOT NULL DEFAULT 'go',
  prefix TEXT NOT NULL REFERENCES agencies(prefix),
  year INTEGER NOT NULL,
  serial INTEGER NOT NULL CHECK (serial BETWEEN 1 AND 9999),
  player_id INTEGER NOT NULL REFERENCES players(id),
  grade_ordinal INTEGER NOT NULL,
  issue_date TEXT NOT NULL,
  basis INTEGER NOT NULL,
  basis_reference TEXT NOT NULL,
  issued_by TEXT NOT NULL,
  issued_unix INTEGER NOT NULL,
  notice_until_unix INTEGER NOT NULL DEFAULT 0,
  rank_applied INTEGER NOT NULL DEFAULT 0,
  rank_before_ordinal INTEGER,
  revoked_unix INTEGER NOT NULL DEFAULT 0,
  revoke_reason TEXT NOT NULL DEFAULT '',
  correction_reason TEXT NOT NULL DEFAULT '',
  request_id TEXT UNIQUE,
  request_hash TEXT NOT NULL DEFAULT '',
  UNIQUE (prefix, year, serial)
) STRICT;
CREATE INDEX certificates_by_player ON certificates(player_id);
CREATE INDEX certificates_pending ON certificates(number)
  WHERE rank_applied = 0 AND revoked_unix = 0;

CREATE TABLE objections(
  id INTEGER PRIMARY KEY,
  number TEXT NOT NULL REFERENCES certificates(number),
  text TEXT NOT NULL,
  contact TEXT NOT NULL,
  lodged_unix INTEGER NOT NULL,
  state INTEGER NOT NULL,
  decided_unix INTEGER NOT NULL DEFAULT 0,
  decision_note TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX objections_by_number ON objections(number);

CREATE TABLE appraisals(
  id INTEGER PRIMARY KEY,
  player_id INTEGER NOT NULL REFERENCES players(id),
  grade_ordinal INTEGER NOT NULL,
  agency_prefix TEXT NOT NULL REFERENCES agencies(prefix),
  note TEXT NOT NULL,
  recommended_by TEXT NOT NULL,
  recommended_unix INTEGER NOT NULL,
  state INTEGER NOT NULL,
  decided_unix INTEGER NOT NULL DEFAULT 0,
  decision_note TEXT NOT NULL DEFAULT '',
  certificate_number TEXT REFERENCES certificates(number)
) STRICT;

CREATE TABLE stock_orders(
  agency_prefix TEXT NOT NULL REFERENCES agencies(prefix),
  year INTEGER NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 9999),
  ordered_unix INTEGER NOT NULL,
  ordered_by TEXT NOT NULL,
  released_unix INTEGER NOT NULL DEFAULT 0,
  released_by TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (agency_prefix, year)
) STRICT;
)sql";

constexpr char kSchemaV4[] = R"sql(
CREATE TABLE audit_checkpoints(
  tree_size INTEGER PRIMARY KEY,
  root_hash BLOB NOT NULL,
  time_unix INTEGER NOT NULL,
  signature BLOB NOT NULL,
  key_id TEXT NOT NULL
) STRICT;

CREATE TABLE annual_reviews(
  id INTEGER PRIMARY KEY,
  agency_prefix TEXT NOT NULL REFERENCES agencies(prefix),
  year INTEGER NOT NULL,
  outcome INTEGER NOT NULL,
  findings TEXT NOT NULL,
  checkpoint_size INTEGER NOT NULL,
  checkpoint_root BLOB NOT NULL,
  reviewer TEXT NOT NULL,
  recorded_unix INTEGER NOT NULL
) STRICT;
CREATE INDEX annual_reviews_by_agency ON annual_reviews(agency_prefix, year, id);
)sql";

// Tournaments: the description and results are JSON documents
// (services/tournaments/event_json.h); the columns beside them serve filters,
// ordering, the closed check and the player index. Dates are 'YYYY-MM-DD'
// ('' when unknown), so they sort as text.
constexpr char kSchemaV5[] = R"sql(
CREATE TABLE events(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  organiser_prefix TEXT NOT NULL,
  competition TEXT NOT NULL,
  closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
  description TEXT NOT NULL CHECK (json_valid(description))
) STRICT;
CREATE INDEX events_by_start ON events(start_date, id);
CREATE INDEX events_by_organiser ON events(organiser_prefix, start_date, id);

CREATE TABLE event_results(
  event_id INTEGER PRIMARY KEY REFERENCES events(id),
  results TEXT NOT NULL CHECK (json_valid(results))
) STRICT;

CREATE TABLE event_players(
  event_id INTEGER NOT NULL REFERENCES events(id),
  entrant_id INTEGER NOT NULL,
  player_id INTEGER NOT NULL REFERENCES players(id),
  PRIMARY KEY (event_id, entrant_id)
) STRICT;
CREATE INDEX event_players_by_player ON event_players(player_id, event_id);
)sql";

// Ratings (rating table, per-event history) and promotion proposals.
// Ratings are written exactly (shortest round-trip decimal text); the
// *_key columns are order-preserving integers of the same doubles, for
// sorting the rating lists.
constexpr char kSchemaV6[] = R"sql(
CREATE TABLE rating_events(
  seq INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  event_date TEXT NOT NULL,
  event_order INTEGER NOT NULL
) STRICT;

CREATE TABLE ratings(
  player_id INTEGER PRIMARY KEY,
  gor TEXT NOT NULL,
  gor_key INTEGER NOT NULL,
  rated_games INTEGER NOT NULL,
  rated_events INTEGER NOT NULL,
  pro_elo TEXT,
  pro_key INTEGER,
  pro_games INTEGER NOT NULL
) STRICT;
CREATE INDEX ratings_by_gor ON ratings(gor_key DESC, player_id);
CREATE INDEX ratings_by_pro ON ratings(pro_key DESC, player_id)
  WHERE pro_key IS NOT NULL;

CREATE TABLE rating_history(
  player_id INTEGER NOT NULL,
  event_seq INTEGER NOT NULL REFERENCES rating_events(seq),
  gor_before TEXT NOT NULL,
  gor_after TEXT NOT NULL,
  games INTEGER NOT NULL,
  pro_before TEXT,
  pro_after TEXT,
  pro_games INTEGER NOT NULL,
  PRIMARY KEY (player_id, event_seq)
) STRICT;

CREATE TABLE rating_state(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  table_sha256 TEXT NOT NULL,
  events INTEGER NOT NULL,
  players INTEGER NOT NULL
) STRICT;

CREATE TABLE promotion_proposals(
  id INTEGER PRIMARY KEY,
  player_id INTEGER NOT NULL REFERENCES players(id),
  rule_id TEXT NOT NULL,
  rule_description TEXT NOT NULL,
  from_rank TEXT NOT NULL,
  to_rank TEXT NOT NULL,
  evidence TEXT NOT NULL CHECK (json_valid(evidence)),
  explanation TEXT NOT NULL,
  state INTEGER NOT NULL CHECK (state BETWEEN 1 AND 4),
  as_of TEXT NOT NULL,
  created_unix INTEGER NOT NULL,
  decided_by TEXT NOT NULL DEFAULT '',
  decision_reason TEXT NOT NULL DEFAULT '',
  decided_unix INTEGER,
  certificate_number TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE UNIQUE INDEX proposals_one_pending ON promotion_proposals(player_id, rule_id)
  WHERE state = 1;
CREATE INDEX proposals_by_state ON promotion_proposals(state, id);
CREATE INDEX proposals_by_player ON promotion_proposals(player_id, id);
)sql";

// Gomoku as a discipline of the registry: a player's Gomoku rank beside the
// Go rank (rank_history and certificates carry a discipline column since
// version 3). Ordinals as in registry::Rank::Ordinal().
constexpr char kSchemaV7[] = R"sql(
ALTER TABLE players ADD COLUMN gomoku_rank_ordinal INTEGER;
)sql";

// Request ids of certificate issuance are scoped by the issuing caller's
// agency ("000" for the national admin): the request_id column holds
// "SCOPE:ID". Rows issued before take the scope of their issued_by
// ("agency:110/token:7" -> 110, "national/token:1" -> 000).
constexpr char kCountUnscopedRequests[] =
    "SELECT count(*) FROM certificates WHERE request_id IS NOT NULL";
constexpr char kScopeRequestIds[] =
    "UPDATE certificates SET request_id = CASE WHEN issued_by LIKE 'agency:%' "
    "THEN substr(issued_by, 8, 3) ELSE '000' END || ':' || request_id "
    "WHERE request_id IS NOT NULL";

// Rewrites the existing keys (one audit entry with the rows' new digests);
// a database without any writes nothing, so new logs do not change.
absl::Status ScopeRequestIds(Connection& c) {
  GORANK_ASSIGN_OR_RETURN(auto count, c.Prepare(kCountUnscopedRequests));
  GORANK_ASSIGN_OR_RETURN(bool row, count->Step());
  const int64_t n = row ? count->Int(0) : 0;
  count.reset();
  if (n == 0) return absl::OkStatus();
  GORANK_RETURN_IF_ERROR(c.Exec(kScopeRequestIds));
  return AppendAudit(c,
                     ChangeRecord{0, "system", "certificate.scope_request_ids",
                                  "certificates", "",
                                  nlohmann::json{{"rows", n}}.dump()})
      .status();
}

// Records brought in from an association's files (player, certificate and
// rating imports). New tables rather than new columns, so the rows written
// before keep their digests in the audit log.
constexpr char kSchemaV9[] = R"sql(
CREATE TABLE player_external_ids(
  agency_prefix TEXT NOT NULL REFERENCES agencies(prefix),
  external_id TEXT NOT NULL CHECK (length(external_id) BETWEEN 1 AND 64),
  player_id INTEGER NOT NULL UNIQUE REFERENCES players(id),
  PRIMARY KEY (agency_prefix, external_id)
) STRICT;
CREATE INDEX player_external_ids_by_id ON player_external_ids(external_id);

CREATE TABLE imported_certificates(
  number TEXT PRIMARY KEY REFERENCES certificates(number),
  file_name TEXT NOT NULL,
  file_sha256 TEXT NOT NULL,
  line INTEGER NOT NULL,
  imported_unix INTEGER NOT NULL
) STRICT;

CREATE TABLE rating_starts(
  player_id INTEGER PRIMARY KEY REFERENCES players(id),
  gor TEXT NOT NULL,
  pro_elo TEXT,
  as_of TEXT NOT NULL,
  origin TEXT NOT NULL,
  recorded_unix INTEGER NOT NULL
) STRICT;
)sql";

// Monthly rating lists: the rating table as it stood at the end of each
// month (Asia/Shanghai), kept unchanged once written, with the filter
// columns of that moment (agency, Go rank, date of the last rated event).
// rating_snapshot_start holds the first month rankd watched the end of:
// months before it are not kept (their table cannot be known exactly).
constexpr char kSchemaV10[] = R"sql(
CREATE TABLE rating_snapshot_start(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  first_month TEXT NOT NULL
) STRICT;

CREATE TABLE rating_snapshot_months(
  month TEXT PRIMARY KEY CHECK (length(month) = 7),
  players INTEGER NOT NULL,
  pro_players INTEGER NOT NULL,
  taken_unix INTEGER NOT NULL
) STRICT;

CREATE TABLE rating_snapshots(
  month TEXT NOT NULL REFERENCES rating_snapshot_months(month),
  player_id INTEGER NOT NULL,
  gor TEXT NOT NULL,
  gor_key INTEGER NOT NULL,
  rated_games INTEGER NOT NULL,
  rated_events INTEGER NOT NULL,
  pro_elo TEXT,
  pro_key INTEGER,
  pro_games INTEGER NOT NULL,
  agency_prefix TEXT NOT NULL,
  rank_ordinal INTEGER,
  last_rated TEXT,
  PRIMARY KEY (month, player_id)
) STRICT;
CREATE INDEX rating_snapshots_by_gor
  ON rating_snapshots(month, gor_key DESC, player_id);
CREATE INDEX rating_snapshots_by_pro
  ON rating_snapshots(month, pro_key DESC, player_id)
  WHERE pro_key IS NOT NULL;
)sql";

// The rating list's rank filter (sql_rating_repository.cc): a narrow rank
// range is read through the players of that range, not the whole rating
// table.
constexpr char kSchemaV12[] = R"sql(
CREATE INDEX players_by_rank ON players(rank_ordinal, id);
)sql";

constexpr char kInsertAgency[] =
    "INSERT INTO agencies(prefix, name, name_en, level, status) "
    "VALUES(?1, ?2, ?3, ?4, 1)";

// Loads the shipped region table (SPEC appendix A) as agencies.
absl::Status SeedRegions(Connection& c) {
  std::istringstream in(kRegionsTsv);
  std::string line;
  nlohmann::json prefixes = nlohmann::json::array();
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t t1 = line.find('\t');
    const size_t t2 = line.find('\t', t1 + 1);
    if (t1 == std::string::npos || t2 == std::string::npos) {
      return absl::InternalError("bad line in the shipped region table: " +
                                 line);
    }
    const std::string prefix = line.substr(0, t1);
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertAgency));
    st->Bind(1, prefix)
        .Bind(2, line.substr(t1 + 1, t2 - t1 - 1))
        .Bind(3, line.substr(t2 + 1))
        .Bind(4, int64_t{prefix == "000" ? 1 : 2});
    GORANK_RETURN_IF_ERROR(st->Run());
    prefixes.push_back(prefix);
  }
  return AppendAudit(c, ChangeRecord{0, "system", "registry.seed_regions",
                                     "agencies", "", prefixes.dump()})
      .status();
}

}  // namespace

absl::Status ApplyDdl(Connection& conn, const char* sqlite_ddl) {
  if (conn.engine() == Engine::kSqlite) return conn.Exec(sqlite_ddl);
  return conn.Exec(ToPostgresDdl(sqlite_ddl));
}

const std::vector<Migration>& Migrations() {
  static const std::vector<Migration>* const kMigrations = new std::vector<
      Migration>{
      {1, "registry: agencies, players, rank history, tokens, audit log",
       [](Connection& c) { return ApplyDdl(c, kSchemaV1); }},
      {2, "load the shipped region table", SeedRegions,
       /*loads_data=*/true},
      {3, "certificates: serials, certificates, objections, appraisals, stock",
       [](Connection& c) { return ApplyDdl(c, kSchemaV3); }},
      {4, "audit: signed checkpoints, annual reviews",
       [](Connection& c) { return ApplyDdl(c, kSchemaV4); }},
      {5, "tournaments: events, results, the player index of events",
       [](Connection& c) { return ApplyDdl(c, kSchemaV5); }},
      {6, "ratings: rating table, rating history, promotion proposals",
       [](Connection& c) { return ApplyDdl(c, kSchemaV6); }},
      {7, "gomoku: a player's Gomoku rank",
       [](Connection& c) { return ApplyDdl(c, kSchemaV7); }},
      {8, "certificates: request ids scoped by the caller's agency",
       ScopeRequestIds, /*loads_data=*/true},
      {9,
       "imports: agency-own player ids, imported certificates, rating starts",
       [](Connection& c) { return ApplyDdl(c, kSchemaV9); }},
      {10, "ratings: the monthly rating lists, kept once a month has ended",
       [](Connection& c) { return ApplyDdl(c, kSchemaV10); }},
      // No DDL: Migrate installs the PostgreSQL functions and triggers after
      // every step, so a database migrated before the audit log's NOTIFY
      // trigger (the other instances' public index followers) gets it here.
      {11,
       "PostgreSQL: the triggers again (the audit log's NOTIFY to other "
       "instances); nothing on SQLite",
       [](Connection&) { return absl::OkStatus(); }},
      {12, "players: an index by Go rank (the rating list's rank filter)",
       [](Connection& c) { return ApplyDdl(c, kSchemaV12); }},
      // No DDL, as 11: the triggers installed after this step are each
      // table's own functions, with static SQL, instead of the generic ones
      // that built the row's JSON or ran an EXECUTE at every row.
      {13,
       "PostgreSQL: each table's own trigger functions (faster writes); "
       "nothing on SQLite",
       [](Connection&) { return absl::OkStatus(); }},
  };
  return *kMigrations;
}

int LatestSchemaVersion() { return Migrations().back().version; }

absl::Status Migrate(Connection& conn, int target, bool schema_only) {
  if (target < 0) target = LatestSchemaVersion();
  for (const Migration& m : Migrations()) {
    if (m.version > target) break;
    // The version is read under the write lock: another rankd may have
    // migrated meanwhile.
    GORANK_RETURN_IF_ERROR(
        RunTransaction(conn, /*write=*/true, [&](Connection&) -> absl::Status {
          GORANK_ASSIGN_OR_RETURN(const int current, conn.ReadSchemaVersion());
          if (current > LatestSchemaVersion()) {
            return absl::FailedPreconditionError(
                "database schema version " + std::to_string(current) +
                " is newer than this rankd (" +
                std::to_string(LatestSchemaVersion()) + "); upgrade rankd");
          }
          if (m.version <= current) return absl::OkStatus();
          if (!(schema_only && m.loads_data)) {
            absl::Status applied = m.apply(conn);
            if (applied.ok() && conn.engine() == Engine::kPostgres) {
              applied = InstallPostgresTriggers(conn);
            }
            if (!applied.ok()) {
              return absl::Status(applied.code(),
                                  "migration " + std::to_string(m.version) +
                                      " (" + m.description + ") failed: " +
                                      std::string(applied.message()));
            }
          }
          return conn.WriteSchemaVersion(m.version);
        }));
  }
  return absl::OkStatus();
}

}  // namespace gorank::storage
