#include "storage/sql_rating_repository.h"

#include <bit>
#include <charconv>
#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "nlohmann/json.hpp"
#include "services/common/status_macros.h"
#include "storage/audit_log.h"

namespace gorank::storage {

using ratings::EventKey;
using ratings::PlayerId;
using ratings::PlayerRating;
using ratings::ProposalState;
using ratings::RatingChange;
using ratings::StoredProposal;

namespace {

constexpr char kClearHistory[] = "DELETE FROM rating_history";
constexpr char kClearRatings[] = "DELETE FROM ratings";
constexpr char kClearEvents[] = "DELETE FROM rating_events";
constexpr char kInsertEvent[] =
    "INSERT INTO rating_events(seq, event_id, event_date, event_order) "
    "VALUES(?1, ?2, ?3, ?4)";
constexpr char kEventExists[] =
    "SELECT 1 FROM rating_events WHERE event_id = ?1";
constexpr char kNextSeq[] =
    "SELECT coalesce(max(seq), 0) + 1 FROM rating_events";
constexpr char kPutRating[] =
    "INSERT INTO ratings(player_id, gor, gor_key, rated_games, rated_events, "
    "pro_elo, pro_key, pro_games) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
    "ON CONFLICT(player_id) DO UPDATE SET gor = excluded.gor, "
    "gor_key = excluded.gor_key, rated_games = excluded.rated_games, "
    "rated_events = excluded.rated_events, pro_elo = excluded.pro_elo, "
    "pro_key = excluded.pro_key, pro_games = excluded.pro_games";
constexpr char kInsertHistory[] =
    "INSERT INTO rating_history(player_id, event_seq, gor_before, gor_after, "
    "games, pro_before, pro_after, pro_games) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
constexpr char kPutState[] =
    "INSERT INTO rating_state(id, table_sha256, events, players) "
    "VALUES(1, ?1, ?2, ?3) ON CONFLICT(id) DO UPDATE SET "
    "table_sha256 = excluded.table_sha256, events = excluded.events, "
    "players = excluded.players";
constexpr char kGetState[] =
    "SELECT table_sha256, events, players FROM rating_state WHERE id = 1";
constexpr char kAllEvents[] =
    "SELECT seq, event_id, event_date, event_order FROM rating_events "
    "ORDER BY seq";
constexpr char kAllRatings[] =
    "SELECT player_id, gor, rated_games, rated_events, pro_elo, pro_games "
    "FROM ratings ORDER BY player_id";
constexpr char kAllHistory[] =
    "SELECT player_id, event_seq, gor_before, gor_after, games, pro_before, "
    "pro_after, pro_games FROM rating_history ORDER BY player_id, event_seq";
constexpr char kRatingColumns[] =
    "SELECT player_id, gor, rated_games, rated_events, pro_elo, pro_games "
    "FROM ratings WHERE player_id = ?1";
constexpr char kListByGor[] =
    "SELECT player_id, gor, rated_games, rated_events, pro_elo, pro_games "
    "FROM ratings ORDER BY gor_key DESC, player_id LIMIT ?1 OFFSET ?2";
constexpr char kListByPro[] =
    "SELECT player_id, gor, rated_games, rated_events, pro_elo, pro_games "
    "FROM ratings WHERE pro_key IS NOT NULL "
    "ORDER BY pro_key DESC, player_id LIMIT ?1 OFFSET ?2";
// Keyset: ?2 = 1 when a position is given, ?3 its order key, ?4 its player.
constexpr char kListByGorAfter[] =
    "SELECT player_id, gor, rated_games, rated_events, pro_elo, pro_games "
    "FROM ratings WHERE (?2 = 0 OR gor_key < ?3 OR (gor_key = ?3 AND "
    "player_id > ?4)) ORDER BY gor_key DESC, player_id LIMIT ?1";
constexpr char kListByProAfter[] =
    "SELECT player_id, gor, rated_games, rated_events, pro_elo, pro_games "
    "FROM ratings WHERE pro_key IS NOT NULL AND (?2 = 0 OR pro_key < ?3 OR "
    "(pro_key = ?3 AND player_id > ?4)) "
    "ORDER BY pro_key DESC, player_id LIMIT ?1";
constexpr char kRatedPlayers[] = "SELECT player_id FROM ratings ORDER BY 1";
constexpr char kHistoryOf[] =
    "SELECT e.event_id, e.event_date, e.event_order, h.gor_before, "
    "h.gor_after, h.games, h.pro_before, h.pro_after, h.pro_games "
    "FROM rating_history h JOIN rating_events e ON e.seq = h.event_seq "
    "WHERE h.player_id = ?1 ORDER BY h.event_seq";

// The rating lists with their filters (ListRatingRows). Parameters: ?1 the
// limit; ?2 = 1 when a position is given, ?3 its order key, ?4 its player;
// ?5 the agency ('' every agency); ?6 = 1 with ?7 the lowest Go rank
// ordinal; ?8 = 1 with ?9 the highest; ?10 the earliest last rated date (''
// any); ?11 the month (kept lists only).
// Shared parts of the four list statements (macros, so that each statement
// is one literal: statements are cached by their text).
#define GORANK_LIVE_COLUMNS                                               \
  "SELECT r.player_id, r.gor, r.rated_games, r.rated_events, r.pro_elo, " \
  "r.pro_games, p.name, p.latin_name, p.agency_prefix, p.rank_ordinal, "  \
  "(SELECT max(e.event_date) FROM rating_history h JOIN rating_events e " \
  "ON e.seq = h.event_seq WHERE h.player_id = r.player_id) "
#define GORANK_LIVE_SELECT \
  GORANK_LIVE_COLUMNS      \
  "FROM ratings r JOIN players p ON p.id = r.player_id WHERE "
// The live filters read as little as they can while the scan walks the
// rating index: the agency through players_by_agency once (a list the scan
// checks in memory, so a row of another agency costs no read of players),
// and the activity test names p.id, not r.player_id (equal by the join), so
// that it runs only for rows that passed agency and rank (SQLite evaluates a
// term at the first table it needs; of r alone it ran for every row).
// tests/bench/ratings_page_bench.cc, 50,000 players on a loaded 2-core
// machine, one agency's active 7d players: 80-290 ms a page with the agency
// tested on p, 13-31 ms with the list. A rank range that few players hold
// is read from its players (kNarrowByGor below: 141-251 ms before, 0.6 ms
// after, for a range nobody holds); an activity filter without an agency
// that few players pass still reads the whole table.
#define GORANK_LIVE_FILTERS                                                   \
  " AND (?5 = '' OR r.player_id IN (SELECT id FROM players WHERE "            \
  "agency_prefix = ?5)) AND (?6 = 0 OR p.rank_ordinal >= ?7) AND (?8 = 0 OR " \
  "p.rank_ordinal <= ?9) AND (?10 = '' OR EXISTS (SELECT 1 FROM "             \
  "rating_history h JOIN rating_events e ON e.seq = h.event_seq WHERE "       \
  "h.player_id = p.id AND e.event_date >= ?10)) "
#define GORANK_KEPT_SELECT                                                \
  "SELECT s.player_id, s.gor, s.rated_games, s.rated_events, s.pro_elo, " \
  "s.pro_games, p.name, p.latin_name, s.agency_prefix, s.rank_ordinal, "  \
  "s.last_rated FROM rating_snapshots s JOIN players p ON p.id = "        \
  "s.player_id WHERE s.month = ?11 AND "
#define GORANK_KEPT_FILTERS                                               \
  " AND (?5 = '' OR s.agency_prefix = ?5) AND (?6 = 0 OR s.rank_ordinal " \
  ">= ?7) AND (?8 = 0 OR s.rank_ordinal <= ?9) AND (?10 = '' OR "         \
  "s.last_rated >= ?10) "
// A narrow rank range (ListRatingRows: at most kNarrowRankPlayers players
// in it) is read from its players (players_by_rank) and sorted, instead of
// walking the whole rating index past the rows of other ranks: ?7 and ?9 are
// then both set (the range's ends). CROSS JOIN keeps players first in
// SQLite's plan.
#define GORANK_NARROW_SELECT                                            \
  GORANK_LIVE_COLUMNS                                                   \
  "FROM players p CROSS JOIN ratings r WHERE p.rank_ordinal >= ?7 AND " \
  "p.rank_ordinal <= ?9 AND r.player_id = p.id AND "
constexpr char kNarrowByGor[] = GORANK_NARROW_SELECT
    "(?2 = 0 OR r.gor_key < ?3 OR (r.gor_key = ?3 AND r.player_id > "
    "?4))" GORANK_LIVE_FILTERS "ORDER BY r.gor_key DESC, r.player_id LIMIT ?1";
constexpr char kNarrowByPro[] = GORANK_NARROW_SELECT
    "r.pro_key IS NOT NULL AND (?2 = 0 OR r.pro_key < ?3 OR (r.pro_key = ?3 "
    "AND r.player_id > ?4))" GORANK_LIVE_FILTERS
    "ORDER BY r.pro_key DESC, r.player_id LIMIT ?1";
#undef GORANK_NARROW_SELECT
// Players in a rank range (players_by_rank).
constexpr char kPlayersInRanks[] =
    "SELECT count(*) FROM players WHERE rank_ordinal >= ?1 AND "
    "rank_ordinal <= ?2";
constexpr int64_t kNarrowRankPlayers = 5000;
constexpr char kLiveByGor[] = GORANK_LIVE_SELECT
    "(?2 = 0 OR r.gor_key < ?3 OR (r.gor_key = ?3 AND r.player_id > "
    "?4))" GORANK_LIVE_FILTERS "ORDER BY r.gor_key DESC, r.player_id LIMIT ?1";
constexpr char kLiveByPro[] = GORANK_LIVE_SELECT
    "r.pro_key IS NOT NULL AND (?2 = 0 OR r.pro_key < ?3 OR (r.pro_key = ?3 "
    "AND r.player_id > ?4))" GORANK_LIVE_FILTERS
    "ORDER BY r.pro_key DESC, r.player_id LIMIT ?1";
constexpr char kKeptByGor[] = GORANK_KEPT_SELECT
    "(?2 = 0 OR s.gor_key < ?3 OR (s.gor_key = ?3 AND s.player_id > "
    "?4))" GORANK_KEPT_FILTERS "ORDER BY s.gor_key DESC, s.player_id LIMIT ?1";
constexpr char kKeptByPro[] = GORANK_KEPT_SELECT
    "s.pro_key IS NOT NULL AND (?2 = 0 OR s.pro_key < ?3 OR (s.pro_key = ?3 "
    "AND s.player_id > ?4))" GORANK_KEPT_FILTERS
    "ORDER BY s.pro_key DESC, s.player_id LIMIT ?1";
#undef GORANK_LIVE_SELECT
#undef GORANK_LIVE_COLUMNS
#undef GORANK_LIVE_FILTERS
#undef GORANK_KEPT_SELECT
#undef GORANK_KEPT_FILTERS

constexpr char kFirstWatched[] =
    "SELECT first_month FROM rating_snapshot_start WHERE id = 1";
constexpr char kPutFirstWatched[] =
    "INSERT INTO rating_snapshot_start(id, first_month) VALUES(1, ?1) "
    "ON CONFLICT(id) DO NOTHING";
constexpr char kMonthKept[] =
    "SELECT 1 FROM rating_snapshot_months WHERE month = ?1";
constexpr char kKeptMonths[] =
    "SELECT month, players, pro_players, taken_unix FROM "
    "rating_snapshot_months ORDER BY month DESC";
constexpr char kPutKeptMonth[] =
    "INSERT INTO rating_snapshot_months(month, players, pro_players, "
    "taken_unix) VALUES(?1, (SELECT count(*) FROM ratings r JOIN players p "
    "ON p.id = r.player_id), (SELECT count(*) FROM ratings r JOIN players p "
    "ON p.id = r.player_id WHERE r.pro_key IS NOT NULL), ?2)";
constexpr char kKeepRows[] =
    "INSERT INTO rating_snapshots(month, player_id, gor, gor_key, "
    "rated_games, rated_events, pro_elo, pro_key, pro_games, agency_prefix, "
    "rank_ordinal, last_rated) SELECT ?1, r.player_id, r.gor, r.gor_key, "
    "r.rated_games, r.rated_events, r.pro_elo, r.pro_key, r.pro_games, "
    "p.agency_prefix, p.rank_ordinal, "
    "(SELECT max(e.event_date) FROM rating_history h JOIN rating_events e "
    "ON e.seq = h.event_seq WHERE h.player_id = r.player_id) "
    "FROM ratings r JOIN players p ON p.id = r.player_id";

constexpr char kPutStart[] =
    "INSERT INTO rating_starts(player_id, gor, pro_elo, as_of, origin, "
    "recorded_unix) VALUES(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(player_id) DO "
    "UPDATE SET gor = excluded.gor, pro_elo = excluded.pro_elo, "
    "as_of = excluded.as_of, origin = excluded.origin, "
    "recorded_unix = excluded.recorded_unix";
constexpr char kStartColumns[] =
    "SELECT player_id, gor, pro_elo, as_of, origin, recorded_unix "
    "FROM rating_starts WHERE player_id = ?1";
constexpr char kListStarts[] =
    "SELECT player_id, gor, pro_elo, as_of, origin, recorded_unix "
    "FROM rating_starts ORDER BY player_id";
constexpr char kPlayerById[] =
    "SELECT id, agency_prefix FROM players WHERE id = ?1";
constexpr char kPlayerByResidentId[] =
    "SELECT id, agency_prefix FROM players WHERE resident_id = ?1";
constexpr char kPlayerByExternalId[] =
    "SELECT player_id, agency_prefix, external_id FROM player_external_ids "
    "WHERE external_id = ?1 AND (?2 = '' OR agency_prefix = ?2) "
    "ORDER BY player_id";

constexpr char kProposalById[] =
    "SELECT id, player_id, rule_id, rule_description, from_rank, to_rank, "
    "evidence, explanation, state, as_of, created_unix, decided_by, "
    "decision_reason, decided_unix, certificate_number "
    "FROM promotion_proposals WHERE id = ?1";
constexpr char kPendingFor[] =
    "SELECT id FROM promotion_proposals WHERE player_id = ?1 AND rule_id = ?2 "
    "AND state = 1";
constexpr char kListProposals[] =
    "SELECT id, player_id, rule_id, rule_description, from_rank, to_rank, "
    "evidence, explanation, state, as_of, created_unix, decided_by, "
    "decision_reason, decided_unix, certificate_number "
    "FROM promotion_proposals WHERE id > ?1 AND (?2 = 0 OR state = ?2) "
    "AND (?3 = 0 OR player_id = ?3) AND (?5 = '' OR player_id IN "
    "(SELECT id FROM players WHERE agency_prefix = ?5)) ORDER BY id LIMIT ?4";
constexpr char kInsertProposal[] =
    "INSERT INTO promotion_proposals(player_id, rule_id, rule_description, "
    "from_rank, to_rank, evidence, explanation, state, as_of, created_unix) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8, ?9)";
constexpr char kDecideProposal[] =
    "UPDATE promotion_proposals SET state = ?2, decided_by = ?3, "
    "decision_reason = ?4, decided_unix = ?5, certificate_number = ?6 "
    "WHERE id = ?1 AND state = 1";
constexpr char kProposalState[] =
    "SELECT state FROM promotion_proposals WHERE id = ?1";

std::string DoubleText(double value) {
  if (value == 0.0) value = 0.0;  // no "-0"
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, end);
}

absl::StatusOr<double> ParseDouble(const std::string& text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return absl::DataLossError("stored rating '" + text + "' is not a number");
  }
  return v;
}

// An integer whose order is the order of the (finite) doubles.
int64_t OrderKey(double value) {
  if (value == 0.0) value = 0.0;
  const int64_t bits = std::bit_cast<int64_t>(value);
  return bits >= 0 ? bits : bits ^ INT64_MAX;
}

std::optional<std::string> OptDouble(const std::optional<double>& v) {
  if (!v) return std::nullopt;
  return DoubleText(*v);
}

absl::StatusOr<std::optional<double>> ReadOptDouble(const Statement& st,
                                                    int col) {
  if (st.IsNull(col)) return std::optional<double>();
  GORANK_ASSIGN_OR_RETURN(double v, ParseDouble(st.Text(col)));
  return std::optional<double>(v);
}

absl::Status PutRating(Connection& c, const PlayerRating& r) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPutRating));
  st->Bind(1, r.player.value)
      .Bind(2, DoubleText(r.gor))
      .Bind(3, OrderKey(r.gor))
      .Bind(4, r.rated_games)
      .Bind(5, r.rated_events)
      .Bind(6, OptDouble(r.pro_elo))
      .Bind(7, r.pro_elo ? std::optional<int64_t>(OrderKey(*r.pro_elo))
                         : std::nullopt)
      .Bind(8, r.pro_games);
  return st->Run();
}

absl::Status PutHistory(Connection& c, PlayerId player, int64_t seq,
                        const RatingChange& h) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertHistory));
  st->Bind(1, player.value)
      .Bind(2, seq)
      .Bind(3, DoubleText(h.gor_before))
      .Bind(4, DoubleText(h.gor_after))
      .Bind(5, int64_t{h.games})
      .Bind(6, OptDouble(h.pro_before))
      .Bind(7, OptDouble(h.pro_after))
      .Bind(8, int64_t{h.pro_games});
  return st->Run();
}

absl::Status PutEvent(Connection& c, int64_t seq, const EventKey& key) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertEvent));
  st->Bind(1, seq)
      .Bind(2, key.event_id)
      .Bind(3, key.date.ToString())
      .Bind(4, key.order);
  return st->Run();
}

absl::Status PutState(Connection& c, const std::string& sha, int64_t events,
                      int64_t players) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPutState));
  st->Bind(1, sha).Bind(2, events).Bind(3, players);
  return st->Run();
}

absl::StatusOr<PlayerRating> ReadRating(const Statement& st) {
  PlayerRating r;
  r.player = PlayerId{st.Int(0)};
  GORANK_ASSIGN_OR_RETURN(r.gor, ParseDouble(st.Text(1)));
  r.rated_games = st.Int(2);
  r.rated_events = st.Int(3);
  GORANK_ASSIGN_OR_RETURN(r.pro_elo, ReadOptDouble(st, 4));
  r.pro_games = st.Int(5);
  return r;
}

absl::StatusOr<ratings::RatingStart> ReadStart(const Statement& st) {
  ratings::RatingStart s;
  s.player = PlayerId{st.Int(0)};
  GORANK_ASSIGN_OR_RETURN(s.gor, ParseDouble(st.Text(1)));
  GORANK_ASSIGN_OR_RETURN(s.pro_elo, ReadOptDouble(st, 2));
  GORANK_ASSIGN_OR_RETURN(s.as_of, Date::Parse(st.Text(3)));
  s.origin = st.Text(4);
  s.recorded_unix = st.Int(5);
  return s;
}

nlohmann::json EvidenceJson(const ratings::Evidence& e) {
  nlohmann::json j;
  if (e.rating) j["rating"] = *e.rating;
  if (e.threshold) j["threshold"] = *e.threshold;
  j["rated_games"] = e.rated_games;
  j["rated_events"] = e.rated_events;
  if (e.days_since_promotion)
    j["days_since_promotion"] = *e.days_since_promotion;
  j["games"] = e.games;
  j["wins"] = e.wins;
  j["draws"] = e.draws;
  j["count"] = e.count;
  j["required"] = e.required;
  j["event_ids"] = e.event_ids;
  return j;
}

ratings::Evidence EvidenceFromJson(const nlohmann::json& j) {
  ratings::Evidence e;
  if (j.contains("rating")) e.rating = j["rating"].get<double>();
  if (j.contains("threshold")) e.threshold = j["threshold"].get<double>();
  e.rated_games = j.value("rated_games", 0);
  e.rated_events = j.value("rated_events", 0);
  if (j.contains("days_since_promotion")) {
    e.days_since_promotion = j["days_since_promotion"].get<int>();
  }
  e.games = j.value("games", 0);
  e.wins = j.value("wins", 0);
  e.draws = j.value("draws", 0);
  e.count = j.value("count", 0);
  e.required = j.value("required", 0);
  if (j.contains("event_ids")) {
    e.event_ids = j["event_ids"].get<std::vector<std::string>>();
  }
  return e;
}

absl::StatusOr<StoredProposal> ReadProposal(const Statement& st) {
  StoredProposal p;
  p.id = st.Int(0);
  p.proposal.player = PlayerId{st.Int(1)};
  p.proposal.rule_id = st.Text(2);
  p.proposal.rule_description = st.Text(3);
  GORANK_ASSIGN_OR_RETURN(p.proposal.from, registry::Rank::Parse(st.Text(4)));
  GORANK_ASSIGN_OR_RETURN(p.proposal.to, registry::Rank::Parse(st.Text(5)));
  nlohmann::json evidence =
      nlohmann::json::parse(st.Text(6), nullptr, /*allow_exceptions=*/false);
  if (evidence.is_discarded() || !evidence.is_object()) {
    return absl::DataLossError("proposal " + std::to_string(p.id) +
                               ": stored evidence is not a JSON object");
  }
  try {
    p.proposal.evidence = EvidenceFromJson(evidence);
  } catch (const nlohmann::json::exception& e) {
    return absl::DataLossError("proposal " + std::to_string(p.id) +
                               ": stored evidence: " + e.what());
  }
  p.proposal.explanation = st.Text(7);
  p.state = static_cast<ProposalState>(st.Int(8));
  GORANK_ASSIGN_OR_RETURN(p.as_of, Date::Parse(st.Text(9)));
  p.created_unix = st.Int(10);
  p.decided_by = st.Text(11);
  p.decision_reason = st.Text(12);
  p.decided_unix = st.OptInt(13);
  p.certificate_number = st.Text(14);
  return p;
}

absl::StatusOr<StoredProposal> LoadProposal(Connection& c, int64_t id) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kProposalById));
  st->Bind(1, id);
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  if (!row) {
    return absl::NotFoundError("no promotion proposal with id " +
                               std::to_string(id));
  }
  return ReadProposal(*st);
}

}  // namespace

absl::Status SqlRatingRepository::ReplaceAll(
    const ratings::RatingSnapshot& snapshot, const ChangeRecord& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    for (const char* sql : {kClearHistory, kClearRatings, kClearEvents}) {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
      GORANK_RETURN_IF_ERROR(st->Run());
    }
    absl::flat_hash_map<std::string, int64_t> seq_of;
    int64_t seq = 0;
    for (const EventKey& key : snapshot.events) {
      GORANK_RETURN_IF_ERROR(PutEvent(c, ++seq, key));
      seq_of[key.event_id] = seq;
    }
    for (const PlayerRating& r : snapshot.players) {
      GORANK_RETURN_IF_ERROR(PutRating(c, r));
    }
    for (const auto& [player, change] : snapshot.history) {
      auto it = seq_of.find(change.event.event_id);
      if (it == seq_of.end()) {
        return absl::InvalidArgumentError("history names event '" +
                                          change.event.event_id +
                                          "', which is not in the snapshot");
      }
      GORANK_RETURN_IF_ERROR(PutHistory(c, player, it->second, change));
    }
    GORANK_RETURN_IF_ERROR(
        PutState(c, snapshot.table_sha256, seq,
                 static_cast<int64_t>(snapshot.players.size())));
    return AppendAudit(c, audit).status();
  });
}

absl::Status SqlRatingRepository::AppendEvent(const ratings::RatingDelta& delta,
                                              const ChangeRecord& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kEventExists));
      st->Bind(1, delta.event.event_id);
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (row) {
        return absl::AlreadyExistsError("event '" + delta.event.event_id +
                                        "' is already in the rating table");
      }
    }
    int64_t seq = 0;
    {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kNextSeq));
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (row) seq = st->Int(0);
    }
    GORANK_RETURN_IF_ERROR(PutEvent(c, seq, delta.event));
    for (const PlayerRating& r : delta.players) {
      GORANK_RETURN_IF_ERROR(PutRating(c, r));
    }
    for (const auto& [player, change] : delta.changes) {
      GORANK_RETURN_IF_ERROR(PutHistory(c, player, seq, change));
    }
    GORANK_RETURN_IF_ERROR(
        PutState(c, delta.table_sha256, seq, delta.players_total));
    return AppendAudit(c, audit).status();
  });
}

absl::StatusOr<ratings::RatingState> SqlRatingRepository::State() const {
  ratings::RatingState state;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kGetState));
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) return absl::OkStatus();
    state.table_sha256 = st->Text(0);
    state.events = st->Int(1);
    state.players = st->Int(2);
    return absl::OkStatus();
  }));
  return state;
}

absl::StatusOr<std::optional<ratings::RatingSnapshot>>
SqlRatingRepository::LoadSnapshot() const {
  std::optional<ratings::RatingSnapshot> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    ratings::RatingSnapshot snap;
    {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kGetState));
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      snap.table_sha256 = st->Text(0);
    }
    absl::flat_hash_map<int64_t, size_t> by_seq;
    {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kAllEvents));
      while (true) {
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (!row) break;
        EventKey key;
        key.event_id = st->Text(1);
        GORANK_ASSIGN_OR_RETURN(key.date, Date::Parse(st->Text(2)));
        key.order = st->Int(3);
        by_seq[st->Int(0)] = snap.events.size();
        snap.events.push_back(std::move(key));
      }
    }
    {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kAllRatings));
      while (true) {
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (!row) break;
        GORANK_ASSIGN_OR_RETURN(PlayerRating r, ReadRating(*st));
        snap.players.push_back(std::move(r));
      }
    }
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kAllHistory));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      auto event = by_seq.find(st->Int(1));
      if (event == by_seq.end()) {
        return absl::DataLossError("rating history names event seq " +
                                   std::to_string(st->Int(1)) +
                                   ", which is not stored");
      }
      RatingChange h;
      h.event = snap.events[event->second];
      GORANK_ASSIGN_OR_RETURN(h.gor_before, ParseDouble(st->Text(2)));
      GORANK_ASSIGN_OR_RETURN(h.gor_after, ParseDouble(st->Text(3)));
      h.games = static_cast<int>(st->Int(4));
      GORANK_ASSIGN_OR_RETURN(h.pro_before, ReadOptDouble(*st, 5));
      GORANK_ASSIGN_OR_RETURN(h.pro_after, ReadOptDouble(*st, 6));
      h.pro_games = static_cast<int>(st->Int(7));
      snap.history.emplace_back(PlayerId{st->Int(0)}, std::move(h));
    }
    out = std::move(snap);
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<PlayerRating> SqlRatingRepository::GetRating(
    PlayerId player) const {
  PlayerRating out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kRatingColumns));
    st->Bind(1, player.value);
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) {
      return absl::NotFoundError("player " + std::to_string(player.value) +
                                 " has no rated game in a closed event");
    }
    GORANK_ASSIGN_OR_RETURN(out, ReadRating(*st));
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<RatingChange>> SqlRatingRepository::History(
    PlayerId player) const {
  std::vector<RatingChange> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kHistoryOf));
    st->Bind(1, player.value);
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      RatingChange h;
      h.event.event_id = st->Text(0);
      GORANK_ASSIGN_OR_RETURN(h.event.date, Date::Parse(st->Text(1)));
      h.event.order = st->Int(2);
      GORANK_ASSIGN_OR_RETURN(h.gor_before, ParseDouble(st->Text(3)));
      GORANK_ASSIGN_OR_RETURN(h.gor_after, ParseDouble(st->Text(4)));
      h.games = static_cast<int>(st->Int(5));
      GORANK_ASSIGN_OR_RETURN(h.pro_before, ReadOptDouble(*st, 6));
      GORANK_ASSIGN_OR_RETURN(h.pro_after, ReadOptDouble(*st, 7));
      h.pro_games = static_cast<int>(st->Int(8));
      out.push_back(std::move(h));
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<PlayerRating>> SqlRatingRepository::ListRatings(
    bool pro_list, int64_t offset, int limit) const {
  std::vector<PlayerRating> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st,
                            c.Prepare(pro_list ? kListByPro : kListByGor));
    st->Bind(1, int64_t{limit}).Bind(2, offset);
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      GORANK_ASSIGN_OR_RETURN(PlayerRating r, ReadRating(*st));
      out.push_back(r);
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<PlayerRating>> SqlRatingRepository::ListRatingsAfter(
    bool pro_list, const std::optional<ratings::RatingListPosition>& after,
    int limit) const {
  std::vector<PlayerRating> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(
        auto st, c.Prepare(pro_list ? kListByProAfter : kListByGorAfter));
    st->Bind(1, int64_t{limit})
        .Bind(2, int64_t{after ? 1 : 0})
        .Bind(3, after ? OrderKey(after->rating) : int64_t{0})
        .Bind(4, after ? after->player.value : int64_t{0});
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      GORANK_ASSIGN_OR_RETURN(PlayerRating r, ReadRating(*st));
      out.push_back(r);
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<PlayerId>> SqlRatingRepository::RatedPlayers()
    const {
  std::vector<PlayerId> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kRatedPlayers));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      out.push_back(PlayerId{st->Int(0)});
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<ratings::RatingListRow>>
SqlRatingRepository::ListRatingRows(
    const ratings::RatingListQuery& query) const {
  const bool kept = !query.month.empty();
  const bool ranked = query.min_rank_ordinal || query.max_rank_ordinal;
  // The ends of the rank range (the ordinals are small numbers).
  const int64_t lowest = query.min_rank_ordinal.value_or(-1000000);
  const int64_t highest = query.max_rank_ordinal.value_or(1000000);
  std::vector<ratings::RatingListRow> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    out.clear();
    bool narrow = false;
    if (!kept && ranked) {
      GORANK_ASSIGN_OR_RETURN(auto count, c.Prepare(kPlayersInRanks));
      count->Bind(1, lowest).Bind(2, highest);
      GORANK_ASSIGN_OR_RETURN(bool row, count->Step());
      narrow = row && count->Int(0) <= kNarrowRankPlayers;
    }
    const char* sql = kept     ? (query.pro_list ? kKeptByPro : kKeptByGor)
                      : narrow ? (query.pro_list ? kNarrowByPro : kNarrowByGor)
                               : (query.pro_list ? kLiveByPro : kLiveByGor);
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
    const auto& after = query.after;
    st->Bind(1, int64_t{query.limit})
        .Bind(2, int64_t{after ? 1 : 0})
        .Bind(3, after ? OrderKey(after->rating) : int64_t{0})
        .Bind(4, after ? after->player.value : int64_t{0})
        .Bind(5, query.agency_prefix)
        .Bind(6, int64_t{query.min_rank_ordinal || narrow ? 1 : 0})
        .Bind(7, narrow ? lowest : int64_t{query.min_rank_ordinal.value_or(0)})
        .Bind(8, int64_t{query.max_rank_ordinal || narrow ? 1 : 0})
        .Bind(9, narrow ? highest : int64_t{query.max_rank_ordinal.value_or(0)})
        .Bind(10, query.active_since ? query.active_since->ToString()
                                     : std::string());
    if (kept) st->Bind(11, query.month);
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      ratings::RatingListRow r;
      GORANK_ASSIGN_OR_RETURN(r.rating, ReadRating(*st));
      r.name = st->Text(6);
      r.latin_name = st->Text(7);
      r.agency_prefix = st->Text(8);
      if (!st->IsNull(9)) r.rank_ordinal = static_cast<int>(st->Int(9));
      if (!st->IsNull(10)) {
        GORANK_ASSIGN_OR_RETURN(r.last_rated, Date::Parse(st->Text(10)));
      }
      out.push_back(std::move(r));
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<ratings::KeptMonth>>
SqlRatingRepository::KeptMonths() const {
  std::vector<ratings::KeptMonth> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kKeptMonths));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      out.push_back(
          ratings::KeptMonth{st->Text(0), st->Int(1), st->Int(2), st->Int(3)});
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::optional<std::string>>
SqlRatingRepository::FirstWatchedMonth() const {
  std::optional<std::string> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kFirstWatched));
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) out = st->Text(0);
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<std::string>> SqlRatingRepository::KeepMonths(
    const std::vector<std::string>& months, const std::string& first_month,
    int64_t now_unix, const ChangeRecord& audit) {
  std::vector<std::string> kept;
  GORANK_RETURN_IF_ERROR(db_->Write([&](Connection& c) -> absl::Status {
    kept.clear();
    bool wrote = false;
    {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kFirstWatched));
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) {
        st.reset();
        GORANK_ASSIGN_OR_RETURN(auto put, c.Prepare(kPutFirstWatched));
        put->Bind(1, first_month);
        GORANK_RETURN_IF_ERROR(put->Run());
        wrote = true;
      }
    }
    for (const std::string& month : months) {
      {
        GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kMonthKept));
        st->Bind(1, month);
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (row) continue;
      }
      {
        GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPutKeptMonth));
        st->Bind(1, month).Bind(2, now_unix);
        GORANK_RETURN_IF_ERROR(st->Run());
      }
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kKeepRows));
      st->Bind(1, month);
      GORANK_RETURN_IF_ERROR(st->Run());
      kept.push_back(month);
      wrote = true;
    }
    if (!wrote) return absl::OkStatus();
    ChangeRecord audited = audit;
    nlohmann::json after = nlohmann::json::object();
    after["first_month"] = first_month;
    after["kept"] = kept;
    audited.after = after.dump();
    return AppendAudit(c, audited).status();
  }));
  return kept;
}

absl::Status SqlRatingRepository::StoreStarts(
    const ratings::StartsDelta& delta, const std::vector<ChangeRecord>& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    for (const ratings::RatingStart& s : delta.starts) {
      {
        GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPlayerById));
        st->Bind(1, s.player.value);
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (!row) {
          return absl::NotFoundError("no registered player has id " +
                                     std::to_string(s.player.value));
        }
      }
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPutStart));
      st->Bind(1, s.player.value)
          .Bind(2, DoubleText(s.gor))
          .Bind(3, OptDouble(s.pro_elo))
          .Bind(4, s.as_of.ToString())
          .Bind(5, s.origin)
          .Bind(6, s.recorded_unix);
      GORANK_RETURN_IF_ERROR(st->Run());
    }
    for (const PlayerRating& r : delta.players) {
      GORANK_RETURN_IF_ERROR(PutRating(c, r));
    }
    GORANK_RETURN_IF_ERROR(
        PutState(c, delta.table_sha256, delta.events, delta.players_total));
    for (const ChangeRecord& a : audit) {
      GORANK_RETURN_IF_ERROR(AppendAudit(c, a).status());
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<ratings::RatingStart>>
SqlRatingRepository::ListStarts() const {
  std::vector<ratings::RatingStart> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListStarts));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      GORANK_ASSIGN_OR_RETURN(ratings::RatingStart s, ReadStart(*st));
      out.push_back(std::move(s));
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::optional<ratings::RatingStart>>
SqlRatingRepository::GetStart(PlayerId player) const {
  std::optional<ratings::RatingStart> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kStartColumns));
    st->Bind(1, player.value);
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) return absl::OkStatus();
    GORANK_ASSIGN_OR_RETURN(out, ReadStart(*st));
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<std::vector<ratings::PlayerMatch>>>
SqlRatingRepository::FindPlayers(
    const std::vector<ratings::PlayerLookup>& lookups) const {
  using Kind = ratings::PlayerLookup::Kind;
  std::vector<std::vector<ratings::PlayerMatch>> out(lookups.size());
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    for (size_t i = 0; i < lookups.size(); ++i) {
      const ratings::PlayerLookup& l = lookups[i];
      const char* sql = l.kind == Kind::kId           ? kPlayerById
                        : l.kind == Kind::kResidentId ? kPlayerByResidentId
                                                      : kPlayerByExternalId;
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
      if (l.kind == Kind::kId) {
        int64_t id = 0;
        auto [end, ec] = std::from_chars(l.value.data(),
                                         l.value.data() + l.value.size(), id);
        if (ec != std::errc() || end != l.value.data() + l.value.size()) {
          continue;  // not an id: finds nobody
        }
        st->Bind(1, id);
      } else if (l.kind == Kind::kResidentId) {
        st->Bind(1, l.value);
      } else {
        st->Bind(1, l.value).Bind(2, l.agency_prefix);
      }
      while (true) {
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (!row) break;
        ratings::PlayerMatch m;
        m.player = PlayerId{st->Int(0)};
        m.agency_prefix = st->Text(1);
        m.kind = l.kind;
        if (l.kind == Kind::kExternalId) m.external_id = st->Text(2);
        out[i].push_back(std::move(m));
      }
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<StoredProposal> SqlRatingRepository::AddProposal(
    const StoredProposal& proposal, const ChangeRecord& audit) {
  StoredProposal out = proposal;
  GORANK_RETURN_IF_ERROR(db_->Write([&](Connection& c) -> absl::Status {
    {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPendingFor));
      st->Bind(1, proposal.proposal.player.value)
          .Bind(2, proposal.proposal.rule_id);
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (row) {
        const int64_t id = st->Int(0);
        st.reset();
        GORANK_ASSIGN_OR_RETURN(out, LoadProposal(c, id));
        return absl::OkStatus();
      }
    }
    const ratings::Proposal& p = proposal.proposal;
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertProposal));
    st->Bind(1, p.player.value)
        .Bind(2, p.rule_id)
        .Bind(3, p.rule_description)
        .Bind(4, p.from.ToString())
        .Bind(5, p.to.ToString())
        .Bind(6, EvidenceJson(p.evidence).dump())
        .Bind(7, p.explanation)
        .Bind(8, proposal.as_of.ToString())
        .Bind(9, proposal.created_unix);
    GORANK_RETURN_IF_ERROR(st->Run());
    out.id = c.LastInsertRowId();
    out.state = ProposalState::kPending;
    ChangeRecord audited = audit;
    audited.subject = "proposal:" + std::to_string(out.id);
    return AppendAudit(c, audited).status();
  }));
  return out;
}

absl::StatusOr<StoredProposal> SqlRatingRepository::GetProposal(
    int64_t id) const {
  StoredProposal out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(out, LoadProposal(c, id));
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<StoredProposal>> SqlRatingRepository::ListProposals(
    const ratings::ProposalFilter& filter) const {
  std::vector<StoredProposal> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListProposals));
    st->Bind(1, filter.after_id)
        .Bind(2, int64_t{filter.state ? static_cast<int>(*filter.state) : 0})
        .Bind(3, filter.player ? filter.player->value : int64_t{0})
        .Bind(4, int64_t{filter.limit})
        .Bind(5, filter.agency_prefix);
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      GORANK_ASSIGN_OR_RETURN(StoredProposal p, ReadProposal(*st));
      out.push_back(std::move(p));
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::Status SqlRatingRepository::DecideProposal(const StoredProposal& decided,
                                                 const ChangeRecord& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kProposalState));
      st->Bind(1, decided.id);
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) {
        return absl::NotFoundError("no promotion proposal with id " +
                                   std::to_string(decided.id));
      }
      if (st->Int(0) != static_cast<int>(ProposalState::kPending)) {
        return absl::FailedPreconditionError(
            "proposal " + std::to_string(decided.id) + " is " +
            ratings::ProposalStateName(static_cast<ProposalState>(st->Int(0))) +
            ", not PENDING");
      }
    }
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kDecideProposal));
    st->Bind(1, decided.id)
        .Bind(2, int64_t{static_cast<int>(decided.state)})
        .Bind(3, decided.decided_by)
        .Bind(4, decided.decision_reason)
        .Bind(5, decided.decided_unix)
        .Bind(6, decided.certificate_number);
    GORANK_RETURN_IF_ERROR(st->Run());
    return AppendAudit(c, audit).status();
  });
}

}  // namespace gorank::storage
