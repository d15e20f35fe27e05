// PublicIndex: what the public may see of the registry, in memory, so that
// Certification::Verify and LookupRank answer without the database. Per
// certificate: its holder, grade, issue date, end of notice, revocation and
// whether an objection is open (the state is computed from these and the
// clock on every read, never stored); per player: name, Latin name, home
// agency and both ranks, with the player's certificates; per agency its name;
// and the players by exact name and by exact Latin name.
//
// Readers take no lock and touch no shared counter: certificates sit in a
// three-level table indexed by the number (prefix and year, then the serial
// in two steps), players in a three-level radix table indexed by id, entries
// stored in place in the leaves, and each entry is a
// seqlock (a version word around a few atomic words: a reader copies the
// words and retries in the rare case that a writer was storing meanwhile).
// Names are immutable byte strings in an arena; a rename stores a new string
// and leaves the old one in place until the index is destroyed (renames are
// rare; the bytes are bounded by the renames since start). Nothing is ever
// removed (the registry deletes neither certificates nor players).
//
// Writers (IndexedCertificateRepository, IndexedRegistryRepository) store
// after their transaction committed and before they return, so every write
// acknowledged to a client is seen by every later read. Two writers of the
// same entry are ordered by the entry's write lock (Refresh*), under which
// the entry is read back from the database: the last one to store read the
// state after both commits.
//
// With several rankd instances on one PostgreSQL database, an IndexFollower
// (index_follower.h) brings in the other instances' writes through the same
// Refresh* paths, sets the index aside (SetStale) while it cannot keep its
// staleness bound, and rebuilds it after an invalidation.
//
// Thread-safe. Readers and writers may run concurrently; the first Build must
// finish before the first read.
#ifndef GORANK_SERVICES_CERTIFICATES_PUBLIC_INDEX_H_
#define GORANK_SERVICES_CERTIFICATES_PUBLIC_INDEX_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "services/certificates/certificate.h"
#include "services/certificates/certificate_repository.h"
#include "services/common/date.h"
#include "services/registry/player.h"
#include "services/registry/registry_repository.h"

namespace gorank::certificates {

// "1k", parsed once: the grade of a PublicCertificate before it is filled.
const registry::Rank& PlaceholderGrade();

// One certificate as the public sees it.
struct PublicCertificate {
  CertificateNumber number;
  registry::PlayerId player_id;
  registry::Rank grade = PlaceholderGrade();
  Date issue_date;
  int64_t notice_until_unix = 0;
  int64_t revoked_unix = 0;  // 0 = in force
  bool has_open_objection = false;

  // StateAt() of the certificate with these fields.
  CertificateState StateAt(int64_t now_unix) const;
  // A Certificate with these fields (the others empty).
  Certificate ToCertificate() const;
};

// One player as the public sees it. The views point into the index and stay
// valid as long as it lives.
struct PublicHolder {
  registry::PlayerId id;
  std::string_view name;
  std::string_view latin_name;
  std::string_view agency_prefix;
  std::optional<registry::Rank> rank;
  std::optional<registry::Rank> gomoku_rank;
};

class PublicIndex {
 public:
  PublicIndex();
  ~PublicIndex();
  PublicIndex(const PublicIndex&) = delete;
  PublicIndex& operator=(const PublicIndex&) = delete;

  // Reads every agency, player and certificate and stores them. Errors of
  // the repositories; the index stays unusable then (a first Build). Build
  // may run again on a live index (a rebuild): readers and writers may run
  // meanwhile, but an entry a concurrent write refreshed may be overwritten
  // with the older row Build read, so a rebuild is followed by a replay of
  // the writes since it began (IndexFollower does both).
  absl::Status Build(CertificateRepository* certs,
                     registry::RegistryRepository* registry);

  // False before Build succeeded, after Invalidate (until Revalidate) and
  // while stale: callers then read the database instead.
  bool usable() const { return usable_.load(std::memory_order_acquire); }
  // Marks the index unusable (a write committed but could not be read back:
  // the index may miss it) and tells the listener when it was valid.
  void Invalidate(const absl::Status& why);
  // Called by each Invalidate of a valid index (e.g. to log). Set before
  // the first write.
  void SetInvalidationListener(
      std::function<void(const absl::Status&)> listener) {
    on_invalidate_ = std::move(listener);
  }
  // How many times Invalidate was called.
  uint64_t invalidations() const {
    return invalidations_.load(std::memory_order_acquire);
  }
  // After a rebuild that began when invalidations() was `since`: valid
  // again, unless another Invalidate came meanwhile (false then).
  bool Revalidate(uint64_t since);
  // Set aside while stale (readers go to the database), back when not.
  void SetStale(bool stale);
  bool stale() const { return stale_.load(std::memory_order_acquire); }

  // Lock-free reads. FindCertificate/FindHolder: false when unknown.
  bool FindCertificate(const CertificateNumber& n,
                       PublicCertificate* out) const;
  bool FindHolder(registry::PlayerId id, PublicHolder* out) const;
  // The agency's name; "" for an unknown prefix.
  std::string_view AgencyName(std::string_view prefix) const;
  // Players whose name or Latin name is exactly `name`, in id order, at most
  // `limit`.
  std::vector<PublicHolder> FindByName(std::string_view name,
                                       size_t limit) const;
  // The player's certificates in number order.
  std::vector<PublicCertificate> CertificatesOf(registry::PlayerId id) const;

  // Writers. RefreshCertificate: under the number's write lock, stores
  // `known` when the index has no entry for it yet, else what `reload` reads
  // (the entry as committed now). RefreshPlayer the same for a player. A
  // reload error is returned (the caller invalidates the index).
  absl::Status RefreshCertificate(
      const CertificateNumber& n, const Certificate* known,
      const std::function<absl::StatusOr<Certificate>()>& reload);
  absl::Status RefreshPlayer(
      registry::PlayerId id, const registry::Player* known,
      const std::function<absl::StatusOr<registry::Player>()>& reload);
  // Agencies are inserted once and never renamed.
  void PutAgency(const registry::Agency& agency);

  // Counts, for the log and the tests.
  size_t certificate_count() const;
  size_t player_count() const;

 private:
  struct CertSlot;
  struct CertLeaf;
  struct CertMid;
  struct PlayerSlot;
  struct PlayerLeaf;
  struct PlayerMid;
  struct NameNode;
  struct NameTable;

  static constexpr int kStripes = 64;

  const CertSlot* CertAt(const CertificateNumber& n) const;
  const PlayerSlot* PlayerAt(int64_t id) const;
  void ReadHolder(const PlayerSlot& slot, int64_t id, PublicHolder* out,
                  bool* present) const;
  // Writers. Store* run under the entry's stripe; the rest under alloc_mu_.
  void StoreCertificate(const Certificate& c);
  void StorePlayer(const registry::Player& p);
  CertSlot* CertSlotFor(const CertificateNumber& n);  // created when missing
  PlayerSlot* PlayerSlotFor(int64_t id);              // same
  const char* NewNames(const registry::Player& p);
  char* Allocate(size_t bytes);
  void AddName(std::string_view name, PlayerSlot* player, int64_t id);
  void GrowNames();

  // usable_ = built_ && !invalidated_ && !stale_, written under state_mu_.
  void UpdateUsable();
  std::mutex state_mu_;
  std::atomic<bool> usable_{false};
  bool built_ = false;
  bool invalidated_ = false;
  std::atomic<bool> stale_{false};
  std::atomic<uint64_t> invalidations_{0};
  std::function<void(const absl::Status&)> on_invalidate_;
  // Certificates: [prefix * 100 + yy] -> [serial / 128] -> [serial % 128].
  std::unique_ptr<std::atomic<CertMid*>[]> cert_top_;
  // Players: [id >> 24] -> [(id >> 12) % 4096] -> [id % 4096] (ids < 2^36).
  std::unique_ptr<std::atomic<PlayerMid*>[]> player_top_;
  std::array<std::atomic<const char*>, 1000> agency_names_{};
  std::atomic<NameTable*> names_{nullptr};

  std::array<std::mutex, kStripes> cert_stripes_;
  std::array<std::mutex, kStripes> player_stripes_;
  // Allocation, list and name-table links; taken inside a stripe.
  std::mutex alloc_mu_;
  std::vector<std::unique_ptr<CertMid>> cert_mids_;
  std::vector<std::unique_ptr<CertLeaf>> cert_leaves_;
  std::vector<std::unique_ptr<PlayerMid>> player_mids_;
  std::vector<std::unique_ptr<PlayerLeaf>> player_leaves_;
  std::vector<std::unique_ptr<char[]>> arena_;
  size_t arena_used_ = 0;
  size_t arena_size_ = 0;
  std::vector<std::unique_ptr<NameTable>> name_tables_;  // old ones retired
  size_t name_nodes_ = 0;
  std::atomic<size_t> certificates_{0};
  std::atomic<size_t> players_{0};
};

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_PUBLIC_INDEX_H_
