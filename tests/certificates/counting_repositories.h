// Decorators of the two repositories the certificate office reads, counting
// every call by method name and forwarding it unchanged. Used to show that
// two public answers cost the same work (Verify's unknown number and wrong
// name).
#ifndef GORANK_TESTS_CERTIFICATES_COUNTING_REPOSITORIES_H_
#define GORANK_TESTS_CERTIFICATES_COUNTING_REPOSITORIES_H_

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "services/certificates/certificate_repository.h"
#include "services/registry/registry_repository.h"

namespace gorank::certificates {

// Thread-safe.
class CallCounter {
 public:
  void Count(const std::string& method) {
    std::lock_guard<std::mutex> lock(mu_);
    ++calls_[method];
  }
  std::map<std::string, int> Take() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(calls_, {});
  }

 private:
  std::mutex mu_;
  std::map<std::string, int> calls_;
};

#define GORANK_COUNT_AND_FORWARD(name, ...) \
  counter_->Count(#name);                   \
  return inner_->name(__VA_ARGS__)

class CountingCertificateRepository : public CertificateRepository {
 public:
  CountingCertificateRepository(CertificateRepository* inner,
                                CallCounter* counter)
      : inner_(inner), counter_(counter) {}

  absl::StatusOr<Certificate> IssueCertificate(const IssuePlan& plan) override {
    GORANK_COUNT_AND_FORWARD(IssueCertificate, plan);
  }
  absl::StatusOr<Certificate> GetCertificate(
      const CertificateNumber& n) override {
    GORANK_COUNT_AND_FORWARD(GetCertificate, n);
  }
  absl::StatusOr<std::optional<Certificate>> FindByRequestId(
      const std::string& scope, const std::string& request_id) override {
    GORANK_COUNT_AND_FORWARD(FindByRequestId, scope, request_id);
  }
  absl::StatusOr<std::vector<Certificate>> ListCertificates(
      const CertificateFilter& filter) override {
    GORANK_COUNT_AND_FORWARD(ListCertificates, filter);
  }
  absl::Status SettleNotice(
      const CertificateNumber& n,
      const std::optional<registry::RankHistoryEntry>& change,
      const std::optional<registry::Rank>& rank_before,
      const ChangeRecord& audit) override {
    GORANK_COUNT_AND_FORWARD(SettleNotice, n, change, rank_before, audit);
  }
  absl::Status Revoke(const CertificateNumber& n, int64_t revoked_unix,
                      const std::string& reason,
                      const std::optional<registry::RankHistoryEntry>& change,
                      const ChangeRecord& audit) override {
    GORANK_COUNT_AND_FORWARD(Revoke, n, revoked_unix, reason, change, audit);
  }
  absl::StatusOr<int64_t> InsertObjection(const Objection& o,
                                          const ChangeRecord& audit) override {
    GORANK_COUNT_AND_FORWARD(InsertObjection, o, audit);
  }
  absl::StatusOr<Objection> GetObjection(int64_t id) override {
    GORANK_COUNT_AND_FORWARD(GetObjection, id);
  }
  absl::StatusOr<std::vector<Objection>> ListObjections(
      const CertificateNumber& n) override {
    GORANK_COUNT_AND_FORWARD(ListObjections, n);
  }
  absl::StatusOr<std::vector<Objection>> FindObjections(
      const ObjectionFilter& filter) override {
    GORANK_COUNT_AND_FORWARD(FindObjections, filter);
  }
  absl::Status DecideObjection(int64_t id, ObjectionState state,
                               const std::string& note, int64_t now_unix,
                               const ChangeRecord& audit) override {
    GORANK_COUNT_AND_FORWARD(DecideObjection, id, state, note, now_unix, audit);
  }
  absl::StatusOr<int64_t> InsertAppraisal(const Appraisal& a,
                                          const ChangeRecord& audit) override {
    GORANK_COUNT_AND_FORWARD(InsertAppraisal, a, audit);
  }
  absl::StatusOr<Appraisal> GetAppraisal(int64_t id) override {
    GORANK_COUNT_AND_FORWARD(GetAppraisal, id);
  }
  absl::StatusOr<std::vector<Appraisal>> ListAppraisals(
      const std::string& agency_prefix, bool pending_only) override {
    GORANK_COUNT_AND_FORWARD(ListAppraisals, agency_prefix, pending_only);
  }
  absl::StatusOr<std::vector<Appraisal>> ListAppraisalsAfter(
      const std::string& agency_prefix, bool pending_only, int64_t after_id,
      int limit) override {
    GORANK_COUNT_AND_FORWARD(ListAppraisalsAfter, agency_prefix, pending_only,
                             after_id, limit);
  }
  absl::Status RejectAppraisal(int64_t id, const std::string& note,
                               int64_t now_unix,
                               const ChangeRecord& audit) override {
    GORANK_COUNT_AND_FORWARD(RejectAppraisal, id, note, now_unix, audit);
  }
  absl::Status PutStockOrder(const StockOrder& order,
                             const ChangeRecord& audit) override {
    GORANK_COUNT_AND_FORWARD(PutStockOrder, order, audit);
  }
  absl::Status ReleaseStockOrder(const std::string& prefix, int year,
                                 int64_t now_unix, const std::string& by,
                                 const ChangeRecord& audit) override {
    GORANK_COUNT_AND_FORWARD(ReleaseStockOrder, prefix, year, now_unix, by,
                             audit);
  }
  absl::StatusOr<StockOrder> GetStockOrder(const std::string& prefix,
                                           int year) override {
    GORANK_COUNT_AND_FORWARD(GetStockOrder, prefix, year);
  }
  absl::StatusOr<int> CountIssued(const std::string& prefix,
                                  int year) override {
    GORANK_COUNT_AND_FORWARD(CountIssued, prefix, year);
  }
  absl::StatusOr<ImportLookup> LookupForImport(
      const ImportLookupQuery& query) override {
    GORANK_COUNT_AND_FORWARD(LookupForImport, query);
  }
  absl::Status StoreImport(const ImportPlan& plan) override {
    GORANK_COUNT_AND_FORWARD(StoreImport, plan);
  }

 private:
  CertificateRepository* inner_;
  CallCounter* counter_;
};

class CountingRegistryRepository : public registry::RegistryRepository {
 public:
  CountingRegistryRepository(registry::RegistryRepository* inner,
                             CallCounter* counter)
      : inner_(inner), counter_(counter) {}

  absl::StatusOr<std::vector<registry::Agency>> ListAgencies() override {
    GORANK_COUNT_AND_FORWARD(ListAgencies);
  }
  absl::StatusOr<registry::Agency> GetAgency(
      const std::string& prefix) override {
    GORANK_COUNT_AND_FORWARD(GetAgency, prefix);
  }
  absl::Status InsertAgency(const registry::Agency& agency,
                            const ChangeRecord& change) override {
    GORANK_COUNT_AND_FORWARD(InsertAgency, agency, change);
  }
  absl::Status SetAgencyStatus(const std::string& prefix,
                               registry::AgencyStatus status,
                               const std::string& reason,
                               const ChangeRecord& change) override {
    GORANK_COUNT_AND_FORWARD(SetAgencyStatus, prefix, status, reason, change);
  }
  absl::StatusOr<registry::PlayerId> InsertPlayer(
      const registry::Player& player,
      const std::optional<registry::RankHistoryEntry>& initial,
      const ChangeRecord& change) override {
    GORANK_COUNT_AND_FORWARD(InsertPlayer, player, initial, change);
  }
  absl::StatusOr<registry::Player> GetPlayer(registry::PlayerId id) override {
    GORANK_COUNT_AND_FORWARD(GetPlayer, id);
  }
  absl::Status UpdatePlayer(const registry::Player& player,
                            const ChangeRecord& change) override {
    GORANK_COUNT_AND_FORWARD(UpdatePlayer, player, change);
  }
  absl::StatusOr<std::vector<registry::Player>> SearchPlayers(
      const registry::PlayerQuery& query) override {
    GORANK_COUNT_AND_FORWARD(SearchPlayers, query);
  }
  absl::StatusOr<registry::RankHistoryEntry> ApplyRankChange(
      const registry::RankHistoryEntry& entry,
      const ChangeRecord& change) override {
    GORANK_COUNT_AND_FORWARD(ApplyRankChange, entry, change);
  }
  absl::StatusOr<std::vector<registry::RankHistoryEntry>> ListRankHistory(
      registry::PlayerId id) override {
    GORANK_COUNT_AND_FORWARD(ListRankHistory, id);
  }
  absl::StatusOr<std::vector<registry::RankHistoryEntry>> ListRankChanges(
      const registry::RankChangeQuery& query) override {
    GORANK_COUNT_AND_FORWARD(ListRankChanges, query);
  }

 private:
  registry::RegistryRepository* inner_;
  CallCounter* counter_;
};

#undef GORANK_COUNT_AND_FORWARD

}  // namespace gorank::certificates

#endif  // GORANK_TESTS_CERTIFICATES_COUNTING_REPOSITORIES_H_
