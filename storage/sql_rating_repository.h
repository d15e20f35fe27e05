// RatingRepository over the Database wrapper (SQLite or PostgreSQL; schema
// migration 6): `rating_events` (the applied events in order), `ratings` (one
// row a player), `rating_history` (one row a player and event), `rating_state`
// (the table digest), `promotion_proposals` and (migration 9) `rating_starts`,
// the imported starting ratings, and (migration 10) the monthly lists
// `rating_snapshot_months`, `rating_snapshots` and `rating_snapshot_start`;
// players are looked up in `players` and
// `player_external_ids`. Ratings are stored as shortest round-trip decimal
// text, so a stored table reads back bit for bit. Every write runs in one
// transaction with its audit-log entry.
#ifndef GORANK_STORAGE_SQL_RATING_REPOSITORY_H_
#define GORANK_STORAGE_SQL_RATING_REPOSITORY_H_

#include <optional>
#include <string>
#include <vector>

#include "services/ratings/rating_repository.h"
#include "storage/database.h"

namespace gorank::storage {

// Thread-safe. Does not own the database.
class SqlRatingRepository : public ratings::RatingRepository {
 public:
  explicit SqlRatingRepository(Database* db) : db_(db) {}

  absl::Status ReplaceAll(const ratings::RatingSnapshot& snapshot,
                          const ChangeRecord& audit) override;
  absl::Status AppendEvent(const ratings::RatingDelta& delta,
                           const ChangeRecord& audit) override;
  absl::StatusOr<ratings::RatingState> State() const override;
  absl::StatusOr<std::optional<ratings::RatingSnapshot>> LoadSnapshot()
      const override;
  absl::StatusOr<ratings::PlayerRating> GetRating(
      ratings::PlayerId player) const override;
  absl::StatusOr<std::vector<ratings::RatingChange>> History(
      ratings::PlayerId player) const override;
  absl::StatusOr<std::vector<ratings::PlayerRating>> ListRatingsAfter(
      bool pro_list, const std::optional<ratings::RatingListPosition>& after,
      int limit) const override;
  absl::StatusOr<std::vector<ratings::PlayerRating>> ListRatings(
      bool pro_list, int64_t offset, int limit) const override;
  absl::StatusOr<std::vector<ratings::PlayerId>> RatedPlayers() const override;
  absl::StatusOr<std::vector<ratings::RatingListRow>> ListRatingRows(
      const ratings::RatingListQuery& query) const override;
  absl::StatusOr<std::vector<ratings::KeptMonth>> KeptMonths() const override;
  absl::StatusOr<std::optional<std::string>> FirstWatchedMonth() const override;
  absl::StatusOr<std::vector<std::string>> KeepMonths(
      const std::vector<std::string>& months, const std::string& first_month,
      int64_t now_unix, const ChangeRecord& audit) override;
  absl::Status StoreStarts(const ratings::StartsDelta& delta,
                           const std::vector<ChangeRecord>& audit) override;
  absl::StatusOr<std::vector<ratings::RatingStart>> ListStarts() const override;
  absl::StatusOr<std::optional<ratings::RatingStart>> GetStart(
      ratings::PlayerId player) const override;
  absl::StatusOr<std::vector<std::vector<ratings::PlayerMatch>>> FindPlayers(
      const std::vector<ratings::PlayerLookup>& lookups) const override;

  absl::StatusOr<ratings::StoredProposal> AddProposal(
      const ratings::StoredProposal& proposal,
      const ChangeRecord& audit) override;
  absl::StatusOr<ratings::StoredProposal> GetProposal(
      int64_t id) const override;
  absl::StatusOr<std::vector<ratings::StoredProposal>> ListProposals(
      const ratings::ProposalFilter& filter) const override;
  absl::Status DecideProposal(const ratings::StoredProposal& decided,
                              const ChangeRecord& audit) override;

 private:
  Database* db_;
};

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_SQL_RATING_REPOSITORY_H_
