#include "services/registry/player_registry.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "nlohmann/json.hpp"
#include "services/common/paging.h"
#include "services/common/status_macros.h"
#include "services/registry/gomoku_rank.h"
#include "services/registry/resident_id.h"

namespace gorank::registry {
namespace {

constexpr PageSpec kSearchPage{50, 200};
constexpr size_t kMaxNameBytes = 120;

// Shorter names for the checks shared with the import.
absl::Status ValidateName(const std::string& field, const std::string& name,
                          bool required) {
  return ValidatePlayerName(field, name, required);
}
bool IsPrefix(const std::string& p) { return IsAgencyPrefix(p); }

}  // namespace

absl::Status ValidatePlayerName(const std::string& field,
                                const std::string& name, bool required) {
  if (required && name.empty()) {
    return absl::InvalidArgumentError(field + " is required");
  }
  if (name.size() > kMaxNameBytes) {
    return absl::InvalidArgumentError(field + " is longer than " +
                                      std::to_string(kMaxNameBytes) + " bytes");
  }
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError(field +
                                        " contains a control character");
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateExternalId(const std::string& id) {
  if (id.size() > kMaxExternalIdBytes) {
    return absl::InvalidArgumentError("external_id is longer than " +
                                      std::to_string(kMaxExternalIdBytes) +
                                      " bytes");
  }
  for (unsigned char c : id) {
    if (c < 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError(
          "external_id contains a control character");
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateBirthDate(const Date& d, const Date& today) {
  if (!d.IsValid() || d.year < 1900 || d > today) {
    return absl::InvalidArgumentError(
        "birth_date " + d.ToString() +
        " must be a real date between 1900-01-01 and today");
  }
  return absl::OkStatus();
}

bool IsAgencyPrefix(const std::string& p) {
  return p.size() == 3 && std::isdigit(static_cast<unsigned char>(p[0])) &&
         std::isdigit(static_cast<unsigned char>(p[1])) &&
         std::isdigit(static_cast<unsigned char>(p[2]));
}

bool WithinAgencyAuthority(const Rank& r) {
  if (r.IsGomoku()) return r <= *Rank::Parse("3d", Discipline::kGomoku);
  return r.IsAmateur() && r <= Rank::FromString("3d");
}

namespace {

nlohmann::json RankJson(const std::optional<Rank>& r) {
  return r ? nlohmann::json(r->ToString()) : nlohmann::json(nullptr);
}

std::string EntryJson(const RankHistoryEntry& e) {
  nlohmann::json j{
      {"player_id", e.player_id.value}, {"from", RankJson(e.from_rank)},
      {"to", RankJson(e.to_rank)},      {"date", e.effective_date.ToString()},
      {"reason", ReasonName(e.reason)}, {"basis", e.basis}};
  // Go entries keep the shape they had before Gomoku existed.
  if (e.discipline != Discipline::kGo)
    j["discipline"] = DisciplineName(e.discipline);
  return j.dump();
}

std::string AgencyJson(const Agency& a) {
  return nlohmann::json{
      {"prefix", a.prefix},
      {"name", a.name},
      {"name_en", a.name_en},
      {"status", a.status == AgencyStatus::kActive ? "active" : "suspended"},
      {"status_reason", a.status_reason}}
      .dump();
}

// "agency:110/token:7" -> "agency:110".
std::string WithoutToken(const std::string& actor) {
  const size_t t = actor.find("/token:");
  return t == std::string::npos ? actor : actor.substr(0, t);
}

constexpr int kPublicSearchLimit = 20;

}  // namespace

std::string MaskCertificateNumbers(const std::string& text) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
      ++j;
    if (j == i) {
      out += text[i++];
      continue;
    }
    out += j - i == 9 ? text.substr(i, 5) + "****" : text.substr(i, j - i);
    i = j;
  }
  return out;
}

const char* ReasonName(RankChangeReason reason) {
  switch (reason) {
    case RankChangeReason::kRegistration:
      return "registration";
    case RankChangeReason::kCertificate:
      return "certificate";
    case RankChangeReason::kAppraisal:
      return "appraisal";
    case RankChangeReason::kPromotion:
      return "promotion";
    case RankChangeReason::kTournamentAward:
      return "tournament_award";
    case RankChangeReason::kCorrection:
      return "correction";
    case RankChangeReason::kRevocation:
      return "revocation";
    case RankChangeReason::kImport:
      return "import";
  }
  return "unknown";
}

std::string PlayerJson(const Player& p) {
  nlohmann::json j{{"id", p.id.value},
                   {"name", p.name},
                   {"latin_name", p.latin_name},
                   {"gender", static_cast<int>(p.gender)},
                   {"birth_date", p.birth_date ? p.birth_date->ToString() : ""},
                   {"agency_prefix", p.agency_prefix},
                   {"resident_id_recorded", !p.resident_id.empty()},
                   {"rank", RankJson(p.rank)}};
  if (p.gomoku_rank) j["gomoku_rank"] = p.gomoku_rank->ToString();
  // Players without one keep the shape they had before external ids.
  if (!p.external_id.empty()) j["external_id"] = p.external_id;
  return j.dump();
}

Player PlayerRegistry::Redact(const auth::Caller& caller, Player player) {
  if (!caller.ActsFor(player.agency_prefix) && !player.resident_id.empty()) {
    player.resident_id.clear();
    player.resident_id_hidden = true;
  }
  if (!caller.ActsFor(player.agency_prefix)) player.external_id.clear();
  if (caller.role == auth::Role::kPublic) player.birth_date.reset();
  return player;
}

absl::Status PlayerRegistry::CheckWriteScope(const auth::Caller& caller,
                                             const std::string& prefix) {
  if (!caller.ActsFor(prefix)) {
    return absl::PermissionDeniedError(
        "an operator of agency " + caller.agency_prefix +
        " may only act on players of its own agency (this one is " + prefix +
        ")");
  }
  GORANK_ASSIGN_OR_RETURN(Agency agency, repo_->GetAgency(prefix));
  if (!caller.IsNational() && agency.status == AgencyStatus::kSuspended) {
    return absl::FailedPreconditionError(
        "agency " + prefix + " is suspended: " + agency.status_reason);
  }
  return absl::OkStatus();
}

absl::Status PlayerRegistry::ValidateDraft(PlayerDraft& d) {
  GORANK_RETURN_IF_ERROR(ValidateName("name", d.name, true));
  GORANK_RETURN_IF_ERROR(ValidateName("latin_name", d.latin_name, false));
  GORANK_RETURN_IF_ERROR(ValidateExternalId(d.external_id));
  if (d.birth_date) {
    GORANK_RETURN_IF_ERROR(ValidateBirthDate(*d.birth_date, clock_->Today()));
  }
  if (!d.resident_id.empty()) {
    GORANK_ASSIGN_OR_RETURN(d.resident_id, NormalizeResidentId(d.resident_id));
    const Date from_id = ResidentIdBirthDate(d.resident_id);
    if (d.birth_date && *d.birth_date != from_id) {
      return absl::InvalidArgumentError(
          "birth_date does not match the birth date in the resident ID");
    }
    d.birth_date = from_id;
  }
  if (!IsPrefix(d.agency_prefix)) {
    return absl::InvalidArgumentError(
        "agency_prefix must be three digits, e.g. 110");
  }
  return absl::OkStatus();
}

absl::StatusOr<Player> PlayerRegistry::Register(const auth::Caller& caller,
                                                const PlayerDraft& input) {
  PlayerDraft d = input;
  GORANK_RETURN_IF_ERROR(ValidateDraft(d));
  GORANK_RETURN_IF_ERROR(CheckWriteScope(caller, d.agency_prefix));
  if (d.initial_rank && d.initial_rank->IsGomoku()) {
    return absl::InvalidArgumentError(
        "initial_rank is the Go rank; a Gomoku rank is set after registration "
        "(a Gomoku certificate, or ChangeRank with discipline GOMOKU)");
  }
  if (d.initial_rank && !caller.IsNational() &&
      !WithinAgencyAuthority(*d.initial_rank)) {
    return absl::PermissionDeniedError("an agency may record ranks up to 3d; " +
                                       d.initial_rank->ToString() +
                                       " needs the national body");
  }
  const int64_t now = clock_->NowSeconds();
  Player p;
  p.name = d.name;
  p.latin_name = d.latin_name;
  p.gender = d.gender;
  p.birth_date = d.birth_date;
  p.agency_prefix = d.agency_prefix;
  p.resident_id = d.resident_id;
  p.external_id = d.external_id;
  p.rank = d.initial_rank;
  p.created_unix = p.updated_unix = now;
  std::optional<RankHistoryEntry> first;
  if (d.initial_rank) {
    first = RankHistoryEntry{
        0,
        {},
        std::nullopt,
        d.initial_rank,
        clock_->Today(),
        RankChangeReason::kRegistration,
        d.initial_rank_basis.empty() ? "registration" : d.initial_rank_basis,
        caller.Describe(),
        now};
  }
  ChangeRecord change{now, caller.Describe(), "player.register", "",
                      "",  PlayerJson(p)};
  GORANK_ASSIGN_OR_RETURN(p.id, repo_->InsertPlayer(p, first, change));
  return Redact(caller, p);
}

absl::StatusOr<Player> PlayerRegistry::Get(const auth::Caller& caller,
                                           PlayerId id) {
  GORANK_RETURN_IF_ERROR(BeforeRead());
  GORANK_ASSIGN_OR_RETURN(Player p, repo_->GetPlayer(id));
  return Redact(caller, std::move(p));
}

absl::StatusOr<Player> PlayerRegistry::Update(const auth::Caller& caller,
                                              PlayerId id,
                                              const PlayerPatch& patch) {
  GORANK_ASSIGN_OR_RETURN(Player p, repo_->GetPlayer(id));
  GORANK_RETURN_IF_ERROR(CheckWriteScope(caller, p.agency_prefix));
  const std::string before = PlayerJson(p);
  PlayerDraft d{patch.name.value_or(p.name),
                patch.latin_name.value_or(p.latin_name),
                patch.gender.value_or(p.gender),
                patch.birth_date ? patch.birth_date : p.birth_date,
                patch.agency_prefix.value_or(p.agency_prefix),
                patch.resident_id.value_or(p.resident_id),
                std::nullopt,
                "",
                p.external_id};
  if (patch.birth_date && !patch.resident_id && !p.resident_id.empty()) {
    // A new birth date must still agree with the recorded ID number.
    d.resident_id = p.resident_id;
  }
  GORANK_RETURN_IF_ERROR(ValidateDraft(d));
  if (d.agency_prefix != p.agency_prefix) {
    if (!caller.IsNational()) {
      return absl::PermissionDeniedError(
          "only the national body may transfer a player to another agency");
    }
    GORANK_RETURN_IF_ERROR(repo_->GetAgency(d.agency_prefix).status());
  }
  p.name = d.name;
  p.latin_name = d.latin_name;
  p.gender = d.gender;
  p.birth_date = d.birth_date;
  p.agency_prefix = d.agency_prefix;
  p.resident_id = d.resident_id;
  p.updated_unix = clock_->NowSeconds();
  ChangeRecord change{p.updated_unix,  caller.Describe(),
                      "player.update", "player:" + std::to_string(id.value),
                      before,          PlayerJson(p)};
  GORANK_RETURN_IF_ERROR(repo_->UpdatePlayer(p, change));
  return Redact(caller, p);
}

absl::StatusOr<PlayerPage> PlayerRegistry::Search(const auth::Caller& caller,
                                                  const SearchRequest& r) {
  if (!r.agency_prefix.empty() && !IsPrefix(r.agency_prefix)) {
    return absl::InvalidArgumentError("agency_prefix must be three digits");
  }
  if ((r.min_rank && r.min_rank->IsGomoku()) ||
      (r.max_rank && r.max_rank->IsGomoku())) {
    return absl::InvalidArgumentError("min_rank and max_rank are Go ranks");
  }
  if (r.min_rank && r.max_rank && *r.min_rank > *r.max_rank) {
    return absl::InvalidArgumentError("min_rank is above max_rank");
  }
  GORANK_RETURN_IF_ERROR(ValidateName("name_prefix", r.name_prefix, false));
  const bool lookup_only = caller.role == auth::Role::kPublic;
  if (lookup_only) {
    // The public looks a person up; it does not page through the registry.
    if (r.name_prefix.empty()) {
      return absl::InvalidArgumentError(
          "the public searches by a whole name or Latin name (name_prefix); "
          "listing players needs a token");
    }
    if (!r.page_token.empty()) {
      return absl::InvalidArgumentError("the public gets one page of at most " +
                                        std::to_string(kPublicSearchLimit) +
                                        " players; page_token needs a token");
    }
  }
  PlayerQuery q;
  q.name_prefix = r.name_prefix;
  q.exact_name = lookup_only;
  // A Latin name (pinyin among them) is looked up in any case, with or
  // without its spaces and hyphens; only stored Latin names match (no
  // transliteration of Chinese names).
  if (lookup_only) q.latin_key = LatinNameKey(r.name_prefix);
  q.agency_prefix = r.agency_prefix;
  if (r.min_rank) q.min_ordinal = r.min_rank->Ordinal();
  if (r.max_rank) q.max_ordinal = r.max_rank->Ordinal();
  // By id; the token is bound to every filter.
  const PageQuery query = PageQuery("SearchPlayers")
                              .With("name_prefix", r.name_prefix)
                              .With("agency_prefix", r.agency_prefix)
                              .With("min", q.min_ordinal.value_or(-1))
                              .With("max", q.max_ordinal.value_or(-1));
  GORANK_ASSIGN_OR_RETURN(
      PageRequest request,
      ReadPage(kSearchPage, query, "i", r.page_size, r.page_token));
  if (request.after) q.after_id = request.after->Int(0);
  GORANK_RETURN_IF_ERROR(BeforeRead());
  if (lookup_only) {
    request.size = std::min(request.size, kPublicSearchLimit);
  }
  q.limit = request.FetchLimit();
  GORANK_ASSIGN_OR_RETURN(std::vector<Player> found, repo_->SearchPlayers(q));
  Page<Player> cut =
      CutPage(std::move(found), request, query,
              [](const Player& p) { return PageKey().Add(p.id.value); });
  PlayerPage page;
  // The public gets one page: no token to a next one.
  if (!lookup_only) page.next_page_token = std::move(cut.next_page_token);
  for (Player& p : cut.rows)
    page.players.push_back(Redact(caller, std::move(p)));
  return page;
}

absl::StatusOr<std::vector<RankHistoryEntry>> PlayerRegistry::History(
    const auth::Caller& caller, PlayerId id) {
  GORANK_RETURN_IF_ERROR(BeforeRead());
  GORANK_ASSIGN_OR_RETURN(std::vector<RankHistoryEntry> entries,
                          repo_->ListRankHistory(id));
  if (caller.role == auth::Role::kPublic) {
    for (RankHistoryEntry& e : entries) {
      e.basis = MaskCertificateNumbers(e.basis);
      e.actor = WithoutToken(e.actor);
    }
  }
  return entries;
}

absl::StatusOr<std::pair<Player, RankHistoryEntry>> PlayerRegistry::ChangeRank(
    const auth::Caller& caller, PlayerId id, const Rank& new_rank,
    RankChangeReason reason, const std::string& basis,
    std::optional<Date> effective_date, const AwardBasis& award) {
  if (reason != RankChangeReason::kCorrection &&
      reason != RankChangeReason::kTournamentAward) {
    return absl::InvalidArgumentError(
        "reason must be CORRECTION or TOURNAMENT_AWARD; certificates, "
        "appraisals and promotions have their own calls");
  }
  GORANK_RETURN_IF_ERROR(ValidateName("basis", basis, true));
  const bool award_named = award.event_id != 0 || !award.certificate.empty();
  if (reason == RankChangeReason::kTournamentAward &&
      (award.event_id != 0) == !award.certificate.empty()) {
    return absl::InvalidArgumentError(
        "an award must name exactly one basis: basis_event_id (a closed event "
        "the "
        "player played in) or basis_certificate (a certificate the player "
        "holds)");
  }
  if (reason == RankChangeReason::kCorrection && award_named) {
    return absl::InvalidArgumentError(
        "basis_event_id and basis_certificate name an award's basis; a "
        "correction "
        "states its reason in basis");
  }
  if (award.event_id < 0) {
    return absl::InvalidArgumentError("basis_event_id must be positive");
  }
  if (effective_date &&
      (!effective_date->IsValid() || *effective_date > clock_->Today())) {
    return absl::InvalidArgumentError(
        "effective_date must be a date not in the future");
  }
  const Discipline d = new_rank.discipline();
  const std::string what = d == Discipline::kGomoku ? "Gomoku " : "";
  if (new_rank.IsGomokuDan() &&
      new_rank.level() > GomokuRank::kInitialHighestDan) {
    return absl::FailedPreconditionError(
        "rule: the highest Gomoku dan awarded for now is 6d (SPEC section "
        "7); " +
        new_rank.ToString() + " is on the ladder but not awarded yet");
  }
  GORANK_ASSIGN_OR_RETURN(Player p, repo_->GetPlayer(id));
  GORANK_RETURN_IF_ERROR(CheckWriteScope(caller, p.agency_prefix));
  const std::optional<Rank>& held = p.RankIn(d);
  if (!caller.IsNational() && !WithinAgencyAuthority(new_rank)) {
    return absl::PermissionDeniedError(
        "an agency may grant " + what + "ranks up to 3d; " + what +
        new_rank.ToString() + " needs the national body");
  }
  if (!caller.IsNational() && held && !WithinAgencyAuthority(*held)) {
    return absl::PermissionDeniedError("the player holds " + what +
                                       held->ToString() +
                                       ", above an agency's authority (3d); "
                                       "only the national body may change it");
  }
  if (held == new_rank) {
    return absl::FailedPreconditionError("player already holds " + what +
                                         new_rank.ToString());
  }
  std::string recorded_basis = basis;
  if (reason == RankChangeReason::kTournamentAward) {
    if (!award_basis_check_) {
      return absl::FailedPreconditionError(
          "this server cannot check award bases");
    }
    GORANK_ASSIGN_OR_RETURN(std::string named, award_basis_check_(p, award));
    recorded_basis = named + ": " + basis;
  }
  const int64_t now = clock_->NowSeconds();
  RankHistoryEntry e{0,
                     id,
                     held,
                     new_rank,
                     effective_date.value_or(clock_->Today()),
                     reason,
                     recorded_basis,
                     caller.Describe(),
                     now,
                     d};
  ChangeRecord change{now,
                      caller.Describe(),
                      "player.rank_change",
                      "player:" + std::to_string(id.value),
                      PlayerJson(p),
                      EntryJson(e)};
  GORANK_ASSIGN_OR_RETURN(e, repo_->ApplyRankChange(e, change));
  p.RankIn(d) = new_rank;
  return std::make_pair(Redact(caller, p), e);
}

absl::StatusOr<std::vector<Agency>> PlayerRegistry::ListAgencies() {
  return repo_->ListAgencies();
}

absl::StatusOr<Agency> PlayerRegistry::CreateAgency(const auth::Caller& caller,
                                                    const Agency& input) {
  if (!IsPrefix(input.prefix) || input.prefix == kNationalPrefix) {
    return absl::InvalidArgumentError(
        "prefix must be three digits other than 000, e.g. 110");
  }
  GORANK_RETURN_IF_ERROR(ValidateName("name", input.name, true));
  GORANK_RETURN_IF_ERROR(ValidateName("name_en", input.name_en, false));
  Agency a = input;
  a.level = AgencyLevel::kFirstLevel;
  a.status = AgencyStatus::kActive;
  a.status_reason.clear();
  ChangeRecord change{clock_->NowSeconds(),
                      caller.Describe(),
                      "agency.create",
                      "agency:" + a.prefix,
                      "",
                      AgencyJson(a)};
  GORANK_RETURN_IF_ERROR(repo_->InsertAgency(a, change));
  return a;
}

absl::StatusOr<Agency> PlayerRegistry::SetAgencyStatus(
    const auth::Caller& caller, const std::string& prefix, AgencyStatus status,
    const std::string& reason) {
  if (!IsPrefix(prefix)) {
    return absl::InvalidArgumentError("prefix must be three digits");
  }
  GORANK_RETURN_IF_ERROR(
      ValidateName("reason", reason, status == AgencyStatus::kSuspended));
  GORANK_ASSIGN_OR_RETURN(Agency a, repo_->GetAgency(prefix));
  if (a.level == AgencyLevel::kNational) {
    return absl::FailedPreconditionError(
        "the national body cannot be suspended");
  }
  if (a.status == status) {
    return absl::FailedPreconditionError(
        "agency " + prefix + " is already " +
        (status == AgencyStatus::kActive ? "active" : "suspended"));
  }
  const std::string before = AgencyJson(a);
  a.status = status;
  a.status_reason = reason;
  ChangeRecord change{
      clock_->NowSeconds(),
      caller.Describe(),
      status == AgencyStatus::kActive ? "agency.reinstate" : "agency.suspend",
      "agency:" + prefix,
      before,
      AgencyJson(a)};
  GORANK_RETURN_IF_ERROR(
      repo_->SetAgencyStatus(prefix, status, reason, change));
  return a;
}

}  // namespace gorank::registry
