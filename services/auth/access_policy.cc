#include "services/auth/access_policy.h"

#include <algorithm>

namespace gorank::auth {
namespace {

constexpr Role kP = Role::kPublic;
constexpr Role kN = Role::kNationalAdmin;
constexpr Role kA = Role::kAgencyOperator;
constexpr Role kU = Role::kAuditor;

std::vector<MethodPolicy> BuildTable() {
  const std::string reg = "/gorank.v1.PlayerRegistry/";
  const std::string agy = "/gorank.v1.AgencyService/";
  const std::string tok = "/gorank.v1.TokenService/";
  const std::string rnk = "/gorank.v1.RankService/";
  const std::string crt = "/gorank.v1.CertificateService/";
  const std::string rul = "/gorank.v1.RulesService/";
  const std::string aud = "/gorank.v1.AuditService/";
  const std::string tnm = "/gorank.v1.TournamentService/";
  const std::string elg = "/gorank.v1.EligibilityService/";
  return {
      {reg + "RegisterPlayer", {kN, kA}},
      {reg + "GetPlayer", {kP, kN, kA, kU}},
      {reg + "UpdatePlayer", {kN, kA}},
      {reg + "SearchPlayers", {kP, kN, kA, kU}},
      {reg + "GetRankHistory", {kP, kN, kA, kU}},
      {reg + "ChangeRank", {kN, kA}},
      {reg + "ImportPlayers", {kN, kA}},
      {agy + "ListAgencies", {kP, kN, kA, kU}},
      {agy + "CreateAgency", {kN}},
      {agy + "SuspendAgency", {kN}},
      {agy + "ReinstateAgency", {kN}},
      {tok + "CreateToken", {kN}},
      {tok + "RevokeToken", {kN}},
      {tok + "ListTokens", {kN, kU}},
      {tok + "WhoAmI", {kP, kN, kA, kU}},
      {rnk + "ParseRank", {kP, kN, kA, kU}},
      {crt + "IssueCertificate", {kN, kA}},
      {crt + "GetCertificate", {kN, kA, kU}},
      {crt + "ListCertificates", {kN, kA, kU}},
      {crt + "RevokeCertificate", {kN, kA}},
      {crt + "LodgeObjection", {kP, kN, kA, kU}},
      {crt + "DecideObjection", {kN}},
      {crt + "ListNotices", {kP, kN, kA, kU}},
      // Objections with their text: the national admin, auditors, and the
      // holder's agency (the domain narrows an operator to its players).
      {crt + "ListObjections", {kN, kA, kU}},
      {crt + "RecommendAppraisal", {kN, kA}},
      {crt + "DecideAppraisal", {kN}},
      {crt + "ListAppraisals", {kN, kA, kU}},
      {crt + "OrderStock", {kN, kA}},
      {crt + "ReleaseStock", {kN}},
      {crt + "GetStock", {kN, kA, kU}},
      {crt + "VerifyCertificate", {kP, kN, kA, kU}},
      {crt + "LookupRank", {kP, kN, kA, kU}},
      {crt + "ExportHolders", {kN, kA, kU}},
      // An operator imports its own agency's certificates (the domain checks).
      {crt + "ImportCertificates", {kN, kA}},
      {rul + "CheckGameRecord", {kP, kN, kA, kU}},
      {rul + "CheckGameRecords", {kP, kN, kA, kU}},
      {rul + "CheckGomokuRecord", {kP, kN, kA, kU}},
      {rul + "CheckXiangqiRecord", {kP, kN, kA, kU}},
      {aud + "GetCheckpoint", {kP, kN, kA, kU}},
      {aud + "GetEntries", {kN, kU}},
      {aud + "GetInclusionProof", {kP, kN, kA, kU}},
      {aud + "GetConsistencyProof", {kP, kN, kA, kU}},
      {aud + "VerifyTables", {kN, kU}},
      {aud + "GetAnnualReport", {kN, kA, kU}},
      {aud + "GetNationalSummary", {kN, kU}},
      {aud + "RecordReview", {kU}},
      {aud + "ListReviews", {kN, kA, kU}},
      {aud + "Backup", {kN, kU}},
      // A statement holds the holder's name digest: not public (the domain
      // narrows an operator to its own agency's certificates, as Get).
      {aud + "GetCertificateStatement", {kN, kA, kU}},
      {aud + "GetRevocationList", {kP, kN, kA, kU}},
      // Events, results and standings are public; changes are the national
      // admin's and the organising agency's (EventDesk checks the agency).
      {tnm + "ListCompetitions", {kP, kN, kA, kU}},
      {tnm + "CreateEvent", {kN, kA}},
      {tnm + "GetEvent", {kP, kN, kA, kU}},
      {tnm + "UpdateEvent", {kN, kA}},
      {tnm + "ListEvents", {kP, kN, kA, kU}},
      {tnm + "GetResults", {kP, kN, kA, kU}},
      {tnm + "SaveResults", {kN, kA}},
      {tnm + "GetStandings", {kP, kN, kA, kU}},
      {tnm + "ImportResults", {kN, kA}},
      {tnm + "ExportResults", {kP, kN, kA, kU}},
      {tnm + "RecordRound", {kN, kA}},
      {tnm + "CloseEvent", {kN, kA}},
      {tnm + "EditResults", {kN, kA}},
      {tnm + "PairRound", {kN, kA}},
      // Athlete grades are public results.
      {elg + "EvaluatePlayer", {kP, kN, kA, kU}},
      {elg + "EvaluateEvent", {kP, kN, kA, kU}},
      {elg + "GetGradeStandard", {kP, kN, kA, kU}},
      {"/gorank.v1.RatingService/GetRating", {kP, kN, kA, kU}},
      {"/gorank.v1.RatingService/GetRatingHistory", {kP, kN, kA, kU}},
      {"/gorank.v1.RatingService/ListRatings", {kP, kN, kA, kU}},
      {"/gorank.v1.RatingService/ListRatingSnapshots", {kP, kN, kA, kU}},
      {"/gorank.v1.RatingService/RecomputeRatings", {kN}},
      {"/gorank.v1.RatingService/ImportRatings", {kN}},
      {"/gorank.v1.RatingService/ListPromotionRules", {kP, kN, kA, kU}},
      {"/gorank.v1.RatingService/ExplainPromotion", {kP, kN, kA, kU}},
      {"/gorank.v1.RatingService/EvaluatePromotions", {kN, kA}},
      {"/gorank.v1.RatingService/ListProposals", {kN, kA, kU}},
      {"/gorank.v1.RatingService/DecidePromotion", {kN, kA}},
  };
}

}  // namespace

const std::vector<MethodPolicy>& AccessTable() {
  static const std::vector<MethodPolicy>* const kTable =
      new std::vector<MethodPolicy>(BuildTable());
  return *kTable;
}

absl::Status CheckAccess(const Caller& caller, const std::string& method) {
  const auto& table = AccessTable();
  auto it =
      std::find_if(table.begin(), table.end(),
                   [&](const MethodPolicy& p) { return p.method == method; });
  if (it == table.end()) {
    return absl::InternalError("no access policy for " + method);
  }
  if (std::find(it->roles.begin(), it->roles.end(), caller.role) !=
      it->roles.end()) {
    return absl::OkStatus();
  }
  if (caller.role == Role::kPublic) {
    return absl::UnauthenticatedError(
        method + " needs a token: send 'authorization: Bearer <token>'");
  }
  return absl::PermissionDeniedError(
      std::string("role ") + RoleName(caller.role) + " may not call " + method);
}

}  // namespace gorank::auth
