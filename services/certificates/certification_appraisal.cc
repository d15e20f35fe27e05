// Certification: appraisals (鉴定) and certificate stock.
#include "services/certificates/certificate_json.h"
#include "services/certificates/certificate_rules.h"
#include "services/certificates/certification.h"
#include "services/common/status_macros.h"

namespace gorank::certificates {

using registry::Rank;

absl::StatusOr<Appraisal> Certification::RecommendAppraisal(
    const auth::Caller& caller, registry::PlayerId player_id, const Rank& grade,
    const std::string& note) {
  if (!grade.IsAmateurDan() || grade.level() > 7) {
    return absl::InvalidArgumentError("appraisal grades are amateur 1d..7d");
  }
  if (note.size() > 2000)
    return absl::InvalidArgumentError("note is longer than 2000 bytes");
  GORANK_ASSIGN_OR_RETURN(registry::Player player,
                          registry_->GetPlayer(player_id));
  if (!caller.ActsFor(player.agency_prefix)) {
    return absl::PermissionDeniedError(
        "an agency recommends only its own players");
  }
  GORANK_ASSIGN_OR_RETURN(registry::Agency agency,
                          registry_->GetAgency(player.agency_prefix));
  if (agency.status == registry::AgencyStatus::kSuspended) {
    return absl::FailedPreconditionError("agency " + agency.prefix +
                                         " is suspended");
  }
  if (player.rank && *player.rank >= grade) {
    return absl::FailedPreconditionError("the player already holds " +
                                         player.rank->ToString());
  }
  GORANK_ASSIGN_OR_RETURN(std::vector<Appraisal> pending,
                          certs_->ListAppraisals(player.agency_prefix, true));
  for (const Appraisal& a : pending) {
    if (a.player_id == player_id) {
      return absl::AlreadyExistsError("appraisal " + std::to_string(a.id) +
                                      " for this player is still pending");
    }
  }
  const int64_t now = clock_->NowSeconds();
  Appraisal a;
  a.player_id = player_id;
  a.grade = grade;
  a.agency_prefix = player.agency_prefix;
  a.note = note;
  a.recommended_by = caller.Describe();
  a.recommended_unix = now;
  GORANK_ASSIGN_OR_RETURN(
      a.id, certs_->InsertAppraisal(
                a, ChangeRecord{now, caller.Describe(), "appraisal.recommend",
                                "player:" + std::to_string(player_id.value), "",
                                AppraisalJson(a)}));
  return a;
}

absl::StatusOr<Appraisal> Certification::DecideAppraisal(
    const auth::Caller& caller, int64_t id, bool approve,
    const std::string& note) {
  if (note.size() > 2000)
    return absl::InvalidArgumentError("note is longer than 2000 bytes");
  GORANK_ASSIGN_OR_RETURN(Appraisal a, certs_->GetAppraisal(id));
  if (a.state != AppraisalState::kPending) {
    return absl::FailedPreconditionError("appraisal " + std::to_string(id) +
                                         " is already decided");
  }
  const int64_t now = clock_->NowSeconds();
  if (!approve) {
    Appraisal after = a;
    after.state = AppraisalState::kRejected;
    after.decision_note = note;
    GORANK_RETURN_IF_ERROR(certs_->RejectAppraisal(
        id, note, now,
        ChangeRecord{now, caller.Describe(), "appraisal.reject",
                     "appraisal:" + std::to_string(id), AppraisalJson(a),
                     AppraisalJson(after)}));
    return after;
  }
  GORANK_ASSIGN_OR_RETURN(registry::Player player,
                          registry_->GetPlayer(a.player_id));
  GORANK_RETURN_IF_ERROR(CheckAppraisalAge(player.birth_date, clock_->Today()));
  IssueRequest r;
  r.player_id = a.player_id;
  r.grade = a.grade;
  r.basis = Basis::kAppraisal;
  r.basis_reference = "appraisal " + std::to_string(id);
  r.agency_prefix =
      NeedsPublicNotice(a.grade) ? registry::kNationalPrefix : a.agency_prefix;
  GORANK_ASSIGN_OR_RETURN(Certificate c, IssueWithPlan(caller, r, id, note));
  a.state = AppraisalState::kApproved;
  a.decided_unix = now;
  a.decision_note = note;
  a.certificate_number = c.number.ToString();
  return a;
}

absl::StatusOr<Page<Appraisal>> Certification::ListAppraisals(
    const auth::Caller& caller, const std::string& agency_prefix,
    bool pending_only, const PageArgs& page) {
  std::string scope = agency_prefix;
  if (caller.role == auth::Role::kAgencyOperator) {
    if (scope.empty()) scope = caller.agency_prefix;
    if (scope != caller.agency_prefix) {
      return absl::PermissionDeniedError(
          "an agency lists only its own appraisals");
    }
  }
  const PageQuery query = PageQuery("ListAppraisals")
                              .With("agency_prefix", scope)
                              .With("pending_only", pending_only ? 1 : 0);
  GORANK_ASSIGN_OR_RETURN(PageRequest request,
                          ReadPage(kAppraisalPage, query, "i", page));
  GORANK_ASSIGN_OR_RETURN(
      std::vector<Appraisal> found,
      certs_->ListAppraisalsAfter(scope, pending_only,
                                  request.after ? request.after->Int(0) : 0,
                                  request.FetchLimit()));
  return CutPage(std::move(found), request, query,
                 [](const Appraisal& a) { return PageKey().Add(a.id); });
}

absl::StatusOr<StockOrder> Certification::OrderStock(const auth::Caller& caller,
                                                     const std::string& prefix,
                                                     int year, int quantity) {
  if (quantity < 1 || quantity > kMaxSerial) {
    return absl::InvalidArgumentError("quantity must be 1..9999");
  }
  if (year < 2000 || year > 2099)
    return absl::InvalidArgumentError("year must be 2000..2099");
  if (!caller.ActsFor(prefix)) {
    return absl::PermissionDeniedError(
        "an agency orders stock only for itself");
  }
  if (prefix == registry::kNationalPrefix) {
    return absl::FailedPreconditionError(
        "the national body is exempt from stock ordering");
  }
  GORANK_ASSIGN_OR_RETURN(registry::Agency agency,
                          registry_->GetAgency(prefix));
  if (!caller.IsNational()) {
    GORANK_RETURN_IF_ERROR(CheckStockWindow(year, clock_->Today()));
    if (agency.status == registry::AgencyStatus::kSuspended) {
      return absl::FailedPreconditionError("agency " + prefix +
                                           " is suspended");
    }
  }
  const int64_t now = clock_->NowSeconds();
  StockOrder order{prefix, year, quantity, now, caller.Describe(), 0, "", 0};
  auto existing = certs_->GetStockOrder(prefix, year);
  const std::string before = existing.ok() ? StockOrderJson(*existing) : "";
  GORANK_RETURN_IF_ERROR(certs_->PutStockOrder(
      order, ChangeRecord{now, caller.Describe(),
                          existing.ok() ? "stock.amend" : "stock.order",
                          "stock:" + prefix + ":" + std::to_string(year),
                          before, StockOrderJson(order)}));
  return certs_->GetStockOrder(prefix, year);
}

absl::StatusOr<StockOrder> Certification::ReleaseStock(
    const auth::Caller& caller, const std::string& prefix, int year) {
  GORANK_ASSIGN_OR_RETURN(StockOrder order,
                          certs_->GetStockOrder(prefix, year));
  if (order.released_unix != 0) {
    return absl::FailedPreconditionError("the " + std::to_string(year) +
                                         " stock of agency " + prefix +
                                         " is already released");
  }
  if (release_precondition_)
    GORANK_RETURN_IF_ERROR(release_precondition_(prefix, year));
  const int64_t now = clock_->NowSeconds();
  StockOrder after = order;
  after.released_unix = now;
  GORANK_RETURN_IF_ERROR(certs_->ReleaseStockOrder(
      prefix, year, now, caller.Describe(),
      ChangeRecord{now, caller.Describe(), "stock.release",
                   "stock:" + prefix + ":" + std::to_string(year),
                   StockOrderJson(order), StockOrderJson(after)}));
  return certs_->GetStockOrder(prefix, year);
}

absl::StatusOr<StockOrder> Certification::GetStock(const auth::Caller& caller,
                                                   const std::string& prefix,
                                                   int year) {
  if (caller.role == auth::Role::kAgencyOperator &&
      prefix != caller.agency_prefix) {
    return absl::PermissionDeniedError("an agency sees only its own stock");
  }
  return certs_->GetStockOrder(prefix, year);
}

}  // namespace gorank::certificates
