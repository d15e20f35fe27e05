#include "services/certificates/indexed_certificate_repository.h"

#include <set>

#include "services/common/status_macros.h"

namespace gorank::certificates {

void IndexedCertificateRepository::RefreshCertificate(
    const CertificateNumber& n, const Certificate* known) {
  absl::Status s = index_->RefreshCertificate(
      n, known, [&] { return inner_->GetCertificate(n); });
  if (!s.ok()) index_->Invalidate(s);
}

void IndexedCertificateRepository::RefreshHolder(registry::PlayerId id) {
  absl::Status s = index_->RefreshPlayer(
      id, nullptr, [&] { return players_->GetPlayer(id); });
  if (!s.ok()) index_->Invalidate(s);
}

void IndexedCertificateRepository::RefreshHolderOf(const CertificateNumber& n) {
  PublicCertificate c;
  if (index_->FindCertificate(n, &c)) RefreshHolder(c.player_id);
}

absl::StatusOr<Certificate> IndexedCertificateRepository::IssueCertificate(
    const IssuePlan& plan) {
  absl::StatusOr<Certificate> issued = inner_->IssueCertificate(plan);
  if (!issued.ok()) return issued;
  RefreshCertificate(issued->number, &*issued);
  // The rank moves at issue below 4d (a retried key returns the stored
  // certificate: then the holder is read back too, which changes nothing);
  // not when the holder had that rank already (nothing of theirs was
  // written).
  const bool rank_moved =
      !issued->rank_applied || issued->rank_before != issued->grade;
  if (plan.apply_rank_now && rank_moved) RefreshHolder(issued->player_id);
  return issued;
}

absl::Status IndexedCertificateRepository::SettleNotice(
    const CertificateNumber& n,
    const std::optional<registry::RankHistoryEntry>& change,
    const std::optional<registry::Rank>& rank_before,
    const ChangeRecord& audit) {
  GORANK_RETURN_IF_ERROR(inner_->SettleNotice(n, change, rank_before, audit));
  // The public state does not move (it follows the clock); the rank may.
  if (change) RefreshHolder(change->player_id);
  return absl::OkStatus();
}

absl::Status IndexedCertificateRepository::Revoke(
    const CertificateNumber& n, int64_t revoked_unix, const std::string& reason,
    const std::optional<registry::RankHistoryEntry>& change,
    const ChangeRecord& audit) {
  GORANK_RETURN_IF_ERROR(
      inner_->Revoke(n, revoked_unix, reason, change, audit));
  RefreshCertificate(n, nullptr);
  if (change) RefreshHolder(change->player_id);
  return absl::OkStatus();
}

absl::StatusOr<int64_t> IndexedCertificateRepository::InsertObjection(
    const Objection& o, const ChangeRecord& audit) {
  absl::StatusOr<int64_t> id = inner_->InsertObjection(o, audit);
  if (id.ok()) RefreshCertificate(o.number, nullptr);  // held under notice
  return id;
}

absl::Status IndexedCertificateRepository::DecideObjection(
    int64_t id, ObjectionState state, const std::string& note, int64_t now_unix,
    const ChangeRecord& audit) {
  GORANK_RETURN_IF_ERROR(
      inner_->DecideObjection(id, state, note, now_unix, audit));
  absl::StatusOr<Objection> o = inner_->GetObjection(id);
  if (!o.ok()) {
    index_->Invalidate(o.status());
    return absl::OkStatus();
  }
  // Released from notice, or revoked when upheld.
  RefreshCertificate(o->number, nullptr);
  RefreshHolderOf(o->number);
  return absl::OkStatus();
}

absl::Status IndexedCertificateRepository::StoreImport(const ImportPlan& plan) {
  GORANK_RETURN_IF_ERROR(inner_->StoreImport(plan));
  for (const ImportPlan::Item& item : plan.items)
    RefreshCertificate(item.certificate.number, &item.certificate);
  std::set<int64_t> moved;
  for (const registry::RankHistoryEntry& e : plan.rank_changes)
    moved.insert(e.player_id.value);
  for (int64_t player : moved) RefreshHolder(registry::PlayerId{player});
  return absl::OkStatus();
}

void IndexedRegistryRepository::Refresh(registry::PlayerId id,
                                        const registry::Player* known) {
  absl::Status s =
      index_->RefreshPlayer(id, known, [&] { return inner_->GetPlayer(id); });
  if (!s.ok()) index_->Invalidate(s);
}

absl::Status IndexedRegistryRepository::InsertAgency(
    const registry::Agency& agency, const ChangeRecord& change) {
  GORANK_RETURN_IF_ERROR(inner_->InsertAgency(agency, change));
  index_->PutAgency(agency);
  return absl::OkStatus();
}

absl::StatusOr<registry::PlayerId> IndexedRegistryRepository::InsertPlayer(
    const registry::Player& player,
    const std::optional<registry::RankHistoryEntry>& initial,
    const ChangeRecord& change) {
  absl::StatusOr<registry::PlayerId> id =
      inner_->InsertPlayer(player, initial, change);
  if (id.ok()) Refresh(*id, nullptr);  // as stored (trimmed, defaults)
  return id;
}

absl::Status IndexedRegistryRepository::UpdatePlayer(
    const registry::Player& player, const ChangeRecord& change) {
  GORANK_RETURN_IF_ERROR(inner_->UpdatePlayer(player, change));
  Refresh(player.id, nullptr);
  return absl::OkStatus();
}

absl::StatusOr<registry::RankHistoryEntry>
IndexedRegistryRepository::ApplyRankChange(
    const registry::RankHistoryEntry& entry, const ChangeRecord& change) {
  absl::StatusOr<registry::RankHistoryEntry> stored =
      inner_->ApplyRankChange(entry, change);
  if (stored.ok()) Refresh(entry.player_id, nullptr);
  return stored;
}

absl::StatusOr<std::vector<registry::PlayerId>>
IndexedRegistryRepository::StoreImport(
    const std::vector<registry::ImportedPlayer>& added,
    const std::vector<registry::ExternalIdLink>& links, size_t audit_chunk,
    const registry::ImportAuditFn& audit, const ChangeRecord& link_change) {
  absl::StatusOr<std::vector<registry::PlayerId>> ids =
      inner_->StoreImport(added, links, audit_chunk, audit, link_change);
  if (!ids.ok()) return ids;
  // New players: the rows as stored by this call (read back only when a
  // concurrent write reached the index first).
  for (size_t i = 0; i < ids->size() && i < added.size(); ++i)
    Refresh((*ids)[i], &added[i].player);
  return ids;
}

}  // namespace gorank::certificates
