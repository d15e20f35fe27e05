// Value types of rank certificates (SPEC section 3): the nine-digit number
// PPPYYSSSS, the certificate with its basis and life cycle, objections
// lodged during public notice, appraisal recommendations and stock orders.
#ifndef GORANK_SERVICES_CERTIFICATES_CERTIFICATE_H_
#define GORANK_SERVICES_CERTIFICATES_CERTIFICATE_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "services/common/date.h"
#include "services/registry/player.h"
#include "services/registry/rank.h"

namespace gorank::certificates {

inline constexpr int kMaxSerial = 9999;

// PPP YY SSSS. Value type.
struct CertificateNumber {
  std::string prefix;  // three digits
  int yy = 0;          // 0..99
  int serial = 0;      // 1..9999

  auto operator<=>(const CertificateNumber&) const = default;
  // "610140001".
  std::string ToString() const;
  // Accepts nine digits, also with spaces or dashes between the groups
  // ("610 14 0001"). INVALID_ARGUMENT otherwise (serial 0000 included).
  static absl::StatusOr<CertificateNumber> Parse(const std::string& text);
};

enum class Basis {
  kTournament = 1,  // a tournament result (reference: event and place)
  kAppraisal = 2,   // 鉴定, approved by the national body
  kRatingPromotion = 3,
  kHonoraryAward = 4,  // 8d honorary
};
const char* BasisName(Basis b);

enum class CertificateState { kUnderNotice = 1, kEffective = 2, kRevoked = 3 };
const char* StateName(CertificateState s);

// A Go or a Gomoku certificate: the grade's ladder says which
// (grade.discipline()); both take their numbers from one counter.
struct Certificate {
  CertificateNumber number;
  int year = 0;  // four-digit year of issue (Asia/Shanghai)
  registry::PlayerId player_id;
  registry::Rank grade = registry::Rank::FromString("1k");
  Date issue_date;
  Basis basis = Basis::kTournament;
  std::string basis_reference;
  std::string issued_by;  // actor
  int64_t issued_unix = 0;
  // End of public notice (4d..7d); 0 when the grade needs none.
  int64_t notice_until_unix = 0;
  // True once the certificate's grade was applied to the player's rank (or
  // the holder already ranked at least as high when it became effective).
  bool rank_applied = false;
  std::optional<registry::Rank> rank_before;  // the player's rank when applied
  int64_t revoked_unix = 0;
  std::string revoke_reason;
  std::string correction_reason;  // set when issued below the current rank
  // The idempotency key and whose it is: "000" for the national admin, else
  // the issuing operator's agency. Keys of different scopes never meet.
  std::string request_id;
  std::string request_scope;
  std::string request_hash;
  bool has_open_objection = false;  // filled by the repository on reads
  // Brought in by ImportCertificates under its original number (filled by
  // the repository on reads, from imported_certificates).
  bool imported = false;
};

enum class ObjectionState { kOpen = 1, kUpheld = 2, kDismissed = 3 };

struct Objection {
  int64_t id = 0;
  CertificateNumber number;
  std::string text;
  std::string contact;
  int64_t lodged_unix = 0;
  ObjectionState state = ObjectionState::kOpen;
  int64_t decided_unix = 0;
  std::string decision_note;
  // Filled by FindObjections: the certificate's grade, its holder and the
  // holder's agency.
  std::optional<registry::Rank> grade;
  std::string holder_name;
  std::string holder_agency_prefix;
};

enum class AppraisalState { kPending = 1, kApproved = 2, kRejected = 3 };

struct Appraisal {
  int64_t id = 0;
  registry::PlayerId player_id;
  registry::Rank grade = registry::Rank::FromString("1d");
  std::string agency_prefix;  // the recommending agency
  std::string note;
  std::string recommended_by;
  int64_t recommended_unix = 0;
  AppraisalState state = AppraisalState::kPending;
  int64_t decided_unix = 0;
  std::string decision_note;
  std::string certificate_number;  // when approved
};

struct StockOrder {
  std::string agency_prefix;
  int year = 0;  // the year the stock is for
  int quantity = 0;
  int64_t ordered_unix = 0;
  std::string ordered_by;
  int64_t released_unix = 0;  // 0 until released
  std::string released_by;
  int used = 0;  // certificates issued that year (filled on reads)
};

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_CERTIFICATE_H_
