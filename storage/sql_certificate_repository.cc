#include "storage/sql_certificate_repository.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "services/certificates/certificate_rules.h"
#include "services/common/status_macros.h"
#include "storage/audit_log.h"
#include "storage/sql_registry_repository.h"

namespace gorank::storage {

using certificates::Appraisal;
using certificates::AppraisalState;
using certificates::Certificate;
using certificates::CertificateNumber;
using certificates::Objection;
using certificates::ObjectionState;
using certificates::StockOrder;
using registry::RankHistoryEntry;

namespace {

#define GORANK_CERT_COLUMNS                                                    \
  "SELECT number, year, player_id, grade_ordinal, issue_date, basis, "         \
  "basis_reference, issued_by, issued_unix, notice_until_unix, rank_applied, " \
  "rank_before_ordinal, revoked_unix, revoke_reason, correction_reason, "      \
  "request_id, request_hash, EXISTS(SELECT 1 FROM objections o WHERE "         \
  "o.number = certificates.number AND o.state = 1), EXISTS(SELECT 1 FROM "     \
  "imported_certificates i WHERE i.number = certificates.number) "             \
  "FROM certificates "

constexpr char kCertByNumber[] = GORANK_CERT_COLUMNS "WHERE number = ?1";
constexpr char kCertByRequest[] = GORANK_CERT_COLUMNS "WHERE request_id = ?1";
constexpr char kListCerts[] = GORANK_CERT_COLUMNS
    "WHERE number > ?1 AND (?2 = '' OR prefix = ?2) AND (?3 = 0 OR year = ?3) "
    "AND (?4 = 0 OR player_id = ?4) "
    "AND (?5 = 0 OR (rank_applied = 0 AND revoked_unix = 0 AND "
    "notice_until_unix > 0)) "
    "ORDER BY number LIMIT ?6";
#undef GORANK_CERT_COLUMNS

// The year's serial counter, read with an issuance's other reads: the
// serial it takes is the next one (no row: the year has none yet).
constexpr char kGetSerial[] =
    "SELECT last_serial FROM certificate_serials WHERE prefix = ?1 AND "
    "year = ?2";
// The serial taken: the counter moved on by one and read back in the same
// statement (under the write lock: gapless), sent without waiting: the
// issuance already knows which serial it takes (kGetSerial) and checks the
// answer before its audit entry. No row when the counter stands at ?3
// (certificates::kMaxSerial, the last number). A plain UPDATE: on
// PostgreSQL about half the server's work of the INSERT ... ON CONFLICT
// below (no speculative check, no row lock before the update, no agency
// read).
constexpr char kNextSerial[] =
    "UPDATE certificate_serials SET last_serial = last_serial + 1 WHERE "
    "prefix = ?1 AND year = ?2 AND last_serial < ?3 RETURNING last_serial";
// The year's first serial (its counter written), or no row when the
// counter stands at ?3 or (instead of a foreign-key error) the agency does
// not exist.
constexpr char kFirstSerial[] =
    "INSERT INTO certificate_serials(prefix, year, last_serial) SELECT ?1, "
    "?2, 1 WHERE EXISTS(SELECT 1 FROM agencies WHERE prefix = ?1) "
    "ON CONFLICT(prefix, year) DO UPDATE SET last_serial = "
    "certificate_serials.last_serial + 1 WHERE certificate_serials.last_serial "
    "< ?3 RETURNING last_serial";
// Imported certificates used no stock: they are not counted.
constexpr char kCountIssued[] =
    "SELECT count(*) FROM certificates c WHERE c.prefix = ?1 AND c.year = ?2 "
    "AND NOT EXISTS(SELECT 1 FROM imported_certificates i WHERE i.number = "
    "c.number)";
constexpr char kInsertImported[] =
    "INSERT INTO imported_certificates(number, file_name, file_sha256, line, "
    "imported_unix) "
    "VALUES(?1, ?2, ?3, ?4, ?5)";
// The counter never moves back.
constexpr char kRaiseSerial[] =
    "INSERT INTO certificate_serials(prefix, year, last_serial) VALUES(?1, ?2, "
    "?3) "
    "ON CONFLICT(prefix, year) DO UPDATE SET last_serial = CASE WHEN "
    "excluded.last_serial > certificate_serials.last_serial THEN "
    "excluded.last_serial "
    "ELSE certificate_serials.last_serial END";
constexpr char kPlayerByResidentId[] =
    "SELECT id FROM players WHERE resident_id = ?1";
constexpr char kExternalIdInAgency[] =
    "SELECT agency_prefix, player_id FROM player_external_ids "
    "WHERE agency_prefix = ?1 AND external_id = ?2";
constexpr char kAllExternalIds[] =
    "SELECT agency_prefix, external_id, player_id FROM player_external_ids";
constexpr char kInsertCert[] =
    "INSERT INTO certificates(number, prefix, year, serial, player_id, "
    "grade_ordinal, "
    "issue_date, basis, basis_reference, issued_by, issued_unix, "
    "notice_until_unix, "
    "rank_applied, rank_before_ordinal, correction_reason, request_id, "
    "request_hash, "
    "discipline) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
    "?16, ?17, ?18)";
constexpr char kSettle[] =
    "UPDATE certificates SET rank_applied = 1, rank_before_ordinal = ?2 "
    "WHERE number = ?1 AND rank_applied = 0 AND revoked_unix = 0";
constexpr char kRevoke[] =
    "UPDATE certificates SET revoked_unix = ?2, revoke_reason = ?3 "
    "WHERE number = ?1 AND revoked_unix = 0";
constexpr char kInsertObjection[] =
    "INSERT INTO objections(number, text, contact, lodged_unix, state) "
    "VALUES(?1, ?2, ?3, ?4, 1)";
constexpr char kObjectionColumns[] =
    "SELECT id, number, text, contact, lodged_unix, state, decided_unix, "
    "decision_note "
    "FROM objections WHERE id = ?1";
constexpr char kObjectionsByNumber[] =
    "SELECT id, number, text, contact, lodged_unix, state, decided_unix, "
    "decision_note "
    "FROM objections WHERE number = ?1 ORDER BY id";
constexpr char kFindObjections[] =
    "SELECT o.id, o.number, o.text, o.contact, o.lodged_unix, o.state, "
    "o.decided_unix, "
    "o.decision_note, c.grade_ordinal, p.name, p.agency_prefix "
    "FROM objections o JOIN certificates c ON c.number = o.number "
    "JOIN players p ON p.id = c.player_id "
    "WHERE o.id > ?1 AND (?2 = 0 OR o.state = ?2) AND (?3 = '' OR o.number = "
    "?3) "
    "AND (?4 = '' OR p.agency_prefix = ?4) ORDER BY o.id LIMIT ?5";
constexpr char kDecideObjection[] =
    "UPDATE objections SET state = ?2, decided_unix = ?3, decision_note = ?4 "
    "WHERE id = ?1 AND state = 1";
constexpr char kInsertAppraisal[] =
    "INSERT INTO appraisals(player_id, grade_ordinal, agency_prefix, note, "
    "recommended_by, recommended_unix, state) VALUES(?1, ?2, ?3, ?4, ?5, ?6, "
    "1)";
constexpr char kAppraisalById[] =
    "SELECT id, player_id, grade_ordinal, agency_prefix, note, recommended_by, "
    "recommended_unix, state, decided_unix, decision_note, certificate_number "
    "FROM appraisals WHERE id = ?1";
constexpr char kListAppraisals[] =
    "SELECT id, player_id, grade_ordinal, agency_prefix, note, recommended_by, "
    "recommended_unix, state, decided_unix, decision_note, certificate_number "
    "FROM appraisals WHERE (?1 = '' OR agency_prefix = ?1) AND (?2 = 0 OR "
    "state = 1) "
    "ORDER BY id";
constexpr char kListAppraisalsAfter[] =
    "SELECT id, player_id, grade_ordinal, agency_prefix, note, recommended_by, "
    "recommended_unix, state, decided_unix, decision_note, certificate_number "
    "FROM appraisals WHERE id > ?3 AND (?1 = '' OR agency_prefix = ?1) "
    "AND (?2 = 0 OR state = 1) ORDER BY id LIMIT ?4";
constexpr char kDecideAppraisal[] =
    "UPDATE appraisals SET state = ?2, decided_unix = ?3, decision_note = ?4, "
    "certificate_number = ?5 WHERE id = ?1 AND state = 1";
constexpr char kPutStock[] =
    "INSERT INTO stock_orders(agency_prefix, year, quantity, ordered_unix, "
    "ordered_by) "
    "VALUES(?1, ?2, ?3, ?4, ?5) ON CONFLICT(agency_prefix, year) DO UPDATE SET "
    "quantity = excluded.quantity, ordered_unix = excluded.ordered_unix, "
    "ordered_by = excluded.ordered_by WHERE stock_orders.released_unix = 0";
constexpr char kReleaseStock[] =
    "UPDATE stock_orders SET released_unix = ?3, released_by = ?4 "
    "WHERE agency_prefix = ?1 AND year = ?2 AND released_unix = 0";
constexpr char kGetStock[] =
    "SELECT agency_prefix, year, quantity, ordered_unix, ordered_by, "
    "released_unix, "
    "released_by, (SELECT count(*) FROM certificates c WHERE c.prefix = ?1 AND "
    "c.year = ?2 "
    "AND NOT EXISTS(SELECT 1 FROM imported_certificates i WHERE i.number = "
    "c.number)) "
    "FROM stock_orders WHERE agency_prefix = ?1 AND year = ?2";

// The request_id column holds "SCOPE:ID" (migration 8): one UNIQUE key per
// scope, so an agency cannot occupy another's ids.
std::string StoredRequestKey(const Certificate& c) {
  return c.request_scope + ":" + c.request_id;
}

Certificate ReadCertificate(const Statement& st) {
  Certificate c;
  c.number = *CertificateNumber::Parse(st.Text(0));
  c.year = static_cast<int>(st.Int(1));
  c.player_id = registry::PlayerId{st.Int(2)};
  c.grade = *registry_sql::RankOf(st.Int(3));
  c.issue_date = Date::Parse(st.Text(4)).value_or(Date{});
  c.basis = static_cast<certificates::Basis>(st.Int(5));
  c.basis_reference = st.Text(6);
  c.issued_by = st.Text(7);
  c.issued_unix = st.Int(8);
  c.notice_until_unix = st.Int(9);
  c.rank_applied = st.Int(10) != 0;
  c.rank_before = registry_sql::RankOf(st.OptInt(11));
  c.revoked_unix = st.Int(12);
  c.revoke_reason = st.Text(13);
  c.correction_reason = st.Text(14);
  const std::string key = st.OptText(15).value_or("");
  if (key.size() > 4 && key[3] == ':') {
    c.request_scope = key.substr(0, 3);
    c.request_id = key.substr(4);
  }
  c.request_hash = st.Text(16);
  c.has_open_objection = st.Int(17) != 0;
  c.imported = st.Int(18) != 0;
  return c;
}

Objection ReadObjection(const Statement& st) {
  Objection o;
  o.id = st.Int(0);
  o.number = *CertificateNumber::Parse(st.Text(1));
  o.text = st.Text(2);
  o.contact = st.Text(3);
  o.lodged_unix = st.Int(4);
  o.state = static_cast<ObjectionState>(st.Int(5));
  o.decided_unix = st.Int(6);
  o.decision_note = st.Text(7);
  return o;
}

Appraisal ReadAppraisal(const Statement& st) {
  Appraisal a;
  a.id = st.Int(0);
  a.player_id = registry::PlayerId{st.Int(1)};
  a.grade = *registry_sql::RankOf(st.Int(2));
  a.agency_prefix = st.Text(3);
  a.note = st.Text(4);
  a.recommended_by = st.Text(5);
  a.recommended_unix = st.Int(6);
  a.state = static_cast<AppraisalState>(st.Int(7));
  a.decided_unix = st.Int(8);
  a.decision_note = st.Text(9);
  a.certificate_number = st.OptText(10).value_or("");
  return a;
}

// The certificate `sent` found, if any: its answer read.
absl::StatusOr<std::optional<Certificate>> ReadFound(Statement& sent) {
  GORANK_ASSIGN_OR_RETURN(bool row, sent.Step());
  if (!row) return std::optional<Certificate>();
  return std::optional<Certificate>(ReadCertificate(sent));
}

// kCertByNumber or kCertByRequest for `key`, bound.
absl::StatusOr<std::unique_ptr<Statement>> FindStatement(
    Connection& c, const char* sql, const std::string& key) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
  st->Bind(1, key);
  return st;
}

absl::StatusOr<std::optional<Certificate>> FindOne(Connection& c,
                                                   const char* sql,
                                                   const std::string& key) {
  GORANK_ASSIGN_OR_RETURN(auto st, FindStatement(c, sql, key));
  return ReadFound(*st);
}

absl::StatusOr<int64_t> ScalarInt(Connection& c, const char* sql,
                                  const std::string& a, int64_t b) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
  st->Bind(1, a).Bind(2, b);
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  return row ? st->Int(0) : 0;
}

// Stores the certificate row `cert` as it is (number included); with
// `send`, sends it (Statement::Send: its failure fails the write).
absl::Status InsertRow(Connection& c, const Certificate& cert,
                       bool send = false) {
  GORANK_ASSIGN_OR_RETURN(auto ins, c.Prepare(kInsertCert));
  ins->Bind(1, cert.number.ToString())
      .Bind(2, cert.number.prefix)
      .Bind(3, int64_t{cert.year})
      .Bind(4, int64_t{cert.number.serial})
      .Bind(5, cert.player_id.value)
      .Bind(6, int64_t{cert.grade.Ordinal()})
      .Bind(7, cert.issue_date.ToString())
      .Bind(8, int64_t{static_cast<int>(cert.basis)})
      .Bind(9, cert.basis_reference)
      .Bind(10, cert.issued_by)
      .Bind(11, cert.issued_unix)
      .Bind(12, cert.notice_until_unix)
      .Bind(13, int64_t{cert.rank_applied ? 1 : 0})
      .Bind(14, registry_sql::OrdinalOf(cert.rank_before))
      .Bind(15, cert.correction_reason)
      .Bind(16, cert.request_id.empty()
                    ? std::nullopt
                    : std::optional<std::string>(StoredRequestKey(cert)))
      .Bind(17, cert.request_hash)
      .Bind(18, std::string(registry::DisciplineName(cert.grade.discipline())));
  return send ? ins->Send() : ins->Run();
}

// `sql` (kGetStock, kGetSerial) for `prefix`'s year `year`, bound.
absl::StatusOr<std::unique_ptr<Statement>> YearStatement(
    Connection& c, const char* sql, const std::string& prefix, int year) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
  st->Bind(1, prefix).Bind(2, int64_t{year});
  return st;
}

// kNextSerial or kFirstSerial for `prefix`'s year `year`, bound.
absl::StatusOr<std::unique_ptr<Statement>> SerialStatement(
    Connection& c, const char* sql, const std::string& prefix, int year) {
  GORANK_ASSIGN_OR_RETURN(auto st, YearStatement(c, sql, prefix, year));
  st->Bind(3, int64_t{certificates::kMaxSerial});
  return st;
}

absl::StatusOr<std::optional<StockOrder>> ReadStockOrder(Statement& st) {
  GORANK_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return std::optional<StockOrder>();
  return std::optional<StockOrder>(
      StockOrder{st.Text(0), static_cast<int>(st.Int(1)),
                 static_cast<int>(st.Int(2)), st.Int(3), st.Text(4), st.Int(5),
                 st.Text(6), static_cast<int>(st.Int(7))});
}

absl::StatusOr<std::optional<StockOrder>> LoadStockOrder(
    Connection& c, const std::string& prefix, int year) {
  GORANK_ASSIGN_OR_RETURN(auto st, YearStatement(c, kGetStock, prefix, year));
  return ReadStockOrder(*st);
}

// What the issuances of one write transaction sent that the next one's
// writes build on.
struct IssuedSoFar {
  // The serial counters moved (prefix, year -> the serial each stands at):
  // the next issuance of the year takes the next serial without reading
  // the counter (the write lock keeps every other writer out).
  std::map<std::pair<std::string, int>, int> counters;
  // The certificate rows sent (prefix, year -> how many): a stock order
  // read before some of them counted only those before it.
  std::map<std::pair<std::string, int>, int> rows;
  // The highest rank history row number, once read or written: the next
  // rank change's row takes the next.
  std::optional<int64_t> history_id;
  // An audit entry's reads were sent: the next entry links to that one.
  bool entry_sent = false;

  int RowsOf(const std::string& prefix, int year) const {
    auto it = rows.find({prefix, year});
    return it == rows.end() ? 0 : it->second;
  }
};

// What an issuance is judged on, sent ahead (Statement::Send; on
// PostgreSQL the reads of every call of a group commit that is waiting go
// in one round trip): the certificate stored under its request id, the
// agency with the holder, the agency's stock order and the year's serial
// counter. Reads only: a call refused on them has written nothing.
struct IssueReads {
  std::unique_ptr<Statement> prior;  // null: looked up when judged
  std::unique_ptr<Statement> holder;
  std::unique_ptr<Statement> stock;    // when the plan uses stock
  int rows_before_stock = 0;           // IssuedSoFar::rows then
  std::unique_ptr<Statement> counter;  // kGetSerial, unless the
                                       // transaction moved the counter
  std::unique_ptr<Statement> history;  // kLastHistoryId, when the plan may
                                       // set the rank and it is not known
};

// `prior`: the request id's certificate is read with the rest (when the
// call has one); else IssueWrites looks it up itself, after the writes
// sent before it (a call of the same batch with the same request id).
absl::StatusOr<IssueReads> SendIssueReads(Connection& c,
                                          const certificates::IssuePlan& plan,
                                          bool prior,
                                          const IssuedSoFar& so_far) {
  const Certificate& draft = plan.draft;
  IssueReads reads;
  if (prior && !draft.request_id.empty()) {
    GORANK_ASSIGN_OR_RETURN(
        reads.prior, FindStatement(c, kCertByRequest, StoredRequestKey(draft)));
    GORANK_RETURN_IF_ERROR(reads.prior->Send());
  }
  GORANK_ASSIGN_OR_RETURN(
      reads.holder, registry_sql::SendPlayerAndAgency(c, draft.player_id,
                                                      draft.number.prefix));
  if (plan.uses_stock) {
    GORANK_ASSIGN_OR_RETURN(
        reads.stock,
        YearStatement(c, kGetStock, draft.number.prefix, draft.year));
    GORANK_RETURN_IF_ERROR(reads.stock->Send());
    reads.rows_before_stock = so_far.RowsOf(draft.number.prefix, draft.year);
  }
  if (plan.apply_rank_now && !so_far.history_id) {
    GORANK_ASSIGN_OR_RETURN(reads.history,
                            c.Prepare(registry_sql::kLastHistoryId));
    GORANK_RETURN_IF_ERROR(reads.history->Send());
  }
  if (!so_far.counters.count({draft.number.prefix, draft.year})) {
    GORANK_ASSIGN_OR_RETURN(
        reads.counter,
        YearStatement(c, kGetSerial, draft.number.prefix, draft.year));
    GORANK_RETURN_IF_ERROR(reads.counter->Send());
  }
  return reads;
}

// An issuance judged, its writes sent; FinishIssue makes its audit entry.
struct SentIssue {
  Certificate cert;
  std::unique_ptr<Statement> serial;  // the counter moved, to check
  int serial_expected = 0;
  AuditReads audit;
  bool holder_changed = false;  // its holder's rank was set
};

// What IssueWrites did with a call: refused it (nothing written), answered
// it with the certificate its request id already has (nothing written), or
// sent its writes.
struct IssueStep {
  absl::Status refusal;
  std::optional<Certificate> replay;
  std::optional<SentIssue> sent;
};

// One issuance inside the open write transaction `c`: judges it on its
// reads, in the order the interface states, and sends its writes and the
// reads of its audit entry. An error is the write's (the transaction, or
// at least the call's savepoint, must be rolled back); a refusal is in the
// answer. `so_far`: see IssuedSoFar; this call's part is added.
absl::StatusOr<IssueStep> IssueWrites(Connection& c,
                                      const certificates::IssuePlan& plan,
                                      IssueReads& reads, IssuedSoFar& so_far) {
  IssueStep step;
  Certificate cert = plan.draft;
  const std::string& prefix = cert.number.prefix;
  if (!cert.request_id.empty()) {
    std::optional<Certificate> prior;
    if (reads.prior) {
      GORANK_ASSIGN_OR_RETURN(prior, ReadFound(*reads.prior));
    } else {
      GORANK_ASSIGN_OR_RETURN(
          prior, FindOne(c, kCertByRequest, StoredRequestKey(cert)));
    }
    if (prior) {
      step.refusal =
          certificates::CheckReplay(cert, plan.issue_date_defaulted, *prior);
      if (step.refusal.ok()) step.replay = std::move(prior);
      return step;
    }
  }
  // The agency and the holder, judged in that order.
  GORANK_ASSIGN_OR_RETURN(
      registry_sql::PlayerAndAgency read,
      registry_sql::ReadPlayerAndAgency(*reads.holder, prefix));
  const auto refuse = [&](absl::Status why) -> absl::StatusOr<IssueStep> {
    step.refusal = std::move(why);
    return std::move(step);
  };
  if (!read.agency) {
    return refuse(absl::NotFoundError("no agency with prefix " + prefix));
  }
  if (absl::Status s = certificates::CheckAgencyMayIssue(*read.agency);
      !s.ok()) {
    return refuse(s);
  }
  if (!read.player) {
    return refuse(absl::NotFoundError("no player with id " +
                                      std::to_string(cert.player_id.value)));
  }
  const registry::Player& holder = *read.player;
  if (absl::Status s =
          certificates::CheckHolder(cert, holder, plan.holder_agency);
      !s.ok()) {
    return refuse(s);
  }
  if (plan.uses_stock) {
    GORANK_ASSIGN_OR_RETURN(auto order, ReadStockOrder(*reads.stock));
    // The rows of this transaction sent after the read count too.
    if (order) {
      order->used += so_far.RowsOf(prefix, cert.year) - reads.rows_before_stock;
    }
    if (absl::Status s = certificates::CheckStock(prefix, cert.year, order);
        !s.ok()) {
      return refuse(s);
    }
  }
  // The serial: the one after the counter's, known without waiting when
  // this transaction moved the counter or it was read with the rest.
  SentIssue sent;
  std::optional<int> last;
  const auto year_key = std::make_pair(prefix, cert.year);
  if (auto it = so_far.counters.find(year_key); it != so_far.counters.end()) {
    last = it->second;
  } else {
    // Read with the rest: the counter was not moved then, nor since.
    if (!reads.counter) return absl::InternalError("serial counter not read");
    GORANK_ASSIGN_OR_RETURN(bool row, reads.counter->Step());
    if (row) last = static_cast<int>(reads.counter->Int(0));
  }
  if (last) {
    absl::StatusOr<CertificateNumber> number =
        certificates::NextNumber(prefix, cert.year, *last);
    if (!number.ok()) return refuse(number.status());
    cert.number = *number;
    GORANK_ASSIGN_OR_RETURN(sent.serial,
                            SerialStatement(c, kNextSerial, prefix, cert.year));
    GORANK_RETURN_IF_ERROR(sent.serial->Send());
    sent.serial_expected = cert.number.serial;
  } else {
    // No counter for the year yet: its first serial, waited for.
    GORANK_ASSIGN_OR_RETURN(
        auto first, SerialStatement(c, kFirstSerial, prefix, cert.year));
    GORANK_ASSIGN_OR_RETURN(bool row, first->Step());
    absl::StatusOr<CertificateNumber> number = certificates::NextNumber(
        prefix, cert.year,
        row ? static_cast<int>(first->Int(0)) - 1 : certificates::kMaxSerial);
    if (!number.ok()) return refuse(number.status());
    cert.number = *number;
  }
  so_far.counters[year_key] = cert.number.serial;
  if (plan.apply_rank_now) {
    cert.rank_applied = true;
    cert.rank_before = holder.RankIn(cert.grade.discipline());
    if (cert.rank_before != cert.grade) {
      // The rank the holder read gave is the one this transaction left
      // (a later call's holder is read again after a change): no check.
      if (!so_far.history_id) {
        // Read with the rest: no history row was numbered then, nor since.
        if (!reads.history)
          return absl::InternalError("rank history numbers not read");
        GORANK_ASSIGN_OR_RETURN(bool row, reads.history->Step());
        so_far.history_id = row ? reads.history->Int(0) : 0;
      }
      const int64_t history = ++*so_far.history_id;
      GORANK_RETURN_IF_ERROR(registry_sql::SendRankChange(
          c, certificates::IssueHistoryEntry(cert), history));
      c.ExpectWrittenRow("players", {std::to_string(cert.player_id.value)});
      c.ExpectWrittenRow("rank_history", {std::to_string(history)});
      sent.holder_changed = true;
    }
  }
  GORANK_RETURN_IF_ERROR(InsertRow(c, cert, /*send=*/true));
  ++so_far.rows[year_key];
  c.ExpectWrittenRow("certificates", {cert.number.ToString()});
  c.ExpectWrittenRow("certificate_serials",
                     {prefix, std::to_string(cert.year)});
  if (plan.appraisal_id) {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kDecideAppraisal));
    st->Bind(1, *plan.appraisal_id)
        .Bind(2, int64_t{static_cast<int>(AppraisalState::kApproved)})
        .Bind(3, cert.issued_unix)
        .Bind(4, plan.appraisal_note)
        .Bind(5, cert.number.ToString());
    GORANK_RETURN_IF_ERROR(st->Run());
    if (c.Changes() == 0) {
      return absl::FailedPreconditionError("appraisal " +
                                           std::to_string(*plan.appraisal_id) +
                                           " is no longer pending");
    }
    c.ExpectWrittenRow("appraisals", {std::to_string(*plan.appraisal_id)});
  }
  GORANK_ASSIGN_OR_RETURN(sent.audit,
                          SendAuditReads(c, /*link_read=*/!so_far.entry_sent));
  so_far.entry_sent = true;
  sent.cert = std::move(cert);
  step.sent = std::move(sent);
  return step;
}

// The audit entry of an issuance IssueWrites sent, made and sent (entries
// are made in the order of their calls); the certificate. ABORTED when the
// counter did not give the serial taken (a write outside the lock) or,
// with `hinted_only`, a row written was not named ahead: the transaction
// must be written again.
absl::StatusOr<Certificate> FinishIssue(Connection& c, SentIssue& sent,
                                        bool hinted_only) {
  if (sent.serial) {
    GORANK_ASSIGN_OR_RETURN(bool row, sent.serial->Step());
    if (!row || sent.serial->Int(0) != sent.serial_expected) {
      return absl::AbortedError(
          "the serial counter of " + sent.cert.number.prefix + " " +
          std::to_string(sent.cert.year) + " moved under the write lock");
    }
    sent.serial.reset();
  }
  GORANK_RETURN_IF_ERROR(AppendAudit(c,
                                     certificates::IssueAuditRecord(sent.cert),
                                     std::move(sent.audit), hinted_only)
                             .status());
  return std::move(sent.cert);
}

// One issuance judged and written whole (its reads sent now): a refusal is
// the error, and the caller rolls back what it wrote.
absl::StatusOr<Certificate> IssueIn(Connection& c,
                                    const certificates::IssuePlan& plan) {
  IssuedSoFar so_far;
  GORANK_ASSIGN_OR_RETURN(IssueReads reads,
                          SendIssueReads(c, plan, /*prior=*/true, so_far));
  GORANK_ASSIGN_OR_RETURN(IssueStep step, IssueWrites(c, plan, reads, so_far));
  GORANK_RETURN_IF_ERROR(step.refusal);
  if (step.replay) return *std::move(step.replay);
  return FinishIssue(c, *step.sent, /*hinted_only=*/false);
}

}  // namespace

struct SqlCertificateRepository::PendingIssue {
  const certificates::IssuePlan* plan;
  absl::StatusOr<Certificate> result = absl::UnknownError("not written");
  bool judged = false;  // result is IssueIn's answer
  bool done = false;    // guarded by batch_mu_
};

// The first caller to find no batch being written writes a batch: inside
// one write transaction it takes the waiting calls one at a time (its own
// first) and runs each as it comes, and hands the next batch to a caller
// that waited.
absl::StatusOr<Certificate> SqlCertificateRepository::IssueCertificate(
    const certificates::IssuePlan& plan) {
  PendingIssue me{&plan};
  std::unique_lock<std::mutex> lock(batch_mu_);
  waiting_.push_back(&me);
  stats_cv_.notify_all();
  while (!me.done) {
    if (committing_) {
      batch_cv_.wait(lock);
      continue;
    }
    committing_ = true;
    const BatchPlan batch_plan = PlanBatch();
    lock.unlock();
    const auto start = std::chrono::steady_clock::now();
    const std::vector<PendingIssue*> batch = WriteBatch(batch_plan);
    const auto took = std::chrono::steady_clock::now() - start;
    lock.lock();
    for (PendingIssue* p : batch) p->done = true;
    ++batches_;
    batched_ += static_cast<int64_t>(batch.size());
    // The calls in flight: this batch and those that queued meanwhile.
    recent_callers_[batches_ % kRecentBatches] =
        static_cast<int>(batch.size() + waiting_.size());
    last_batch_ = took;
    committing_ = false;
    batch_cv_.notify_all();
    stats_cv_.notify_all();
  }
  return std::move(me.result);
}

// A commit delay, as PostgreSQL's commit_delay with commit_siblings, but
// set by the load itself: when recent batches show more calls in flight
// than are waiting now (their callers are on their way back with the next
// call), the batch waits for them, at most as long as the last batch took
// (and 1 ms), so that one commit serves them all instead of every other
// one; the calls that are there meanwhile are written while it waits. Alone
// (one call in flight) it never waits.
SqlCertificateRepository::BatchPlan SqlCertificateRepository::PlanBatch() {
  size_t expected = 0;
  for (int n : recent_callers_) expected = std::max(expected, size_t(n));
  BatchPlan plan;
  plan.expected = std::min(expected, static_cast<size_t>(max_batch_));
  plan.until = std::chrono::steady_clock::now() + commit_delay_(last_batch_);
  return plan;
}

std::chrono::steady_clock::duration
SqlCertificateRepository::DefaultCommitDelay(
    std::chrono::steady_clock::duration last_batch) {
  return std::min<std::chrono::steady_clock::duration>(
      last_batch, std::chrono::milliseconds(1));
}

SqlCertificateRepository::PendingIssue* SqlCertificateRepository::NextInBatch(
    const BatchPlan& plan, size_t taken, bool* waited) {
  std::unique_lock<std::mutex> lock(batch_mu_);
  while (true) {
    if (static_cast<int>(taken) >= max_batch_) return nullptr;
    if (!waiting_.empty()) return PopWaiting();
    if (taken >= plan.expected || plan.expected < 2 ||
        std::chrono::steady_clock::now() >= plan.until) {
      return nullptr;
    }
    if (!*waited) {
      *waited = true;
      ++delayed_;
      stats_cv_.notify_all();
    }
    stats_cv_.wait_until(lock, plan.until);
  }
}

SqlCertificateRepository::PendingIssue* SqlCertificateRepository::NextWaiting(
    size_t taken) {
  std::lock_guard<std::mutex> lock(batch_mu_);
  if (static_cast<int>(taken) >= max_batch_ || waiting_.empty()) return nullptr;
  return PopWaiting();
}

SqlCertificateRepository::PendingIssue* SqlCertificateRepository::PopWaiting() {
  PendingIssue* p = waiting_.front();
  waiting_.pop_front();
  stats_cv_.notify_all();
  return p;
}

SqlCertificateRepository::GroupCommitStats
SqlCertificateRepository::StatsLocked() const {
  return GroupCommitStats{static_cast<int>(waiting_.size()),
                          committing_,
                          batches_,
                          batched_,
                          delayed_,
                          rewritten_};
}

SqlCertificateRepository::GroupCommitStats
SqlCertificateRepository::group_commit_stats() {
  std::lock_guard<std::mutex> lock(batch_mu_);
  return StatsLocked();
}

void SqlCertificateRepository::AwaitGroupCommit(
    const std::function<bool(const GroupCommitStats&)>& ready) {
  std::unique_lock<std::mutex> lock(batch_mu_);
  stats_cv_.wait(lock, [&] { return ready(StatsLocked()); });
}

absl::Status SqlCertificateRepository::WriteFirstAttempt(
    Connection& c, const BatchPlan& plan, bool* waited,
    std::vector<PendingIssue*>& batch) {
  // By position in `batch`: the reads sent, and the writes sent whose
  // audit entry is still to make.
  std::vector<std::optional<IssueReads>> reads;
  std::vector<std::optional<SentIssue>> sent;
  size_t finished = 0;  // every call before it has its answer
  IssuedSoFar so_far;
  const auto take = [&](PendingIssue* p) {
    batch.push_back(p);
    reads.emplace_back();
    sent.emplace_back();
  };
  const auto finish = [&]() -> absl::Status {
    for (; finished < batch.size(); ++finished) {
      if (!sent[finished]) continue;  // answered when judged
      PendingIssue* p = batch[finished];
      p->result = FinishIssue(c, *sent[finished], /*hinted_only=*/true);
      sent[finished].reset();
      if (!p->result.ok()) return p->result.status();
      p->judged = true;
    }
    return absl::OkStatus();
  };
  // SQLite runs a statement when it is sent, so nothing is gained by
  // sending ahead, and its statements of one SQL text share one prepared
  // statement: there, one call at a time, its audit entry made at once.
  const bool ahead = c.engine() == Engine::kPostgres;
  for (size_t i = 0;; ++i) {
    if (i == batch.size()) {
      PendingIssue* p = NextWaiting(batch.size());
      if (p == nullptr) {
        // The writes sent are answered while calls on their way come.
        GORANK_RETURN_IF_ERROR(finish());
        p = NextInBatch(plan, batch.size(), waited);
      }
      if (p == nullptr) break;
      take(p);
    }
    if (ahead) {
      while (PendingIssue* q = NextWaiting(batch.size())) take(q);
    }
    for (size_t j = i; j < (ahead ? batch.size() : i + 1); ++j) {
      if (reads[j]) continue;
      // A call with the request id of one before it in the batch looks
      // it up when judged, after that one's writes.
      const Certificate& draft = batch[j]->plan->draft;
      bool prior = true;
      for (size_t k = 0; k < j && prior; ++k) {
        const Certificate& earlier = batch[k]->plan->draft;
        prior = draft.request_id.empty() ||
                StoredRequestKey(earlier) != StoredRequestKey(draft);
      }
      GORANK_ASSIGN_OR_RETURN(
          IssueReads r, SendIssueReads(c, *batch[j]->plan, prior, so_far));
      reads[j] = std::move(r);
    }
    PendingIssue* p = batch[i];
    GORANK_ASSIGN_OR_RETURN(IssueStep step,
                            IssueWrites(c, *p->plan, *reads[i], so_far));
    reads[i].reset();
    if (!step.refusal.ok() || step.replay) {
      if (step.replay) {
        p->result = *std::move(step.replay);
      } else {
        p->result = std::move(step.refusal);
      }
      p->judged = true;
      continue;
    }
    // A holder's rank set: the reads of the later calls for that holder,
    // sent before it, are sent again (a rank change writes no other row
    // that a call reads).
    if (step.sent->holder_changed) {
      for (size_t j = i + 1; j < batch.size(); ++j) {
        if (batch[j]->plan->draft.player_id == p->plan->draft.player_id) {
          reads[j].reset();
        }
      }
    }
    sent[i] = std::move(step.sent);
    if (!ahead) GORANK_RETURN_IF_ERROR(finish());
  }
  return finish();
}

std::vector<SqlCertificateRepository::PendingIssue*>
SqlCertificateRepository::WriteBatch(const BatchPlan& plan) {
  constexpr char kSavepoint[] = "SAVEPOINT issue";
  constexpr char kReleaseAndSavepoint[] =
      "RELEASE SAVEPOINT issue; SAVEPOINT issue";
  std::vector<PendingIssue*> batch;
  bool waited = false;
  // The first attempt runs every call in the transaction itself, without
  // savepoints (on PostgreSQL two statements and a subtransaction fewer a
  // call). A call is judged on reads alone (IssueWrites), so a refused call
  // has written nothing and the others go on. Every call waiting is taken
  // as soon as it is there and its reads sent behind the writes sent
  // before it: on PostgreSQL one round trip carries the reads of the calls
  // that came meanwhile, the next their writes and their audit entries'
  // reads, and the entries are made in the calls' order once those are
  // answered (FinishIssue). A call that fails once it has begun to write
  // (an appraisal no longer pending, a statement refused by the database, a
  // row written that was not named ahead) rolls the transaction back, and
  // the calls taken are written again, from the start, in the second mode.
  bool again = false;
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    absl::Status written = WriteFirstAttempt(c, plan, &waited, batch);
    // Not written (a commit that fails is not tried again: it may have
    // been done): every call taken is written again in the second mode
    // (below), each answered alone.
    again = !written.ok() && !batch.empty();
    return written;
  });
  if (again) {
    // The second mode: each call in a savepoint, rolled back alone when
    // refused; the release of one savepoint and the next one's start go in
    // one Exec (one round trip), and the commit releases the last. The
    // calls taken are judged again, in their order, before any new one.
    std::vector<PendingIssue*> taken = std::exchange(batch, {});
    for (PendingIssue* p : taken) p->judged = false;
    {
      std::lock_guard<std::mutex> lock(batch_mu_);
      ++rewritten_;
    }
    s = db_->Write([&](Connection& c) -> absl::Status {
      GORANK_RETURN_IF_ERROR(c.Exec(kSavepoint));
      size_t next_taken = 0;
      while (true) {
        PendingIssue* p = next_taken < taken.size()
                              ? taken[next_taken++]
                              : NextInBatch(plan, batch.size(), &waited);
        if (p == nullptr) break;
        if (!batch.empty())
          GORANK_RETURN_IF_ERROR(c.Exec(kReleaseAndSavepoint));
        batch.push_back(p);
        p->result = IssueIn(c, *p->plan);
        p->judged = true;
        if (!p->result.ok()) GORANK_RETURN_IF_ERROR(c.RollbackTo("issue"));
      }
      return absl::OkStatus();
    });
    // A call of the first attempt that the second did not reach (its
    // transaction failed before) gets the second's error.
    for (size_t i = batch.size(); i < taken.size(); ++i) {
      batch.push_back(taken[i]);
    }
  }
  if (!s.ok()) {
    // Nothing was committed: a refusal stays the answer of its call, every
    // other call gets the transaction's error.
    for (PendingIssue* p : batch) {
      if (!p->judged || p->result.ok()) p->result = s;
    }
  }
  if (batch.empty()) {
    // The transaction could not begin (the write was refused): the calls
    // waiting, the leader's among them, get its error.
    std::lock_guard<std::mutex> lock(batch_mu_);
    while (!waiting_.empty() && static_cast<int>(batch.size()) < max_batch_) {
      batch.push_back(waiting_.front());
      waiting_.pop_front();
      batch.back()->result = s.ok() ? absl::InternalError("empty batch") : s;
    }
  }
  return batch;
}

absl::StatusOr<Certificate> SqlCertificateRepository::GetCertificate(
    const CertificateNumber& n) {
  std::optional<Certificate> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(out, FindOne(c, kCertByNumber, n.ToString()));
    return absl::OkStatus();
  }));
  if (!out) return absl::NotFoundError("no certificate " + n.ToString());
  return *out;
}

absl::StatusOr<std::optional<Certificate>>
SqlCertificateRepository::FindByRequestId(const std::string& scope,
                                          const std::string& request_id) {
  std::optional<Certificate> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(
        out, FindOne(c, kCertByRequest, scope + ":" + request_id));
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<Certificate>>
SqlCertificateRepository::ListCertificates(
    const certificates::CertificateFilter& f) {
  std::vector<Certificate> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListCerts));
    st->Bind(1, f.after_number)
        .Bind(2, f.agency_prefix)
        .Bind(3, int64_t{f.year})
        .Bind(4, f.player_id ? f.player_id->value : int64_t{0})
        .Bind(5, int64_t{f.only_pending_notice ? 1 : 0})
        .Bind(6, int64_t{f.limit});
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(ReadCertificate(*st));
    }
  }));
  return out;
}

absl::Status SqlCertificateRepository::SettleNotice(
    const CertificateNumber& n, const std::optional<RankHistoryEntry>& change,
    const std::optional<registry::Rank>& rank_before,
    const ChangeRecord& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kSettle));
    st->Bind(1, n.ToString()).Bind(2, registry_sql::OrdinalOf(rank_before));
    GORANK_RETURN_IF_ERROR(st->Run());
    if (c.Changes() == 0) {
      return absl::FailedPreconditionError("certificate " + n.ToString() +
                                           " is already settled or revoked");
    }
    st.reset();
    if (change)
      GORANK_RETURN_IF_ERROR(
          registry_sql::WriteRankChange(c, *change).status());
    return AppendAudit(c, audit).status();
  });
}

absl::Status SqlCertificateRepository::Revoke(
    const CertificateNumber& n, int64_t revoked_unix, const std::string& reason,
    const std::optional<RankHistoryEntry>& change, const ChangeRecord& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kRevoke));
    st->Bind(1, n.ToString()).Bind(2, revoked_unix).Bind(3, reason);
    GORANK_RETURN_IF_ERROR(st->Run());
    if (c.Changes() == 0) {
      return absl::FailedPreconditionError("certificate " + n.ToString() +
                                           " is already revoked");
    }
    st.reset();
    if (change)
      GORANK_RETURN_IF_ERROR(
          registry_sql::WriteRankChange(c, *change).status());
    return AppendAudit(c, audit).status();
  });
}

absl::StatusOr<int64_t> SqlCertificateRepository::InsertObjection(
    const Objection& o, const ChangeRecord& audit) {
  int64_t id = 0;
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertObjection));
    st->Bind(1, o.number.ToString())
        .Bind(2, o.text)
        .Bind(3, o.contact)
        .Bind(4, o.lodged_unix);
    GORANK_RETURN_IF_ERROR(st->Run());
    id = c.LastInsertRowId();
    return AppendAudit(c, audit).status();
  });
  if (absl::IsFailedPrecondition(s)) {
    return absl::NotFoundError("no certificate " + o.number.ToString());
  }
  if (!s.ok()) return s;
  return id;
}

absl::StatusOr<Objection> SqlCertificateRepository::GetObjection(int64_t id) {
  std::optional<Objection> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kObjectionColumns));
    st->Bind(1, id);
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) out = ReadObjection(*st);
    return absl::OkStatus();
  }));
  if (!out) return absl::NotFoundError("no objection " + std::to_string(id));
  return *out;
}

absl::StatusOr<std::vector<Objection>> SqlCertificateRepository::ListObjections(
    const CertificateNumber& n) {
  std::vector<Objection> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kObjectionsByNumber));
    st->Bind(1, n.ToString());
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(ReadObjection(*st));
    }
  }));
  return out;
}

absl::StatusOr<std::vector<Objection>> SqlCertificateRepository::FindObjections(
    const certificates::ObjectionFilter& f) {
  std::vector<Objection> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kFindObjections));
    st->Bind(1, f.after_id)
        .Bind(2, int64_t{f.state ? static_cast<int>(*f.state) : 0})
        .Bind(3, f.number ? f.number->ToString() : std::string())
        .Bind(4, f.holder_agency)
        .Bind(5, int64_t{f.limit});
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      Objection o = ReadObjection(*st);
      o.grade = registry_sql::RankOf(st->Int(8));
      o.holder_name = st->Text(9);
      o.holder_agency_prefix = st->Text(10);
      out.push_back(std::move(o));
    }
  }));
  return out;
}

absl::Status SqlCertificateRepository::DecideObjection(
    int64_t id, ObjectionState state, const std::string& note, int64_t now_unix,
    const ChangeRecord& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kDecideObjection));
    st->Bind(1, id)
        .Bind(2, int64_t{static_cast<int>(state)})
        .Bind(3, now_unix)
        .Bind(4, note);
    GORANK_RETURN_IF_ERROR(st->Run());
    if (c.Changes() == 0) {
      return absl::FailedPreconditionError("objection " + std::to_string(id) +
                                           " is not open");
    }
    st.reset();
    if (state == ObjectionState::kUpheld) {
      GORANK_ASSIGN_OR_RETURN(auto get, c.Prepare(kObjectionColumns));
      get->Bind(1, id);
      GORANK_ASSIGN_OR_RETURN(bool row, get->Step());
      if (!row) return absl::InternalError("objection vanished");
      const std::string number = get->Text(1);
      get.reset();
      GORANK_ASSIGN_OR_RETURN(auto rev, c.Prepare(kRevoke));
      rev->Bind(1, number)
          .Bind(2, now_unix)
          .Bind(3, "objection upheld: " + note);
      GORANK_RETURN_IF_ERROR(rev->Run());
    }
    return AppendAudit(c, audit).status();
  });
}

absl::StatusOr<int64_t> SqlCertificateRepository::InsertAppraisal(
    const Appraisal& a, const ChangeRecord& audit) {
  int64_t id = 0;
  GORANK_RETURN_IF_ERROR(db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertAppraisal));
    st->Bind(1, a.player_id.value)
        .Bind(2, int64_t{a.grade.Ordinal()})
        .Bind(3, a.agency_prefix)
        .Bind(4, a.note)
        .Bind(5, a.recommended_by)
        .Bind(6, a.recommended_unix);
    GORANK_RETURN_IF_ERROR(st->Run());
    id = c.LastInsertRowId();
    return AppendAudit(c, audit).status();
  }));
  return id;
}

absl::StatusOr<Appraisal> SqlCertificateRepository::GetAppraisal(int64_t id) {
  std::optional<Appraisal> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kAppraisalById));
    st->Bind(1, id);
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) out = ReadAppraisal(*st);
    return absl::OkStatus();
  }));
  if (!out) return absl::NotFoundError("no appraisal " + std::to_string(id));
  return *out;
}

absl::StatusOr<std::vector<Appraisal>> SqlCertificateRepository::ListAppraisals(
    const std::string& agency_prefix, bool pending_only) {
  std::vector<Appraisal> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListAppraisals));
    st->Bind(1, agency_prefix).Bind(2, int64_t{pending_only ? 1 : 0});
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(ReadAppraisal(*st));
    }
  }));
  return out;
}

absl::StatusOr<std::vector<Appraisal>>
SqlCertificateRepository::ListAppraisalsAfter(const std::string& agency_prefix,
                                              bool pending_only,
                                              int64_t after_id, int limit) {
  std::vector<Appraisal> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListAppraisalsAfter));
    st->Bind(1, agency_prefix)
        .Bind(2, int64_t{pending_only ? 1 : 0})
        .Bind(3, after_id)
        .Bind(4, int64_t{limit});
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(ReadAppraisal(*st));
    }
  }));
  return out;
}

absl::Status SqlCertificateRepository::RejectAppraisal(
    int64_t id, const std::string& note, int64_t now_unix,
    const ChangeRecord& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kDecideAppraisal));
    st->Bind(1, id)
        .Bind(2, int64_t{static_cast<int>(AppraisalState::kRejected)})
        .Bind(3, now_unix)
        .Bind(4, note)
        .BindNull(5);
    GORANK_RETURN_IF_ERROR(st->Run());
    if (c.Changes() == 0) {
      return absl::FailedPreconditionError("appraisal " + std::to_string(id) +
                                           " is not pending");
    }
    return AppendAudit(c, audit).status();
  });
}

absl::Status SqlCertificateRepository::PutStockOrder(
    const StockOrder& o, const ChangeRecord& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPutStock));
    st->Bind(1, o.agency_prefix)
        .Bind(2, int64_t{o.year})
        .Bind(3, int64_t{o.quantity})
        .Bind(4, o.ordered_unix)
        .Bind(5, o.ordered_by);
    GORANK_RETURN_IF_ERROR(st->Run());
    if (c.Changes() == 0) {
      return absl::FailedPreconditionError(
          "the " + std::to_string(o.year) + " stock order of agency " +
          o.agency_prefix + " is already released and cannot be amended");
    }
    return AppendAudit(c, audit).status();
  });
}

absl::Status SqlCertificateRepository::ReleaseStockOrder(
    const std::string& prefix, int year, int64_t now_unix,
    const std::string& by, const ChangeRecord& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kReleaseStock));
    st->Bind(1, prefix).Bind(2, int64_t{year}).Bind(3, now_unix).Bind(4, by);
    GORANK_RETURN_IF_ERROR(st->Run());
    if (c.Changes() == 0) {
      return absl::FailedPreconditionError("no unreleased " +
                                           std::to_string(year) +
                                           " stock order of agency " + prefix);
    }
    return AppendAudit(c, audit).status();
  });
}

absl::StatusOr<StockOrder> SqlCertificateRepository::GetStockOrder(
    const std::string& prefix, int year) {
  std::optional<StockOrder> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(out, LoadStockOrder(c, prefix, year));
    return absl::OkStatus();
  }));
  if (!out) {
    return absl::NotFoundError("agency " + prefix + " has no stock order for " +
                               std::to_string(year));
  }
  return *out;
}

absl::StatusOr<int> SqlCertificateRepository::CountIssued(
    const std::string& prefix, int year) {
  int64_t n = 0;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(n, ScalarInt(c, kCountIssued, prefix, year));
    return absl::OkStatus();
  }));
  return static_cast<int>(n);
}

absl::StatusOr<certificates::ImportLookup>
SqlCertificateRepository::LookupForImport(
    const certificates::ImportLookupQuery& q) {
  certificates::ImportLookup out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    std::set<int64_t> ids;
    for (const std::string& n : q.numbers) {
      GORANK_ASSIGN_OR_RETURN(auto cert, FindOne(c, kCertByNumber, n));
      if (cert) {
        ids.insert(cert->player_id.value);
        out.certificates.emplace(n, std::move(*cert));
      }
    }
    for (const registry::PlayerId& id : q.player_ids) ids.insert(id.value);
    for (const std::string& rid : q.resident_ids) {
      if (out.by_resident_id.count(rid)) continue;
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPlayerByResidentId));
      st->Bind(1, rid);
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) continue;
      out.by_resident_id.emplace(rid, registry::PlayerId{st->Int(0)});
      ids.insert(st->Int(0));
    }
    std::set<std::string> any_agency;  // external ids asked of every agency
    std::set<std::pair<std::string, std::string>> asked;
    for (const auto& [agency, ext] : q.external_ids) {
      if (agency.empty()) {
        any_agency.insert(ext);
        continue;
      }
      if (!asked.insert({agency, ext}).second) continue;
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kExternalIdInAgency));
      st->Bind(1, agency).Bind(2, ext);
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) continue;
      out.by_external_id[ext].push_back(
          {st->Text(0), registry::PlayerId{st->Int(1)}});
      ids.insert(st->Int(1));
    }
    if (!any_agency.empty()) {
      // One pass over the table beats one probe per agency and id.
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kAllExternalIds));
      while (true) {
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (!row) break;
        const std::string agency = st->Text(0);
        const std::string ext = st->Text(1);
        if (!any_agency.count(ext) || asked.count({agency, ext})) continue;
        out.by_external_id[ext].push_back(
            {agency, registry::PlayerId{st->Int(2)}});
        ids.insert(st->Int(2));
      }
    }
    for (int64_t id : ids) {
      auto p = registry_sql::LoadPlayer(c, registry::PlayerId{id});
      if (absl::IsNotFound(p.status())) continue;
      if (!p.ok()) return p.status();
      out.players.emplace(id, std::move(*p));
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::Status SqlCertificateRepository::StoreImport(
    const certificates::ImportPlan& plan) {
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    for (const auto& item : plan.items) {
      const Certificate& cert = item.certificate;
      absl::Status inserted = InsertRow(c, cert);
      if (absl::IsAlreadyExists(inserted)) {
        return absl::AbortedError(
            "certificate " + cert.number.ToString() +
            " was stored by another call during the import; nothing "
            "was imported: run the import again");
      }
      GORANK_RETURN_IF_ERROR(inserted);
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertImported));
      st->Bind(1, cert.number.ToString())
          .Bind(2, plan.file_name)
          .Bind(3, plan.file_sha256)
          .Bind(4, int64_t{item.line})
          .Bind(5, plan.imported_unix);
      GORANK_RETURN_IF_ERROR(st->Run());
    }
    for (const RankHistoryEntry& e : plan.rank_changes) {
      absl::StatusOr<int64_t> w = registry_sql::WriteRankChange(c, e);
      if (absl::IsAborted(w.status())) {
        return absl::AbortedError(
            "the rank of player " + std::to_string(e.player_id.value) +
            " changed during the import; nothing was imported: run the "
            "import again");
      }
      GORANK_RETURN_IF_ERROR(w.status());
    }
    for (const auto& [key, serial] : plan.last_serials) {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kRaiseSerial));
      st->Bind(1, key.first)
          .Bind(2, int64_t{key.second})
          .Bind(3, int64_t{serial});
      GORANK_RETURN_IF_ERROR(st->Run());
    }
    return AppendAudit(c, plan.audit).status();
  });
  return s;
}

}  // namespace gorank::storage
