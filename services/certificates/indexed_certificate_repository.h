// IndexedCertificateRepository: a CertificateRepository that passes every
// call to another one and, after each write that committed, brings the
// PublicIndex up to date before it returns (public_index.h): the certificate
// issued, imported, revoked or objected to is read back (or taken from the
// call's answer when the index has no entry yet), and the holder too when the
// write may have moved a rank. A failed write changes nothing in the index.
// When the read-back fails the index is invalidated (public reads go to the
// database from then on) and the write's own answer is still returned: it
// committed.
//
// IndexedRegistryRepository does the same for the registry: players inserted,
// updated, imported or given a new rank, and agencies inserted.
//
// Thread-safe as the wrapped repositories. Owns neither the repository nor
// the index.
#ifndef GORANK_SERVICES_CERTIFICATES_INDEXED_CERTIFICATE_REPOSITORY_H_
#define GORANK_SERVICES_CERTIFICATES_INDEXED_CERTIFICATE_REPOSITORY_H_

#include <optional>
#include <string>
#include <vector>

#include "services/certificates/certificate_repository.h"
#include "services/certificates/public_index.h"
#include "services/registry/registry_repository.h"

namespace gorank::certificates {

class IndexedCertificateRepository : public CertificateRepository {
 public:
  // `players` reads holders back (their ranks move with some writes).
  IndexedCertificateRepository(CertificateRepository* inner,
                               registry::RegistryRepository* players,
                               PublicIndex* index)
      : inner_(inner), players_(players), index_(index) {}

  absl::StatusOr<Certificate> IssueCertificate(const IssuePlan& plan) override;
  absl::StatusOr<Certificate> GetCertificate(
      const CertificateNumber& n) override {
    return inner_->GetCertificate(n);
  }
  absl::StatusOr<std::optional<Certificate>> FindByRequestId(
      const std::string& scope, const std::string& request_id) override {
    return inner_->FindByRequestId(scope, request_id);
  }
  absl::StatusOr<std::vector<Certificate>> ListCertificates(
      const CertificateFilter& filter) override {
    return inner_->ListCertificates(filter);
  }
  absl::Status SettleNotice(
      const CertificateNumber& n,
      const std::optional<registry::RankHistoryEntry>& change,
      const std::optional<registry::Rank>& rank_before,
      const ChangeRecord& audit) override;
  absl::Status Revoke(const CertificateNumber& n, int64_t revoked_unix,
                      const std::string& reason,
                      const std::optional<registry::RankHistoryEntry>& change,
                      const ChangeRecord& audit) override;
  absl::StatusOr<int64_t> InsertObjection(const Objection& o,
                                          const ChangeRecord& audit) override;
  absl::StatusOr<Objection> GetObjection(int64_t id) override {
    return inner_->GetObjection(id);
  }
  absl::StatusOr<std::vector<Objection>> ListObjections(
      const CertificateNumber& n) override {
    return inner_->ListObjections(n);
  }
  absl::StatusOr<std::vector<Objection>> FindObjections(
      const ObjectionFilter& filter) override {
    return inner_->FindObjections(filter);
  }
  absl::Status DecideObjection(int64_t id, ObjectionState state,
                               const std::string& note, int64_t now_unix,
                               const ChangeRecord& audit) override;
  absl::StatusOr<int64_t> InsertAppraisal(const Appraisal& a,
                                          const ChangeRecord& audit) override {
    return inner_->InsertAppraisal(a, audit);
  }
  absl::StatusOr<Appraisal> GetAppraisal(int64_t id) override {
    return inner_->GetAppraisal(id);
  }
  absl::StatusOr<std::vector<Appraisal>> ListAppraisals(
      const std::string& agency_prefix, bool pending_only) override {
    return inner_->ListAppraisals(agency_prefix, pending_only);
  }
  absl::StatusOr<std::vector<Appraisal>> ListAppraisalsAfter(
      const std::string& agency_prefix, bool pending_only, int64_t after_id,
      int limit) override {
    return inner_->ListAppraisalsAfter(agency_prefix, pending_only, after_id,
                                       limit);
  }
  absl::Status RejectAppraisal(int64_t id, const std::string& note,
                               int64_t now_unix,
                               const ChangeRecord& audit) override {
    return inner_->RejectAppraisal(id, note, now_unix, audit);
  }
  absl::Status PutStockOrder(const StockOrder& order,
                             const ChangeRecord& audit) override {
    return inner_->PutStockOrder(order, audit);
  }
  absl::Status ReleaseStockOrder(const std::string& prefix, int year,
                                 int64_t now_unix, const std::string& by,
                                 const ChangeRecord& audit) override {
    return inner_->ReleaseStockOrder(prefix, year, now_unix, by, audit);
  }
  absl::StatusOr<StockOrder> GetStockOrder(const std::string& prefix,
                                           int year) override {
    return inner_->GetStockOrder(prefix, year);
  }
  absl::StatusOr<int> CountIssued(const std::string& prefix,
                                  int year) override {
    return inner_->CountIssued(prefix, year);
  }
  absl::StatusOr<ImportLookup> LookupForImport(
      const ImportLookupQuery& query) override {
    return inner_->LookupForImport(query);
  }
  absl::Status StoreImport(const ImportPlan& plan) override;

 private:
  // Read-backs after a committed write; a failure invalidates the index.
  void RefreshCertificate(const CertificateNumber& n, const Certificate* known);
  void RefreshHolder(registry::PlayerId id);
  void RefreshHolderOf(const CertificateNumber& n);

  CertificateRepository* inner_;
  registry::RegistryRepository* players_;
  PublicIndex* index_;
};

class IndexedRegistryRepository : public registry::RegistryRepository {
 public:
  IndexedRegistryRepository(registry::RegistryRepository* inner,
                            PublicIndex* index)
      : inner_(inner), index_(index) {}

  absl::StatusOr<std::vector<registry::Agency>> ListAgencies() override {
    return inner_->ListAgencies();
  }
  absl::StatusOr<registry::Agency> GetAgency(
      const std::string& prefix) override {
    return inner_->GetAgency(prefix);
  }
  absl::Status InsertAgency(const registry::Agency& agency,
                            const ChangeRecord& change) override;
  absl::Status SetAgencyStatus(const std::string& prefix,
                               registry::AgencyStatus status,
                               const std::string& reason,
                               const ChangeRecord& change) override {
    return inner_->SetAgencyStatus(prefix, status, reason, change);
  }
  absl::StatusOr<registry::PlayerId> InsertPlayer(
      const registry::Player& player,
      const std::optional<registry::RankHistoryEntry>& initial,
      const ChangeRecord& change) override;
  absl::StatusOr<registry::Player> GetPlayer(registry::PlayerId id) override {
    return inner_->GetPlayer(id);
  }
  absl::Status UpdatePlayer(const registry::Player& player,
                            const ChangeRecord& change) override;
  absl::StatusOr<std::vector<registry::Player>> SearchPlayers(
      const registry::PlayerQuery& query) override {
    return inner_->SearchPlayers(query);
  }
  absl::StatusOr<registry::RankHistoryEntry> ApplyRankChange(
      const registry::RankHistoryEntry& entry,
      const ChangeRecord& change) override;
  absl::StatusOr<std::vector<registry::RankHistoryEntry>> ListRankHistory(
      registry::PlayerId id) override {
    return inner_->ListRankHistory(id);
  }
  absl::StatusOr<std::vector<registry::RankHistoryEntry>> ListRankChanges(
      const registry::RankChangeQuery& query) override {
    return inner_->ListRankChanges(query);
  }
  absl::StatusOr<std::vector<registry::ImportMatch>> FindImportMatches(
      const std::vector<registry::ImportKey>& keys) override {
    return inner_->FindImportMatches(keys);
  }
  absl::StatusOr<std::vector<registry::PlayerId>> StoreImport(
      const std::vector<registry::ImportedPlayer>& added,
      const std::vector<registry::ExternalIdLink>& links, size_t audit_chunk,
      const registry::ImportAuditFn& audit,
      const ChangeRecord& link_change) override;

 private:
  void Refresh(registry::PlayerId id, const registry::Player* known);

  registry::RegistryRepository* inner_;
  PublicIndex* index_;
};

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_INDEXED_CERTIFICATE_REPOSITORY_H_
