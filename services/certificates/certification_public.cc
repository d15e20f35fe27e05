// Certification: public notice and objections, verification, rank lookup.
#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "services/certificates/certificate_json.h"
#include "services/certificates/certificate_rules.h"
#include "services/certificates/certification.h"
#include "services/certificates/public_index.h"
#include "services/common/status_macros.h"

namespace gorank::certificates {
namespace {

std::string_view Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}
std::string Trim(const std::string& s) {
  return std::string(Trim(std::string_view(s)));
}

using Digest = std::array<unsigned char, SHA256_DIGEST_LENGTH>;

Digest NameDigest(std::string_view name) {
  Digest d;
  const std::string_view t = Trim(name);
  SHA256(reinterpret_cast<const unsigned char*>(t.data()), t.size(), d.data());
  return d;
}

// Compares a name with a stored one in time independent of where they differ.
bool SameName(const Digest& given, std::string_view stored) {
  const Digest b = NameDigest(stored);
  return CRYPTO_memcmp(given.data(), b.data(), given.size()) == 0 &&
         !Trim(stored).empty();
}
bool SameName(const std::string& given, const std::string& stored) {
  return SameName(NameDigest(given), stored);
}

// What verification answers for a certificate in `state`.
VerifyOutcome OutcomeOf(CertificateState state) {
  switch (state) {
    case CertificateState::kEffective:
      return VerifyOutcome::kValid;
    case CertificateState::kUnderNotice:
      return VerifyOutcome::kUnderNotice;
    case CertificateState::kRevoked:
      return VerifyOutcome::kRevoked;
  }
  return VerifyOutcome::kNotValid;
}

// Verify from the index: the same work on every path (two slot reads, three
// digests), no database and no lock.
VerifyResult VerifyInIndex(const PublicIndex& index, const CertificateNumber& n,
                           const std::string& holder_name, int64_t now) {
  PublicCertificate cert;
  const bool known = index.FindCertificate(n, &cert);
  PublicHolder holder;
  const bool held =
      index.FindHolder(known ? cert.player_id : registry::PlayerId{0}, &holder);
  const Digest given = NameDigest(holder_name);
  const bool by_name = SameName(given, held ? holder.name : "");
  const bool by_latin = SameName(given, held ? holder.latin_name : "");
  VerifyResult result;
  if (!known || !held || !(by_name || by_latin)) return result;
  result.outcome = OutcomeOf(cert.StateAt(now));
  result.number = n.ToString();
  result.grade = cert.grade;
  result.issue_date = cert.issue_date;
  result.agency_prefix = n.prefix;
  result.agency_name = std::string(index.AgencyName(n.prefix));
  result.masked_holder = MaskName(std::string(holder.name));
  result.notice_until_unix = cert.notice_until_unix;
  return result;
}

}  // namespace

absl::StatusOr<Objection> Certification::LodgeObjection(
    const auth::Caller& caller, const std::string& number,
    const std::string& text, const std::string& contact) {
  GORANK_ASSIGN_OR_RETURN(CertificateNumber n,
                          CertificateNumber::Parse(number));
  if (text.empty() || text.size() > 4000) {
    return absl::InvalidArgumentError("text is required (at most 4000 bytes)");
  }
  if (contact.empty() || contact.size() > 200) {
    return absl::InvalidArgumentError(
        "contact is required (at most 200 bytes)");
  }
  GORANK_RETURN_IF_ERROR(SettleDueNotices());
  // One answer for an unknown number and for a certificate not under notice:
  // the public learns only what the notice list already shows.
  auto found = certs_->GetCertificate(n);
  if (!found.ok() && !absl::IsNotFound(found.status())) return found.status();
  const int64_t now = clock_->NowSeconds();
  if (!found.ok() || found->notice_until_unix == 0 || found->rank_applied ||
      now >= found->notice_until_unix || found->revoked_unix != 0) {
    return absl::NotFoundError(
        "no certificate " + n.ToString() +
        " is under public notice; objections are lodged "
        "against the certificates of the notice list, during "
        "their notice period");
  }
  Objection o;
  o.number = n;
  o.text = text;
  o.contact = contact;
  o.lodged_unix = now;
  GORANK_ASSIGN_OR_RETURN(
      o.id,
      certs_->InsertObjection(
          o, ChangeRecord{now, caller.Describe(), "certificate.objection",
                          "certificate:" + number, "", ObjectionJson(o)}));
  return o;
}

absl::StatusOr<Objection> Certification::DecideObjection(
    const auth::Caller& caller, int64_t id, bool uphold,
    const std::string& note) {
  if (note.empty() || note.size() > 2000) {
    return absl::InvalidArgumentError(
        "note (the reasons of the decision) is required");
  }
  GORANK_ASSIGN_OR_RETURN(Objection o, certs_->GetObjection(id));
  if (o.state != ObjectionState::kOpen) {
    return absl::FailedPreconditionError("objection " + std::to_string(id) +
                                         " is already decided");
  }
  const std::string before = ObjectionJson(o);
  const int64_t now = clock_->NowSeconds();
  o.state = uphold ? ObjectionState::kUpheld : ObjectionState::kDismissed;
  o.decided_unix = now;
  o.decision_note = note;
  GORANK_RETURN_IF_ERROR(certs_->DecideObjection(
      id, o.state, note, now,
      ChangeRecord{now, caller.Describe(),
                   uphold ? "certificate.objection_upheld"
                          : "certificate.objection_dismissed",
                   "certificate:" + o.number.ToString(), before,
                   ObjectionJson(o)}));
  NoteNoticeChange(0);  // a certificate held by this objection may be due
  return o;
}

absl::StatusOr<Page<NoticeEntry>> Certification::ListNotices(
    const auth::Caller& caller, const PageArgs& page) {
  const PageQuery query("ListNotices");
  GORANK_ASSIGN_OR_RETURN(PageRequest request,
                          ReadPage(kNoticePage, query, "s", page));
  GORANK_RETURN_IF_ERROR(SettleDueNotices());
  CertificateFilter f;
  f.only_pending_notice = true;
  f.after_number = request.after ? request.after->Text(0) : "";
  f.limit = request.FetchLimit();
  GORANK_ASSIGN_OR_RETURN(std::vector<Certificate> found,
                          certs_->ListCertificates(f));
  Page<Certificate> pending = CutPage(
      std::move(found), request, query,
      [](const Certificate& c) { return PageKey().Add(c.number.ToString()); });
  Page<NoticeEntry> out;
  out.next_page_token = std::move(pending.next_page_token);
  for (Certificate& c : pending.rows) {
    GORANK_ASSIGN_OR_RETURN(registry::Player p,
                            registry_->GetPlayer(c.player_id));
    GORANK_ASSIGN_OR_RETURN(registry::Agency a,
                            registry_->GetAgency(c.number.prefix));
    GORANK_ASSIGN_OR_RETURN(registry::Agency home,
                            registry_->GetAgency(p.agency_prefix));
    GORANK_ASSIGN_OR_RETURN(std::vector<Objection> objections,
                            certs_->ListObjections(c.number));
    int open = 0;
    for (const auto& o : objections) open += o.state == ObjectionState::kOpen;
    if (caller.role == auth::Role::kPublic) {
      // Who issued it (token ids) and the issuer's request ids are internal.
      c.issued_by.clear();
      c.request_id.clear();
      c.request_scope.clear();
    }
    out.rows.push_back(NoticeEntry{std::move(c), p.name, a.name, open,
                                   home.prefix, home.name});
  }
  return out;
}

absl::StatusOr<Page<Objection>> Certification::ListObjections(
    const auth::Caller& caller, std::optional<ObjectionState> state,
    const std::string& number, const PageArgs& page) {
  ObjectionFilter f;
  f.state = state;
  if (!number.empty()) {
    GORANK_ASSIGN_OR_RETURN(f.number, CertificateNumber::Parse(number));
  }
  if (caller.IsNational() || caller.IsAuditor()) {
    // every objection
  } else if (caller.role == auth::Role::kAgencyOperator) {
    f.holder_agency = caller.agency_prefix;
  } else {
    return absl::PermissionDeniedError(
        "objections are read by the national admin, auditors and the holder's "
        "agency");
  }
  // The holder's agency is part of the query: an operator's token does not
  // page another agency's list.
  const PageQuery query =
      PageQuery("ListObjections")
          .With("state", state ? static_cast<int64_t>(*state) : -1)
          .With("number", f.number ? f.number->ToString() : "")
          .With("holder_agency", f.holder_agency);
  GORANK_ASSIGN_OR_RETURN(PageRequest request,
                          ReadPage(kObjectionPage, query, "i", page));
  f.after_id = request.after ? request.after->Int(0) : 0;
  f.limit = request.FetchLimit();
  GORANK_ASSIGN_OR_RETURN(std::vector<Objection> found,
                          certs_->FindObjections(f));
  return CutPage(std::move(found), request, query,
                 [](const Objection& o) { return PageKey().Add(o.id); });
}

absl::StatusOr<VerifyResult> Certification::Verify(
    const std::string& number, const std::string& holder_name) {
  GORANK_ASSIGN_OR_RETURN(CertificateNumber n,
                          CertificateNumber::Parse(number));
  if (holder_name.size() > 200)
    return absl::InvalidArgumentError("holder name is too long");
  // The answer follows the clock, not the settled ranks: no settle pass.
  if (public_index_ != nullptr && public_index_->usable())
    return VerifyInIndex(*public_index_, n, holder_name, clock_->NowSeconds());
  GORANK_RETURN_IF_ERROR(SettleDueNotices());
  // The same work on every path: one certificate read, one player read, two
  // digest comparisons.
  auto cert = certs_->GetCertificate(n);
  if (!cert.ok() && !absl::IsNotFound(cert.status())) return cert.status();
  const registry::PlayerId holder_id =
      cert.ok() ? cert->player_id : registry::PlayerId{0};
  auto player = registry_->GetPlayer(holder_id);
  if (!player.ok() && !absl::IsNotFound(player.status()))
    return player.status();
  const std::string stored = player.ok() ? player->name : std::string();
  const std::string stored_latin =
      player.ok() ? player->latin_name : std::string();
  const bool by_name = SameName(holder_name, stored);
  const bool by_latin = SameName(holder_name, stored_latin);
  VerifyResult result;
  if (!cert.ok() || !player.ok() || !(by_name || by_latin)) return result;
  auto agency = registry_->GetAgency(n.prefix);
  result.outcome = OutcomeOf(StateAt(*cert, clock_->NowSeconds()));
  result.number = n.ToString();
  result.grade = cert->grade;
  result.issue_date = cert->issue_date;
  result.agency_prefix = n.prefix;
  result.agency_name = agency.ok() ? agency->name : "";
  result.masked_holder = MaskName(player->name);
  result.notice_until_unix = cert->notice_until_unix;
  return result;
}

absl::StatusOr<std::vector<PublicRankEntry>> Certification::LookupRank(
    const auth::Caller& caller, const std::string& name) {
  const std::string wanted = Trim(name);
  if (wanted.empty() || wanted.size() > 120) {
    return absl::InvalidArgumentError("name is required (at most 120 bytes)");
  }
  GORANK_RETURN_IF_ERROR(SettleDueNotices());
  if (public_index_ != nullptr && public_index_->usable())
    return LookupInIndex(caller, wanted);
  registry::PlayerQuery q;
  q.name_prefix = wanted;
  q.exact_name = true;
  q.limit = 21;
  GORANK_ASSIGN_OR_RETURN(std::vector<registry::Player> found,
                          registry_->SearchPlayers(q));
  std::vector<PublicRankEntry> out;
  const int64_t now = clock_->NowSeconds();
  for (const registry::Player& p : found) {
    if (p.name != wanted && p.latin_name != wanted) continue;
    if (out.size() == 20) break;
    PublicRankEntry e{
        p.name, p.latin_name,  p.agency_prefix,
        "",     p.rank,        {},
        {},     p.gomoku_rank, caller.role == auth::Role::kPublic};
    auto agency = registry_->GetAgency(p.agency_prefix);
    if (agency.ok()) e.region = agency->name;
    CertificateFilter f;
    f.player_id = p.id;
    GORANK_ASSIGN_OR_RETURN(std::vector<Certificate> certs,
                            certs_->ListCertificates(f));
    for (Certificate& c : certs) {
      const CertificateState s = StateAt(c, now);
      if (s == CertificateState::kEffective)
        e.effective.push_back(std::move(c));
      else if (s == CertificateState::kUnderNotice)
        e.under_notice.push_back(std::move(c));
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<PublicRankEntry> Certification::LookupInIndex(
    const auth::Caller& caller, const std::string& wanted) const {
  std::vector<PublicRankEntry> out;
  const int64_t now = clock_->NowSeconds();
  for (const PublicHolder& p : public_index_->FindByName(wanted, 20)) {
    PublicRankEntry e{std::string(p.name),
                      std::string(p.latin_name),
                      std::string(p.agency_prefix),
                      std::string(public_index_->AgencyName(p.agency_prefix)),
                      p.rank,
                      {},
                      {},
                      p.gomoku_rank,
                      caller.role == auth::Role::kPublic};
    for (const PublicCertificate& c : public_index_->CertificatesOf(p.id)) {
      const CertificateState s = c.StateAt(now);
      if (s == CertificateState::kEffective)
        e.effective.push_back(c.ToCertificate());
      else if (s == CertificateState::kUnderNotice)
        e.under_notice.push_back(c.ToCertificate());
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace gorank::certificates
