#include "services/ratings/rating_ledger.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/container/btree_set.h"
#include "nlohmann/json.hpp"
#include "services/audit/encoding.h"
#include "services/audit/merkle.h"
#include "services/common/status_macros.h"
#include "services/ratings/event_games.h"
#include "services/ratings/event_ratings.h"

namespace gorank::ratings {
namespace {

RatingSnapshot SnapshotOf(const RatingBook& book, std::string sha) {
  RatingSnapshot s;
  s.events = book.events();
  s.players = book.Table();
  for (const PlayerRating& r : s.players) {
    for (RatingChange& c : book.History(r.player)) {
      s.history.emplace_back(r.player, std::move(c));
    }
  }
  s.table_sha256 = std::move(sha);
  return s;
}

std::string ReportJson(const RecomputeReport& r) {
  return "{\"events\":" + std::to_string(r.events) +
         ",\"games\":" + std::to_string(r.games) +
         ",\"players\":" + std::to_string(r.players) + ",\"table_sha256\":\"" +
         r.table_sha256 + "\"}";
}

}  // namespace

std::string TableSha256(const RatingBook& book) {
  return audit::HexEncode(audit::Sha256(book.SerializeTable()));
}

ChangeRecord RatingLedger::Change(const std::string& actor,
                                  const std::string& action,
                                  const std::string& subject,
                                  const std::string& after) const {
  return ChangeRecord{clock_->NowSeconds(), actor, action, subject, "", after};
}

absl::StatusOr<RecomputeReport> RatingLedger::Recompute(
    const std::string& actor, bool dry_run) {
  std::lock_guard<std::mutex> lock(mu_);
  return RecomputeLocked(actor, dry_run);
}

absl::StatusOr<RecomputeReport> RatingLedger::LoadOrRecompute(
    const std::string& actor, bool dry_run) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string why;
  absl::StatusOr<std::optional<RatingSnapshot>> stored = repo_->LoadSnapshot();
  if (!stored.ok()) {
    why = "the stored table cannot be read: " + stored.status().ToString();
  } else if (!stored->has_value() || (*stored)->table_sha256.empty()) {
    why = "no stored table";
  } else {
    const RatingSnapshot& snapshot = **stored;
    absl::StatusOr<RatingBook> book = RatingBook::Restore(
        settings_, snapshot.events, snapshot.players, snapshot.history);
    if (!book.ok()) {
      why = "the stored table is inconsistent: " + book.status().ToString();
    } else {
      // The digest covers the settings too (the table text's header).
      const std::string sha = TableSha256(*book);
      if (sha != snapshot.table_sha256) {
        why = "the stored digest " + snapshot.table_sha256.substr(0, 16) +
              " is not the table's " + sha.substr(0, 16) +
              " (a changed table or changed rating settings)";
      } else {
        RecomputeReport report;
        report.events = static_cast<int64_t>(book->event_count());
        report.players = static_cast<int64_t>(book->player_count());
        report.table_sha256 = sha;
        report.loaded = true;
        book_ = std::move(*book);
        return report;
      }
    }
  }
  // A table missing, unreadable or not what its digest says is rewritten
  // even when the recompute's digest equals the stored one (a changed row).
  GORANK_ASSIGN_OR_RETURN(
      RecomputeReport report,
      RecomputeLocked(actor, dry_run, /*stored_table_wrong=*/true));
  report.recompute_reason = std::move(why);
  return report;
}

absl::StatusOr<RecomputeReport> RatingLedger::RecomputeLocked(
    const std::string& actor, bool dry_run, bool stored_table_wrong) {
  recomputes_.fetch_add(1);
  GORANK_ASSIGN_OR_RETURN(std::vector<RatedGame> games,
                          ClosedEventGames(*events_));
  RecomputeReport report;
  for (const RatedGame& g : games) report.games += g.IsRated() ? 1 : 0;
  GORANK_ASSIGN_OR_RETURN(std::vector<RatingStart> stored_starts,
                          repo_->ListStarts());
  std::map<PlayerId, StartValue> starts;
  for (const RatingStart& s : stored_starts) {
    starts[s.player] = StartValue{s.gor, s.pro_elo};
  }
  GORANK_ASSIGN_OR_RETURN(
      RatingBook book, ratings::Recompute(settings_, std::move(games), starts));
  report.events = static_cast<int64_t>(book.event_count());
  report.players = static_cast<int64_t>(book.player_count());
  report.table_sha256 = TableSha256(book);
  GORANK_ASSIGN_OR_RETURN(RatingState stored, repo_->State());
  report.changed =
      stored_table_wrong || stored.table_sha256 != report.table_sha256;
  if (dry_run) return report;
  if (report.changed) {
    GORANK_RETURN_IF_ERROR(BeforeWrite());
    GORANK_RETURN_IF_ERROR(repo_->ReplaceAll(
        SnapshotOf(book, report.table_sha256),
        Change(actor, "ratings.recompute", "ratings", ReportJson(report))));
    report.stored = true;
  }
  book_ = std::move(book);
  return report;
}

absl::Status RatingLedger::EventClosed(tournaments::EventId id,
                                       const std::string& actor) {
  GORANK_ASSIGN_OR_RETURN(tournaments::Event event, events_->GetEvent(id));
  GORANK_ASSIGN_OR_RETURN(tournaments::EventResults results,
                          events_->GetResults(id));
  // The same order number as a full recompute (ClosedEventGames).
  GORANK_ASSIGN_OR_RETURN(std::vector<RatedGame> games,
                          EventGames(event, results, id.value));
  if (games.empty()) return absl::OkStatus();  // not a rated event
  GORANK_ASSIGN_OR_RETURN(std::vector<RatedEvent> grouped,
                          GroupIntoEvents(std::move(games)));
  const RatedEvent& rated = grouped.front();

  std::lock_guard<std::mutex> lock(mu_);
  if (!book_.has_value()) return RecomputeLocked(actor, false).status();
  if (book_->HasEvent(rated.key.event_id)) return absl::OkStatus();
  RatingBook next = *book_;
  absl::Status applied = next.ApplyEvent(rated);
  if (absl::IsFailedPrecondition(applied)) {
    // Back-dated: only a full recompute keeps the order.
    return RecomputeLocked(actor, false).status();
  }
  GORANK_RETURN_IF_ERROR(applied);

  RatingDelta delta;
  delta.event = rated.key;
  absl::btree_set<int64_t> touched;
  for (const RatedGame& g : rated.games) {
    if (!g.IsRated()) continue;
    touched.insert(g.black.value);
    touched.insert(g.white.value);
  }
  for (int64_t player : touched) {
    std::optional<PlayerRating> r = next.Find(PlayerId{player});
    if (!r.has_value()) continue;
    delta.players.push_back(*r);
    std::vector<RatingChange> history = next.History(PlayerId{player});
    if (!history.empty() &&
        history.back().event.event_id == rated.key.event_id) {
      delta.changes.emplace_back(PlayerId{player}, history.back());
    }
  }
  delta.table_sha256 = TableSha256(next);
  delta.players_total = static_cast<int64_t>(next.player_count());
  GORANK_RETURN_IF_ERROR(BeforeWrite());
  absl::Status stored = repo_->AppendEvent(
      delta, Change(actor, "ratings.event", "event:" + rated.key.event_id,
                    "{\"players\":" + std::to_string(delta.players.size()) +
                        ",\"table_sha256\":\"" + delta.table_sha256 + "\"}"));
  if (absl::IsAlreadyExists(stored)) {
    // The table holds the event but the book did not: rebuild both.
    return RecomputeLocked(actor, false).status();
  }
  GORANK_RETURN_IF_ERROR(stored);
  book_ = std::move(next);
  return absl::OkStatus();
}

absl::StatusOr<StartImportReport> RatingLedger::ImportStarts(
    const StartImport& file, const std::string& actor) {
  // What each row's player field finds (read before the lock: the registry
  // is not the ledger's).
  std::vector<PlayerLookup> lookups;
  std::vector<size_t> first;  // rows[i]'s lookups start at first[i]
  for (const StartRow& row : file.rows) {
    first.push_back(lookups.size());
    for (PlayerLookup& l : PlayerLookups(row.player)) {
      lookups.push_back(std::move(l));
    }
  }
  first.push_back(lookups.size());
  std::vector<std::vector<PlayerMatch>> found;
  if (!lookups.empty()) {
    GORANK_ASSIGN_OR_RETURN(found, repo_->FindPlayers(lookups));
  }
  std::vector<std::vector<PlayerMatch>> matches(file.rows.size());
  for (size_t i = 0; i < file.rows.size(); ++i) {
    for (size_t j = first[i]; j < first[i + 1]; ++j) {
      matches[i].insert(matches[i].end(), found[j].begin(), found[j].end());
    }
  }

  std::lock_guard<std::mutex> lock(mu_);
  if (!book_.has_value()) {
    GORANK_RETURN_IF_ERROR(RecomputeLocked(actor, false).status());
  }
  GORANK_ASSIGN_OR_RETURN(std::vector<RatingStart> stored_starts,
                          repo_->ListStarts());
  std::map<PlayerId, RatingStart> stored;
  for (RatingStart& s : stored_starts) stored[s.player] = std::move(s);
  GORANK_ASSIGN_OR_RETURN(
      StartImportPlan plan,
      PlanStartImport(file, matches, *book_, stored, clock_->Today(),
                      clock_->NowSeconds()));
  StartImportReport& report = plan.report;
  if (file.dry_run || (report.refused > 0 && !file.skip_bad)) return report;
  if (plan.starts.empty()) {  // every good row matched: nothing to write
    report.stored = true;
    return report;
  }
  RatingBook next = *book_;
  for (const RatingStart& s : plan.starts) {
    GORANK_RETURN_IF_ERROR(next.SetStart(s.player, s.gor, s.pro_elo));
  }
  StartsDelta delta;
  for (const RatingStart& s : plan.starts) {
    delta.players.push_back(*next.Find(s.player));
  }
  delta.starts = std::move(plan.starts);
  delta.table_sha256 = TableSha256(next);
  delta.events = static_cast<int64_t>(next.event_count());
  delta.players_total = static_cast<int64_t>(next.player_count());
  // One audit entry a chunk of starts, each naming the file.
  constexpr size_t kAuditChunk = 1000;
  std::vector<ChangeRecord> audit;
  for (size_t begin = 0; begin < delta.starts.size(); begin += kAuditChunk) {
    nlohmann::json starts = nlohmann::json::array();
    const size_t end = std::min(delta.starts.size(), begin + kAuditChunk);
    for (size_t i = begin; i < end; ++i) {
      const RatingStart& s = delta.starts[i];
      nlohmann::json j = {{"player", s.player.value},
                          {"gor", s.gor},
                          {"as_of", s.as_of.ToString()},
                          {"origin", s.origin}};
      if (s.pro_elo) j["pro_rating"] = *s.pro_elo;
      starts.push_back(std::move(j));
    }
    const nlohmann::json after = {{"file", file.file_name},
                                  {"file_sha256", file.file_sha256},
                                  {"starts", std::move(starts)},
                                  {"table_sha256", delta.table_sha256}};
    audit.push_back(Change(actor, "ratings.import", "ratings", after.dump()));
  }
  GORANK_RETURN_IF_ERROR(BeforeWrite());
  GORANK_RETURN_IF_ERROR(repo_->StoreStarts(delta, audit));
  book_ = std::move(next);
  report.stored = true;
  return report;
}

}  // namespace gorank::ratings
