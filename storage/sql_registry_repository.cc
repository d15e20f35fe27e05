#include "storage/sql_registry_repository.h"

#include "services/common/status_macros.h"
#include "storage/audit_log.h"

namespace gorank::storage {

using registry::Agency;
using registry::AgencyLevel;
using registry::AgencyStatus;
using registry::Player;
using registry::PlayerId;
using registry::Rank;
using registry::RankHistoryEntry;

namespace {

// The player's external id (column 11 of the player reads).
#define PLAYER_EXTERNAL_ID                                                \
  "(SELECT x.external_id FROM player_external_ids x WHERE x.player_id = " \
  "players.id)"

constexpr char kListAgencies[] =
    "SELECT prefix, name, name_en, level, status, status_reason FROM agencies "
    "ORDER BY prefix";
constexpr char kGetAgency[] =
    "SELECT prefix, name, name_en, level, status, status_reason FROM agencies "
    "WHERE prefix = ?1";
constexpr char kInsertAgency[] =
    "INSERT INTO agencies(prefix, name, name_en, level, status, status_reason) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6)";
constexpr char kSetAgencyStatus[] =
    "UPDATE agencies SET status = ?2, status_reason = ?3 WHERE prefix = ?1";
constexpr char kGetPlayer[] =
    "SELECT id, name, latin_name, gender, birth_date, agency_prefix, "
    "resident_id, rank_ordinal, created_unix, updated_unix, "
    "gomoku_rank_ordinal, " PLAYER_EXTERNAL_ID
    " "
    "FROM players WHERE id = ?1";
// kGetPlayer's columns (null when there is no such player), then the
// agency's status and reason (null when there is no such agency).
constexpr char kGetPlayerAndAgency[] =
    "SELECT players.id, players.name, players.latin_name, players.gender, "
    "players.birth_date, players.agency_prefix, players.resident_id, "
    "players.rank_ordinal, players.created_unix, players.updated_unix, "
    "players.gomoku_rank_ordinal, " PLAYER_EXTERNAL_ID
    ", a.status, a.status_reason "
    "FROM (SELECT 1 AS one) o LEFT JOIN players ON players.id = ?1 "
    "LEFT JOIN agencies a ON a.prefix = ?2";
constexpr char kInsertPlayer[] =
    "INSERT INTO players(name, latin_name, gender, birth_date, agency_prefix, "
    "resident_id, rank_ordinal, created_unix, updated_unix) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
constexpr char kUpdatePlayer[] =
    "UPDATE players SET name = ?2, latin_name = ?3, gender = ?4, "
    "birth_date = ?5, agency_prefix = ?6, resident_id = ?7, updated_unix = ?8 "
    "WHERE id = ?1";
constexpr char kSearchPlayers[] =
    "SELECT id, name, latin_name, gender, birth_date, agency_prefix, "
    "resident_id, rank_ordinal, created_unix, updated_unix, "
    "gomoku_rank_ordinal, " PLAYER_EXTERNAL_ID
    " "
    "FROM players WHERE id > ?1 "
    "AND (?2 = '' OR (name >= ?2 AND name < ?3) "
    "     OR (latin_name >= ?2 AND latin_name < ?3)) "
    "AND (?4 = '' OR agency_prefix = ?4) "
    "AND (CAST(?5 AS INTEGER) IS NULL OR rank_ordinal >= ?5) "
    "AND (CAST(?6 AS INTEGER) IS NULL OR rank_ordinal <= ?6) "
    "ORDER BY id LIMIT ?7";
// The public's whole-name look-up with a Latin key (LatinNameKey in SQL:
// ASCII names only reach it). Scans the players: no index holds the key.
constexpr char kSearchPlayersByLatinKey[] =
    "SELECT id, name, latin_name, gender, birth_date, agency_prefix, "
    "resident_id, rank_ordinal, created_unix, updated_unix, "
    "gomoku_rank_ordinal, " PLAYER_EXTERNAL_ID
    " "
    "FROM players WHERE id > ?1 "
    "AND (name = ?2 OR REPLACE(REPLACE(LOWER(latin_name), ' ', ''), '-', '') "
    "= ?3) "
    "AND (?4 = '' OR agency_prefix = ?4) "
    "AND (CAST(?5 AS INTEGER) IS NULL OR rank_ordinal >= ?5) "
    "AND (CAST(?6 AS INTEGER) IS NULL OR rank_ordinal <= ?6) "
    "ORDER BY id LIMIT ?7";
constexpr char kSetRank[] =
    "UPDATE players SET rank_ordinal = ?2, updated_unix = ?3 WHERE id = ?1";
constexpr char kSetGomokuRank[] =
    "UPDATE players SET gomoku_rank_ordinal = ?2, updated_unix = ?3 WHERE id = "
    "?1";
constexpr char kInsertHistory[] =
    "INSERT INTO rank_history(player_id, from_ordinal, to_ordinal, "
    "effective_date, reason, basis, actor, recorded_unix, discipline) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
constexpr char kInsertHistoryAt[] =
    "INSERT INTO rank_history(player_id, from_ordinal, to_ordinal, "
    "effective_date, reason, basis, actor, recorded_unix, discipline, id) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
// Every discipline, oldest first; an unknown discipline reads as Go.
constexpr char kListHistory[] =
    "SELECT id, player_id, from_ordinal, to_ordinal, effective_date, reason, "
    "basis, actor, recorded_unix, discipline FROM rank_history "
    "WHERE player_id = ?1 ORDER BY id";
constexpr char kListRankChanges[] =
    "SELECT h.id, h.player_id, h.from_ordinal, h.to_ordinal, h.effective_date, "
    "h.reason, h.basis, h.actor, h.recorded_unix, h.discipline FROM "
    "rank_history h "
    "JOIN players p ON p.id = h.player_id WHERE h.reason = ?1 "
    "AND (?2 = '' OR p.agency_prefix = ?2) AND h.effective_date >= ?3 "
    "AND h.effective_date <= ?4 ORDER BY h.effective_date, h.id";

constexpr char kInsertExternalId[] =
    "INSERT INTO player_external_ids(agency_prefix, external_id, player_id) "
    "VALUES(?1, ?2, ?3)";
// Imports. SQLite's page cache during a large import (KiB when negative),
// and its default.
constexpr char kImportCacheSize[] = "PRAGMA cache_size = -131072";
constexpr char kDefaultCacheSize[] = "PRAGMA cache_size = -2000";
constexpr char kAnyPlayer[] = "SELECT id FROM players LIMIT 1";
constexpr char kPlayerByResidentId[] =
    "SELECT id, name, latin_name, gender, birth_date, agency_prefix, "
    "resident_id, rank_ordinal, created_unix, updated_unix, "
    "gomoku_rank_ordinal, " PLAYER_EXTERNAL_ID
    " "
    "FROM players WHERE resident_id = ?1";
constexpr char kPlayerByExternalId[] =
    "SELECT id, name, latin_name, gender, birth_date, agency_prefix, "
    "resident_id, rank_ordinal, created_unix, updated_unix, "
    "gomoku_rank_ordinal, " PLAYER_EXTERNAL_ID
    " "
    "FROM players WHERE id = (SELECT player_id FROM player_external_ids "
    "WHERE agency_prefix = ?1 AND external_id = ?2)";
constexpr char kSameNameAndBirth[] =
    "SELECT id FROM players WHERE name = ?1 AND birth_date = ?2 "
    "AND resident_id IS NULL ORDER BY id LIMIT 1";
// The rank is set together with its first (IMPORT) history entry.
constexpr char kInsertImportedPlayer[] =
    "INSERT INTO players(name, latin_name, gender, birth_date, agency_prefix, "
    "resident_id, rank_ordinal, created_unix, updated_unix) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id";

RankHistoryEntry ReadHistory(const Statement& st) {
  RankHistoryEntry e;
  e.id = st.Int(0);
  e.player_id = PlayerId{st.Int(1)};
  e.from_rank = registry_sql::RankOf(st.OptInt(2));
  e.to_rank = registry_sql::RankOf(st.OptInt(3));
  e.effective_date = Date::Parse(st.Text(4)).value_or(Date{});
  e.reason = static_cast<registry::RankChangeReason>(st.Int(5));
  e.basis = st.Text(6);
  e.actor = st.Text(7);
  e.recorded_unix = st.Int(8);
  e.discipline = st.Text(9) == "gomoku" ? registry::Discipline::kGomoku
                                        : registry::Discipline::kGo;
  return e;
}

Agency ReadAgency(const Statement& st) {
  Agency a;
  a.prefix = st.Text(0);
  a.name = st.Text(1);
  a.name_en = st.Text(2);
  a.level = static_cast<AgencyLevel>(st.Int(3));
  a.status = static_cast<AgencyStatus>(st.Int(4));
  a.status_reason = st.Text(5);
  return a;
}

Player ReadPlayer(const Statement& st) {
  Player p;
  p.id = PlayerId{st.Int(0)};
  p.name = st.Text(1);
  p.latin_name = st.Text(2);
  p.gender = static_cast<registry::Gender>(st.Int(3));
  if (auto d = st.OptText(4)) {
    auto parsed = Date::Parse(*d);
    if (parsed.ok()) p.birth_date = *parsed;
  }
  p.agency_prefix = st.Text(5);
  p.resident_id = st.OptText(6).value_or("");
  p.rank = registry_sql::RankOf(st.OptInt(7));
  p.created_unix = st.Int(8);
  p.updated_unix = st.Int(9);
  p.gomoku_rank = registry_sql::RankOf(st.OptInt(10));
  p.external_id = st.OptText(11).value_or("");
  return p;
}

void BindPlayerFields(Statement& st, const Player& p, int first) {
  st.Bind(first, p.name)
      .Bind(first + 1, p.latin_name)
      .Bind(first + 2, int64_t{static_cast<int>(p.gender)})
      .Bind(first + 3,
            p.birth_date ? std::optional<std::string>(p.birth_date->ToString())
                         : std::nullopt)
      .Bind(first + 4, p.agency_prefix)
      .Bind(first + 5, p.resident_id.empty()
                           ? std::nullopt
                           : std::optional<std::string>(p.resident_id));
}

absl::Status MapPlayerWriteError(const absl::Status& s, const Player& p) {
  if (absl::IsAlreadyExists(s)) {
    return absl::AlreadyExistsError(
        "a player with this resident ID is already registered");
  }
  if (absl::IsFailedPrecondition(s)) {
    return absl::NotFoundError("agency " + p.agency_prefix + " does not exist");
  }
  return s;
}

}  // namespace

namespace registry_sql {

std::optional<int64_t> OrdinalOf(const std::optional<Rank>& r) {
  if (!r) return std::nullopt;
  return r->Ordinal();
}

std::optional<Rank> RankOf(const std::optional<int64_t>& ordinal) {
  if (!ordinal) return std::nullopt;
  auto r = Rank::FromOrdinal(static_cast<int>(*ordinal));
  if (!r.ok()) return std::nullopt;
  return *r;
}

absl::StatusOr<Player> LoadPlayer(Connection& c, PlayerId id) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kGetPlayer));
  st->Bind(1, id.value);
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  if (!row) {
    return absl::NotFoundError("no player with id " + std::to_string(id.value));
  }
  return ReadPlayer(*st);
}

absl::StatusOr<std::unique_ptr<Statement>> SendPlayerAndAgency(
    Connection& c, PlayerId id, const std::string& prefix) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kGetPlayerAndAgency));
  st->Bind(1, id.value).Bind(2, prefix);
  GORANK_RETURN_IF_ERROR(st->Send());
  return st;
}

absl::StatusOr<PlayerAndAgency> ReadPlayerAndAgency(Statement& st,
                                                    const std::string& prefix) {
  GORANK_ASSIGN_OR_RETURN(bool row, st.Step());
  PlayerAndAgency out;
  if (!row) return out;
  if (!st.IsNull(0)) out.player = ReadPlayer(st);
  if (!st.IsNull(12)) {
    registry::Agency a;
    a.prefix = prefix;
    a.status = static_cast<registry::AgencyStatus>(st.Int(12));
    a.status_reason = st.Text(13);
    out.agency = std::move(a);
  }
  return out;
}

namespace {
// A rank change's two statements, bound: the player's rank set and its
// history row (numbered `history_id` when given).
struct RankChangeStatements {
  std::unique_ptr<Statement> set;
  std::unique_ptr<Statement> history;
};
absl::StatusOr<RankChangeStatements> BindRankChange(
    Connection& c, const RankHistoryEntry& e,
    std::optional<int64_t> history_id) {
  RankChangeStatements out;
  GORANK_ASSIGN_OR_RETURN(
      out.set,
      c.Prepare(e.discipline == registry::Discipline::kGomoku ? kSetGomokuRank
                                                              : kSetRank));
  out.set->Bind(1, e.player_id.value)
      .Bind(2, OrdinalOf(e.to_rank))
      .Bind(3, e.recorded_unix);
  GORANK_ASSIGN_OR_RETURN(
      out.history, c.Prepare(history_id ? kInsertHistoryAt : kInsertHistory));
  out.history->Bind(1, e.player_id.value)
      .Bind(2, OrdinalOf(e.from_rank))
      .Bind(3, OrdinalOf(e.to_rank))
      .Bind(4, e.effective_date.ToString())
      .Bind(5, int64_t{static_cast<int>(e.reason)})
      .Bind(6, e.basis)
      .Bind(7, e.actor)
      .Bind(8, e.recorded_unix)
      .Bind(9, std::string(registry::DisciplineName(e.discipline)));
  if (history_id) out.history->Bind(10, *history_id);
  return out;
}
}  // namespace

absl::StatusOr<int64_t> WriteRankChange(Connection& c,
                                        const RankHistoryEntry& e) {
  GORANK_ASSIGN_OR_RETURN(Player p, LoadPlayer(c, e.player_id));
  if (p.RankIn(e.discipline) != e.from_rank) {
    return absl::AbortedError("the player's rank changed meanwhile; retry");
  }
  GORANK_ASSIGN_OR_RETURN(RankChangeStatements st,
                          BindRankChange(c, e, std::nullopt));
  GORANK_RETURN_IF_ERROR(st.set->Run());
  st.set.reset();
  GORANK_RETURN_IF_ERROR(st.history->Run());
  return c.LastInsertRowId();
}

absl::Status SendRankChange(Connection& c, const RankHistoryEntry& e,
                            int64_t history_id) {
  GORANK_ASSIGN_OR_RETURN(RankChangeStatements st,
                          BindRankChange(c, e, history_id));
  GORANK_RETURN_IF_ERROR(st.set->Send());
  return st.history->Send();
}

}  // namespace registry_sql

absl::StatusOr<std::vector<Agency>> SqlRegistryRepository::ListAgencies() {
  std::vector<Agency> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListAgencies));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(ReadAgency(*st));
    }
  }));
  return out;
}

absl::StatusOr<Agency> SqlRegistryRepository::GetAgency(
    const std::string& prefix) {
  Agency a;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kGetAgency));
    st->Bind(1, prefix);
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) return absl::NotFoundError("no agency with prefix " + prefix);
    a = ReadAgency(*st);
    return absl::OkStatus();
  }));
  return a;
}

absl::Status SqlRegistryRepository::InsertAgency(const Agency& a,
                                                 const ChangeRecord& change) {
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertAgency));
    st->Bind(1, a.prefix)
        .Bind(2, a.name)
        .Bind(3, a.name_en)
        .Bind(4, int64_t{static_cast<int>(a.level)})
        .Bind(5, int64_t{static_cast<int>(a.status)})
        .Bind(6, a.status_reason);
    GORANK_RETURN_IF_ERROR(st->Run());
    return AppendAudit(c, change).status();
  });
  if (absl::IsAlreadyExists(s)) {
    return absl::AlreadyExistsError("prefix " + a.prefix +
                                    " already belongs to an agency");
  }
  return s;
}

absl::Status SqlRegistryRepository::SetAgencyStatus(
    const std::string& prefix, AgencyStatus status, const std::string& reason,
    const ChangeRecord& change) {
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kSetAgencyStatus));
    st->Bind(1, prefix)
        .Bind(2, int64_t{static_cast<int>(status)})
        .Bind(3, reason);
    GORANK_RETURN_IF_ERROR(st->Run());
    if (c.Changes() == 0) {
      return absl::NotFoundError("no agency with prefix " + prefix);
    }
    return AppendAudit(c, change).status();
  });
}

absl::StatusOr<PlayerId> SqlRegistryRepository::InsertPlayer(
    const Player& p, const std::optional<RankHistoryEntry>& initial,
    const ChangeRecord& change) {
  PlayerId id;
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertPlayer));
    BindPlayerFields(*st, p, 1);
    // The rank is set by the history entry below, never on its own.
    st->BindNull(7).Bind(8, p.created_unix).Bind(9, p.updated_unix);
    GORANK_RETURN_IF_ERROR(st->Run());
    id = PlayerId{c.LastInsertRowId()};
    if (!p.external_id.empty()) {
      GORANK_ASSIGN_OR_RETURN(auto x, c.Prepare(kInsertExternalId));
      x->Bind(1, p.agency_prefix).Bind(2, p.external_id).Bind(3, id.value);
      absl::Status xs = x->Run();
      if (absl::IsAlreadyExists(xs)) {
        return absl::AlreadyExistsError("external_id " + p.external_id +
                                        " of agency " + p.agency_prefix +
                                        " is another player's");
      }
      GORANK_RETURN_IF_ERROR(xs);
    }
    if (initial) {
      RankHistoryEntry e = *initial;
      e.player_id = id;
      GORANK_RETURN_IF_ERROR(registry_sql::WriteRankChange(c, e).status());
    }
    ChangeRecord audited = change;
    audited.subject = "player:" + std::to_string(id.value);
    return AppendAudit(c, audited).status();
  });
  if (absl::IsAlreadyExists(s) && s.message().find("external_id") == 0)
    return s;
  if (!s.ok()) return MapPlayerWriteError(s, p);
  return id;
}

absl::StatusOr<Player> SqlRegistryRepository::GetPlayer(PlayerId id) {
  Player p;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(p, registry_sql::LoadPlayer(c, id));
    return absl::OkStatus();
  }));
  return p;
}

absl::Status SqlRegistryRepository::UpdatePlayer(const Player& p,
                                                 const ChangeRecord& change) {
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kUpdatePlayer));
    st->Bind(1, p.id.value);
    BindPlayerFields(*st, p, 2);
    st->Bind(8, p.updated_unix);
    GORANK_RETURN_IF_ERROR(st->Run());
    if (c.Changes() == 0) {
      return absl::NotFoundError("no player with id " +
                                 std::to_string(p.id.value));
    }
    return AppendAudit(c, change).status();
  });
  return s.ok() ? s : MapPlayerWriteError(s, p);
}

absl::StatusOr<std::vector<Player>> SqlRegistryRepository::SearchPlayers(
    const registry::PlayerQuery& q) {
  std::vector<Player> out;
  // Upper bound of the prefix range: U+10FFFF sorts after every character;
  // for a whole name U+0001, below every character a name may hold (names
  // have no control characters), so the range holds the name alone.
  const bool by_key = q.exact_name && !q.latin_key.empty();
  const std::string upper =
      by_key ? q.latin_key
             : q.name_prefix + (q.exact_name ? "\x01" : "\xF4\x8F\xBF\xBF");
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(
        auto st, c.Prepare(by_key ? kSearchPlayersByLatinKey : kSearchPlayers));
    st->Bind(1, q.after_id)
        .Bind(2, q.name_prefix)
        .Bind(3, upper)
        .Bind(4, q.agency_prefix)
        .Bind(5, q.min_ordinal ? std::optional<int64_t>(*q.min_ordinal)
                               : std::nullopt)
        .Bind(6, q.max_ordinal ? std::optional<int64_t>(*q.max_ordinal)
                               : std::nullopt)
        .Bind(7, int64_t{q.limit});
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(ReadPlayer(*st));
    }
  }));
  return out;
}

absl::StatusOr<RankHistoryEntry> SqlRegistryRepository::ApplyRankChange(
    const RankHistoryEntry& entry, const ChangeRecord& change) {
  RankHistoryEntry stored = entry;
  GORANK_RETURN_IF_ERROR(db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(stored.id, registry_sql::WriteRankChange(c, entry));
    return AppendAudit(c, change).status();
  }));
  return stored;
}

absl::StatusOr<std::vector<RankHistoryEntry>>
SqlRegistryRepository::ListRankHistory(PlayerId id) {
  std::vector<RankHistoryEntry> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_RETURN_IF_ERROR(registry_sql::LoadPlayer(c, id).status());
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListHistory));
    st->Bind(1, id.value);
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(ReadHistory(*st));
    }
  }));
  return out;
}

absl::StatusOr<std::vector<RankHistoryEntry>>
SqlRegistryRepository::ListRankChanges(const registry::RankChangeQuery& q) {
  std::vector<RankHistoryEntry> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListRankChanges));
    st->Bind(1, int64_t{static_cast<int>(q.reason)})
        .Bind(2, q.agency_prefix)
        .Bind(3, q.from.ToString())
        .Bind(4, q.to.ToString());
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(ReadHistory(*st));
    }
  }));
  return out;
}

absl::StatusOr<std::vector<registry::ImportMatch>>
SqlRegistryRepository::FindImportMatches(
    const std::vector<registry::ImportKey>& keys) {
  std::vector<registry::ImportMatch> out(keys.size());
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    {
      // An empty registry (the first import) has nothing to match.
      GORANK_ASSIGN_OR_RETURN(auto any, c.Prepare(kAnyPlayer));
      GORANK_ASSIGN_OR_RETURN(bool row, any->Step());
      if (!row) return absl::OkStatus();
    }
    for (size_t i = 0; i < keys.size(); ++i) {
      const registry::ImportKey& k = keys[i];
      if (!k.resident_id.empty()) {
        GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPlayerByResidentId));
        st->Bind(1, k.resident_id);
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (row) out[i].by_resident_id = ReadPlayer(*st);
      }
      if (!k.external_id.empty()) {
        GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPlayerByExternalId));
        st->Bind(1, k.agency_prefix).Bind(2, k.external_id);
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (row) out[i].by_external_id = ReadPlayer(*st);
      }
      if (k.birth_date && !k.name.empty()) {
        GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kSameNameAndBirth));
        st->Bind(1, k.name).Bind(2, k.birth_date->ToString());
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (row) out[i].same_name_and_birth = PlayerId{st->Int(0)};
      }
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<PlayerId>> SqlRegistryRepository::StoreImport(
    const std::vector<registry::ImportedPlayer>& added,
    const std::vector<registry::ExternalIdLink>& links, size_t audit_chunk,
    const registry::ImportAuditFn& audit, const ChangeRecord& link_change) {
  std::vector<PlayerId> ids;
  auto taken = [](const std::string& what) {
    return absl::AbortedError(
        what +
        " was registered for another player while the file was "
        "checked; nothing was stored: run the import again");
  };
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    ids.clear();
    ids.reserve(added.size());
    // SQLite: a page cache big enough for the whole file, so that the
    // transaction does not spill and rewrite pages (restored afterwards).
    struct CacheSize {
      Connection& c;
      bool set;
      ~CacheSize() {
        if (set) c.Exec(kDefaultCacheSize).IgnoreError();
      }
    } cache{c, c.engine() == Engine::kSqlite && added.size() > audit_chunk &&
                   c.Exec(kImportCacheSize).ok()};
    size_t begin = 0;
    for (size_t i = 0; i < added.size(); ++i) {
      const Player& p = added[i].player;
      {
        GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertImportedPlayer));
        BindPlayerFields(*st, p, 1);
        st->Bind(7, registry_sql::OrdinalOf(p.rank))
            .Bind(8, p.created_unix)
            .Bind(9, p.updated_unix);
        absl::StatusOr<bool> row = st->Step();
        if (absl::IsAlreadyExists(row.status()))
          return taken("a resident ID of the file");
        if (absl::IsFailedPrecondition(row.status())) {
          return absl::NotFoundError("agency " + p.agency_prefix +
                                     " does not exist");
        }
        GORANK_RETURN_IF_ERROR(row.status());
        if (!*row) return absl::InternalError("INSERT .. RETURNING gave no id");
        ids.push_back(PlayerId{st->Int(0)});
      }
      if (!p.external_id.empty()) {
        GORANK_ASSIGN_OR_RETURN(auto x, c.Prepare(kInsertExternalId));
        x->Bind(1, p.agency_prefix)
            .Bind(2, p.external_id)
            .Bind(3, ids.back().value);
        absl::Status xs = x->Run();
        if (absl::IsAlreadyExists(xs))
          return taken("external_id " + p.external_id);
        GORANK_RETURN_IF_ERROR(xs);
      }
      if (added[i].entry) {
        const RankHistoryEntry& e = *added[i].entry;
        GORANK_ASSIGN_OR_RETURN(auto h, c.Prepare(kInsertHistory));
        h->Bind(1, ids.back().value)
            .Bind(2, registry_sql::OrdinalOf(e.from_rank))
            .Bind(3, registry_sql::OrdinalOf(e.to_rank))
            .Bind(4, e.effective_date.ToString())
            .Bind(5, int64_t{static_cast<int>(e.reason)})
            .Bind(6, e.basis)
            .Bind(7, e.actor)
            .Bind(8, e.recorded_unix)
            .Bind(9, std::string(registry::DisciplineName(e.discipline)));
        GORANK_RETURN_IF_ERROR(h->Run());
      }
      if (i + 1 - begin == audit_chunk || i + 1 == added.size()) {
        const std::vector<PlayerId> chunk(
            ids.begin() + static_cast<long>(begin), ids.end());
        GORANK_RETURN_IF_ERROR(
            AppendAudit(c, audit(begin, i + 1, chunk)).status());
        begin = i + 1;
      }
    }
    for (const registry::ExternalIdLink& l : links) {
      GORANK_ASSIGN_OR_RETURN(auto x, c.Prepare(kInsertExternalId));
      x->Bind(1, l.agency_prefix)
          .Bind(2, l.external_id)
          .Bind(3, l.player_id.value);
      absl::Status xs = x->Run();
      if (absl::IsAlreadyExists(xs))
        return taken("external_id " + l.external_id);
      GORANK_RETURN_IF_ERROR(xs);
    }
    if (!links.empty())
      GORANK_RETURN_IF_ERROR(AppendAudit(c, link_change).status());
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return ids;
}

}  // namespace gorank::storage
