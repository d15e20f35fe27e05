// Certification::ImportCertificates: historic certificates under their
// original numbers. Every row is checked (fields, authority, holder, number)
// against one snapshot of the registry; then either nothing is stored or
// every good row is, in one transaction with one audit entry.
//
// Readings taken (README "cert import"):
// - holder: an 18-character resident ID; `id:N` a player id; `PPP:X` the
//   external id X of agency PPP (player_external_ids); anything else is a
//   player id (when all digits) or an external id of the issuing agency
//   (of any agency for the national body's certificates). When these name
//   different players the row is refused as ambiguous.
// - an operator sees only its own agency's players: a holder elsewhere is
//   refused exactly like an unknown one.
// - the public notice runs from the issue date (NoticeUntil); an effective
//   certificate above the holder's rank raises it (reason certificate, basis
//   naming the certificate and the file), one step per certificate in date
//   order; nothing lowers a rank. Certificates still under notice raise it
//   when their notice ends, as issued ones do.
// - the file has no basis column: imported certificates record the basis
//   tournament (8d: honorary award) with the reference "imported from FILE,
//   line N"; Certificate::imported tells them apart.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "nlohmann/json.hpp"
#include "services/certificates/certificate_rules.h"
#include "services/certificates/certification.h"
#include "services/common/status_macros.h"
#include "services/registry/resident_id.h"

namespace gorank::certificates {

using registry::Player;
using registry::PlayerId;
using registry::Rank;

namespace {

constexpr int kOldestImportYear = 1950;

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

bool AllDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(),
                                   [](char c) { return c >= '0' && c <= '9'; });
}

bool LooksLikeResidentId(const std::string& s) {
  return s.size() == 18 && AllDigits(s.substr(0, 17)) &&
         ((s[17] >= '0' && s[17] <= '9') || s[17] == 'X' || s[17] == 'x');
}

// What a holder field names. Every kind set is looked up.
struct HolderKey {
  std::string resident_id;            // set for a resident ID
  std::optional<PlayerId> player_id;  // id:N, or bare digits
  std::string external_id;      // PPP:X, or anything but a resident ID / id:N
  std::string external_agency;  // "" = any agency
};

HolderKey ParseHolder(const std::string& text,
                      const std::string& issuing_prefix) {
  HolderKey k;
  if (LooksLikeResidentId(text)) {
    k.resident_id = text;
    if (k.resident_id[17] == 'x') k.resident_id[17] = 'X';
    return k;
  }
  if (text.rfind("id:", 0) == 0 && AllDigits(text.substr(3)) &&
      text.size() <= 18) {
    k.player_id = PlayerId{std::stoll(text.substr(3))};
    return k;
  }
  if (text.size() > 4 && text[3] == ':' && AllDigits(text.substr(0, 3))) {
    k.external_agency = text.substr(0, 3);
    k.external_id = text.substr(4);
    return k;
  }
  if (AllDigits(text) && text.size() <= 15)
    k.player_id = PlayerId{std::stoll(text)};
  k.external_id = text;
  k.external_agency =
      issuing_prefix == registry::kNationalPrefix ? "" : issuing_prefix;
  return k;
}

struct Row {
  const CertificateImportRow* in = nullptr;
  CertificateNumber number;
  Rank grade = Rank::FromString("1k");
  Date issue_date;
  std::string prefix;
  std::string holder_text;
  HolderKey holder;
};

class Refusals {
 public:
  void Add(int line, std::string column, std::string reason) {
    list_.push_back({line, std::move(column), std::move(reason)});
    lines_.insert(line);
  }
  bool Has(int line) const { return lines_.count(line) != 0; }
  int Rows() const { return static_cast<int>(lines_.size()); }
  std::vector<ImportRowRefusal> Sorted() {
    std::stable_sort(
        list_.begin(), list_.end(),
        [](const auto& a, const auto& b) { return a.line < b.line; });
    return list_;
  }

 private:
  std::vector<ImportRowRefusal> list_;
  std::set<int> lines_;
};

std::string PlayerText(const Player& p) {
  return "player " + std::to_string(p.id.value) + " (" + p.name + ")";
}

std::string GradeText(const Rank& g) {
  return (g.IsGomoku() ? "Gomoku " : "") + g.ToString();
}

// Checks the fields of one row; refusals go to `refusals`.
std::optional<Row> CheckFields(
    const auth::Caller& caller, const CertificateImportRow& in,
    const std::map<std::string, registry::Agency>& agencies, const Date& today,
    Refusals& refusals) {
  Row r;
  r.in = &in;
  const int line = in.line;
  bool bad = false;
  auto refuse = [&](const char* column, std::string reason) {
    refusals.Add(line, column, std::move(reason));
    bad = true;
  };
  const std::string number_text = Trim(in.number);
  auto number = CertificateNumber::Parse(number_text);
  if (number_text.empty()) {
    refuse(
        "number",
        "the certificate number is missing: write its nine digits PPPYYSSSS");
  } else if (!number.ok()) {
    refuse("number",
           "'" + number_text.substr(0, 20) +
               "' is not a certificate number: write nine digits PPPYYSSSS "
               "(prefix, two-digit year, serial 0001..9999), e.g. 110150001");
  } else {
    r.number = *number;
  }
  r.prefix = Trim(in.issuing_agency);
  auto agency = agencies.find(r.prefix);
  if (r.prefix.empty()) {
    refuse("issuing_agency",
           "the issuing agency is missing: write its three-digit prefix (000 "
           "for the national body)");
  } else if (agency == agencies.end()) {
    refuse("issuing_agency", "no agency has the prefix '" +
                                 r.prefix.substr(0, 10) +
                                 "' (rankctl agency list shows them)");
  } else if (!caller.ActsFor(r.prefix)) {
    refuse("issuing_agency",
           "an agency operator imports only certificates its own agency (" +
               caller.agency_prefix + ") issued; the national admin imports " +
               "those of agency " + r.prefix);
  } else if (agency->second.status == registry::AgencyStatus::kSuspended) {
    refuse("issuing_agency",
           "agency " + r.prefix + " is suspended (" +
               agency->second.status_reason +
               "): a suspended agency's certificates are not imported");
  }
  if (number.ok() && !r.prefix.empty() && number->prefix != r.prefix) {
    refuse("number",
           "number " + number->ToString() + " starts with prefix " +
               number->prefix + " but issuing_agency is " + r.prefix +
               ": the first three digits are the issuing agency's prefix");
  }
  const std::string date_text = Trim(in.issue_date);
  auto date = Date::Parse(date_text);
  if (!date.ok() || !date->IsValid()) {
    refuse("issue_date",
           "'" + date_text.substr(0, 20) + "' is not a date: write YYYY-MM-DD");
  } else if (*date > today) {
    refuse("issue_date", "issue date " + date->ToString() +
                             " is in the future (today is " + today.ToString() +
                             ")");
  } else if (date->year < kOldestImportYear) {
    refuse("issue_date", "issue date " + date->ToString() + " is before " +
                             std::to_string(kOldestImportYear));
  } else {
    r.issue_date = *date;
    if (number.ok() && number->yy != date->year % 100) {
      refuse("number", "number " + number->ToString() +
                           " has the year digits " +
                           number->ToString().substr(3, 2) +
                           " but the issue date is " + date->ToString() +
                           ": YY is the last two digits of the year of issue");
    }
  }
  registry::Discipline discipline = registry::Discipline::kGo;
  const std::string discipline_text = Trim(in.discipline);
  if (!discipline_text.empty()) {
    auto d = registry::ParseDiscipline(discipline_text);
    if (d.ok())
      discipline = *d;
    else
      refuse("discipline", "write go or gomoku (empty means go)");
  }
  auto grade = Rank::Parse(Trim(in.grade), discipline);
  if (Trim(in.grade).empty()) {
    refuse("grade",
           "the grade is missing: write a rank such as 3d, 5k or 业余3段");
  } else if (!grade.ok()) {
    refuse("grade", std::string(grade.status().message()) +
                        " (write a rank such as 3d, 5k or 业余3段)");
  } else {
    r.grade = *grade;
    if (agency != agencies.end() && caller.ActsFor(r.prefix)) {
      // The grade rules of issuance; a suspension is its own refusal above.
      const Basis basis = r.grade == Rank::FromString("8d")
                              ? Basis::kHonoraryAward
                              : Basis::kTournament;
      const absl::Status may =
          CheckIssuerAuthority(caller, r.prefix, r.grade, basis);
      if (!may.ok()) {
        refuse("grade", std::string(may.message()) + " (agency " + r.prefix +
                            " cannot have issued " + GradeText(r.grade) + ")");
      }
    }
  }
  r.holder_text = Trim(in.holder);
  if (r.holder_text.empty()) {
    refuse("holder",
           "the holder is missing: write a player id, a resident ID or an "
           "external id");
  } else if (!r.prefix.empty()) {
    r.holder = ParseHolder(r.holder_text, r.prefix);
    if (!r.holder.resident_id.empty()) {
      auto normal = registry::NormalizeResidentId(r.holder.resident_id);
      if (normal.ok())
        r.holder.resident_id = *normal;
      else
        refuse("holder", std::string(normal.status().message()));
    }
  }
  if (bad) return std::nullopt;
  return r;
}

// The one player `r.holder` names, or a refusal reason.
absl::StatusOr<PlayerId> ResolveHolder(const auth::Caller& caller, const Row& r,
                                       const ImportLookup& found) {
  std::vector<std::pair<PlayerId, std::string>>
      hits;  // player, how it was named
  auto visible = [&](PlayerId id) {
    auto p = found.players.find(id.value);
    return p != found.players.end() &&
           (caller.IsNational() ||
            p->second.agency_prefix == caller.agency_prefix);
  };
  const HolderKey& k = r.holder;
  if (!k.resident_id.empty()) {
    auto it = found.by_resident_id.find(k.resident_id);
    if (it != found.by_resident_id.end() && visible(it->second)) {
      hits.push_back({it->second, "resident ID"});
    }
  }
  if (k.player_id && visible(*k.player_id)) {
    hits.push_back(
        {*k.player_id, "player id " + std::to_string(k.player_id->value)});
  }
  if (!k.external_id.empty()) {
    auto it = found.by_external_id.find(k.external_id);
    if (it != found.by_external_id.end()) {
      for (const ExternalIdHit& h : it->second) {
        if (!k.external_agency.empty() && h.agency_prefix != k.external_agency)
          continue;
        if (!visible(h.player_id)) continue;
        hits.push_back({h.player_id, "external id " + k.external_id +
                                         " of agency " + h.agency_prefix});
      }
    }
  }
  std::map<int64_t, std::string> players;
  for (const auto& [id, how] : hits) players.emplace(id.value, how);
  if (players.size() == 1) return PlayerId{players.begin()->first};
  const std::string scope =
      caller.IsNational() ? "" : " of agency " + caller.agency_prefix;
  if (players.empty()) {
    std::string what;
    if (!k.resident_id.empty()) {
      what = "no player" + scope + " has this resident ID";
    } else {
      if (k.player_id) what = "player id " + std::to_string(k.player_id->value);
      if (!k.external_id.empty()) {
        what += (what.empty() ? "" : " or ") + std::string("external id ") +
                k.external_id +
                (k.external_agency.empty() ? " (any agency)"
                                           : " of agency " + k.external_agency);
      }
      what = "no player" + scope + " has " + what;
    }
    return absl::NotFoundError(
        what +
        "; register the holder first (rankctl player import), "
        "then write its player id (id:N), resident ID or external "
        "id (PPP:ID)");
  }
  std::string list;
  std::string fixes;
  for (const auto& [id, how] : players) {
    list += (list.empty() ? "" : " and ") + how + " (" +
            PlayerText(found.players.at(id)) + ")";
  }
  if (k.player_id) fixes = "id:" + std::to_string(k.player_id->value);
  if (auto it = found.by_external_id.find(k.external_id);
      it != found.by_external_id.end()) {
    for (const ExternalIdHit& h : it->second) {
      if (!k.external_agency.empty() && h.agency_prefix != k.external_agency)
        continue;
      fixes +=
          (fixes.empty() ? "" : " or ") + h.agency_prefix + ":" + k.external_id;
    }
  }
  return absl::FailedPreconditionError("'" + r.holder_text +
                                       "' names different players: " + list +
                                       "; write " + fixes + " to say which");
}

bool SameCertificate(const Certificate& stored, PlayerId holder, const Row& r) {
  return stored.player_id == holder && stored.grade == r.grade &&
         stored.issue_date == r.issue_date;
}

std::string Describe(const Certificate& c, const Player* holder) {
  return (holder ? PlayerText(*holder)
                 : "player " + std::to_string(c.player_id.value)) +
         ", " + GradeText(c.grade) + ", issued " + c.issue_date.ToString();
}

}  // namespace

absl::StatusOr<CertificateImportReport> Certification::ImportCertificates(
    const auth::Caller& caller, const CertificateImportOptions& options,
    const std::vector<CertificateImportRow>& rows) {
  if (caller.role != auth::Role::kNationalAdmin &&
      caller.role != auth::Role::kAgencyOperator) {
    return absl::PermissionDeniedError(
        "only the national admin and agency operators import certificates");
  }
  if (rows.empty())
    return absl::InvalidArgumentError("the file has no certificate rows");
  if (rows.size() > static_cast<size_t>(kMaxImportRows)) {
    return absl::InvalidArgumentError("an import carries at most 200000 rows");
  }
  if (!options.file_sha256.empty() &&
      (options.file_sha256.size() != 64 ||
       options.file_sha256.find_first_not_of("0123456789abcdef") !=
           std::string::npos)) {
    return absl::InvalidArgumentError(
        "file_sha256 must be 64 lower-case hex digits");
  }
  const Date today = clock_->Today();
  const int64_t now = clock_->NowSeconds();
  GORANK_ASSIGN_OR_RETURN(std::vector<registry::Agency> agency_list,
                          registry_->ListAgencies());
  std::map<std::string, registry::Agency> agencies;
  for (auto& a : agency_list) agencies.emplace(a.prefix, std::move(a));

  // Fields, then numbers repeated within the file.
  Refusals refusals;
  std::vector<Row> good;
  std::map<std::string, int> first_line;  // number -> line
  ImportLookupQuery query;
  for (const CertificateImportRow& in : rows) {
    std::optional<Row> r = CheckFields(caller, in, agencies, today, refusals);
    if (!r) continue;
    const std::string n = r->number.ToString();
    if (auto [it, fresh] = first_line.emplace(n, in.line); !fresh) {
      refusals.Add(in.line, "number",
                   "number " + n + " is also on line " +
                       std::to_string(it->second) +
                       " of this file: a number names one certificate");
      continue;
    }
    query.numbers.push_back(n);
    if (!r->holder.resident_id.empty())
      query.resident_ids.push_back(r->holder.resident_id);
    if (r->holder.player_id) query.player_ids.push_back(*r->holder.player_id);
    if (!r->holder.external_id.empty()) {
      query.external_ids.push_back(
          {r->holder.external_agency, r->holder.external_id});
    }
    good.push_back(std::move(*r));
  }
  GORANK_ASSIGN_OR_RETURN(ImportLookup found, certs_->LookupForImport(query));

  // Holders and collisions with stored certificates.
  CertificateImportReport report;
  report.rows = static_cast<int>(rows.size());
  ImportPlan plan;
  plan.file_name = options.file_name;
  plan.file_sha256 = options.file_sha256;
  plan.imported_unix = now;
  std::map<int, std::string> notes;  // line -> note
  for (const Row& r : good) {
    const int line = r.in->line;
    absl::StatusOr<PlayerId> holder = ResolveHolder(caller, r, found);
    if (!holder.ok()) {
      refusals.Add(line, "holder", std::string(holder.status().message()));
      continue;
    }
    const Player& player = found.players.at(holder->value);
    auto stored = found.certificates.find(r.number.ToString());
    if (stored != found.certificates.end()) {
      if (SameCertificate(stored->second, *holder, r)) {
        report.outcomes.push_back(
            {line, *holder, r.number.ToString(), true, ""});
        continue;
      }
      auto other = found.players.find(stored->second.player_id.value);
      refusals.Add(
          line, "number",
          "number " + r.number.ToString() + " is already certificate of " +
              Describe(stored->second, other == found.players.end()
                                           ? nullptr
                                           : &other->second) +
              "; this row is " + PlayerText(player) + ", " +
              GradeText(r.grade) + ", issued " + r.issue_date.ToString() +
              ": a number names one certificate (check the number, or leave "
              "the row out)");
      continue;
    }
    ImportPlan::Item item;
    item.line = line;
    Certificate& c = item.certificate;
    c.number = r.number;
    c.year = r.issue_date.year;
    c.player_id = *holder;
    c.grade = r.grade;
    c.issue_date = r.issue_date;
    c.basis = r.grade == Rank::FromString("8d") ? Basis::kHonoraryAward
                                                : Basis::kTournament;
    c.basis_reference = "imported from " +
                        (options.file_name.empty() ? std::string("a file")
                                                   : options.file_name) +
                        ", line " + std::to_string(line);
    c.issued_by = caller.Describe();
    c.issued_unix = now;
    c.notice_until_unix =
        NoticeUntil(r.grade, r.issue_date, today, now, options_.notice_days);
    c.imported = true;
    const std::vector<std::string> missing =
        MissingHolderFields(player, r.grade);
    if (!missing.empty()) {
      std::string list;
      for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
      notes[line] = "incomplete holder record: missing " + list;
    }
    plan.items.push_back(std::move(item));
  }

  // Ranks: per holder and discipline, effective certificates in the order
  // they took effect, each raising the rank it is above.
  std::vector<ImportPlan::Item*> order;
  for (auto& item : plan.items) order.push_back(&item);
  auto effective_date = [&](const Certificate& c) {
    return c.notice_until_unix != 0 ? ShanghaiDate(c.notice_until_unix)
                                    : c.issue_date;
  };
  std::stable_sort(
      order.begin(), order.end(), [&](const auto* a, const auto* b) {
        const Certificate& x = a->certificate;
        const Certificate& y = b->certificate;
        return std::make_tuple(x.player_id.value,
                               static_cast<int>(x.grade.discipline()),
                               effective_date(x), x.grade.Ordinal()) <
               std::make_tuple(y.player_id.value,
                               static_cast<int>(y.grade.discipline()),
                               effective_date(y), y.grade.Ordinal());
      });
  std::map<std::pair<int64_t, int>, std::optional<Rank>> held;
  for (ImportPlan::Item* item : order) {
    Certificate& c = item->certificate;
    std::string& note = notes[item->line];
    auto add_note = [&](const std::string& n) {
      note += (note.empty() ? "" : "; ") + n;
    };
    if (c.notice_until_unix > now) {
      add_note("under public notice until " +
               ShanghaiDate(c.notice_until_unix).ToString());
      continue;
    }
    const registry::Discipline d = c.grade.discipline();
    auto key = std::make_pair(c.player_id.value, static_cast<int>(d));
    if (!held.count(key))
      held[key] = found.players.at(c.player_id.value).RankIn(d);
    std::optional<Rank>& current = held[key];
    c.rank_applied = true;
    c.rank_before = current;
    if (current && !(*current < c.grade)) continue;
    plan.rank_changes.push_back(registry::RankHistoryEntry{
        0, c.player_id, current, c.grade, effective_date(c),
        registry::RankChangeReason::kCertificate,
        "certificate " + c.number.ToString() + " (" + c.basis_reference + ")",
        caller.Describe(), now, d});
    current = c.grade;
  }

  nlohmann::json numbers = nlohmann::json::array();
  for (const auto& item : plan.items) {
    const Certificate& c = item.certificate;
    int& last = plan.last_serials[{c.number.prefix, c.year}];
    last = std::max(last, c.number.serial);
    numbers.push_back(c.number.ToString());
    report.outcomes.push_back({item.line, c.player_id, c.number.ToString(),
                               false,
                               notes.count(item.line) ? notes[item.line] : ""});
  }
  report.added = static_cast<int>(plan.items.size());
  report.matched = static_cast<int>(report.outcomes.size()) - report.added;
  report.refused = refusals.Rows();
  report.refusals = refusals.Sorted();
  std::stable_sort(
      report.outcomes.begin(), report.outcomes.end(),
      [](const auto& a, const auto& b) { return a.line < b.line; });
  if (options.dry_run || (report.refused > 0 && !options.skip_bad))
    return report;
  report.stored = true;
  if (plan.items.empty()) return report;
  plan.audit = ChangeRecord{
      now,
      caller.Describe(),
      "certificate.import",
      "file:" + (options.file_sha256.empty() ? options.file_name
                                             : options.file_sha256),
      "",
      nlohmann::json{{"file_name", options.file_name},
                     {"file_sha256", options.file_sha256},
                     {"rows", report.rows},
                     {"added", report.added},
                     {"matched", report.matched},
                     {"refused", report.refused},
                     {"numbers", numbers}}
          .dump()};
  GORANK_RETURN_IF_ERROR(certs_->StoreImport(plan));
  int64_t first_due = 0;
  for (const auto& item : plan.items) {
    const int64_t until = item.certificate.notice_until_unix;
    if (until > now && (first_due == 0 || until < first_due)) first_due = until;
  }
  if (first_due != 0) NoteNoticeChange(first_due);
  return report;
}

}  // namespace gorank::certificates
