#include "storage/sql_token_repository.h"

#include "services/common/status_macros.h"
#include "storage/audit_log.h"

namespace gorank::storage {

using auth::TokenRecord;

namespace {

constexpr char kInsertToken[] =
    "INSERT INTO tokens(hash, role, agency_prefix, label, created_unix) "
    "VALUES(?1, ?2, ?3, ?4, ?5)";
constexpr char kTokenByHash[] =
    "SELECT id, hash, role, agency_prefix, label, created_unix, revoked_unix "
    "FROM tokens WHERE hash = ?1";
constexpr char kTokenById[] =
    "SELECT id, hash, role, agency_prefix, label, created_unix, revoked_unix "
    "FROM tokens WHERE id = ?1";
constexpr char kListTokens[] =
    "SELECT id, hash, role, agency_prefix, label, created_unix, revoked_unix "
    "FROM tokens ORDER BY id";
constexpr char kRevokeToken[] =
    "UPDATE tokens SET revoked_unix = ?2 WHERE id = ?1 AND revoked_unix = 0";

TokenRecord ReadToken(const Statement& st) {
  TokenRecord t;
  t.id = st.Int(0);
  t.hash = st.Text(1);
  t.role = static_cast<auth::Role>(st.Int(2));
  t.agency_prefix = st.OptText(3).value_or("");
  t.label = st.Text(4);
  t.created_unix = st.Int(5);
  t.revoked_unix = st.Int(6);
  return t;
}

}  // namespace

absl::StatusOr<int64_t> SqlTokenRepository::InsertToken(
    const TokenRecord& t, const ChangeRecord& change) {
  int64_t id = 0;
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertToken));
    st->Bind(1, t.hash)
        .Bind(2, int64_t{static_cast<int>(t.role)})
        .Bind(3, t.agency_prefix.empty()
                     ? std::nullopt
                     : std::optional<std::string>(t.agency_prefix))
        .Bind(4, t.label)
        .Bind(5, t.created_unix);
    GORANK_RETURN_IF_ERROR(st->Run());
    id = c.LastInsertRowId();
    ChangeRecord audited = change;
    audited.subject = "token:" + std::to_string(id);
    return AppendAudit(c, audited).status();
  });
  if (absl::IsFailedPrecondition(s)) {
    return absl::NotFoundError("no agency with prefix " + t.agency_prefix);
  }
  if (!s.ok()) return s;
  return id;
}

absl::StatusOr<std::optional<TokenRecord>> SqlTokenRepository::FindTokenByHash(
    const std::string& hash) {
  std::optional<TokenRecord> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kTokenByHash));
    st->Bind(1, hash);
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) out = ReadToken(*st);
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<TokenRecord> SqlTokenRepository::GetToken(int64_t id) {
  TokenRecord out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kTokenById));
    st->Bind(1, id);
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row)
      return absl::NotFoundError("no token with id " + std::to_string(id));
    out = ReadToken(*st);
    return absl::OkStatus();
  }));
  return out;
}

absl::Status SqlTokenRepository::RevokeToken(int64_t id, int64_t revoked_unix,
                                             const ChangeRecord& change) {
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kRevokeToken));
    st->Bind(1, id).Bind(2, revoked_unix);
    GORANK_RETURN_IF_ERROR(st->Run());
    if (c.Changes() == 0) {
      return absl::NotFoundError("no valid token with id " +
                                 std::to_string(id));
    }
    return AppendAudit(c, change).status();
  });
}

absl::StatusOr<std::vector<TokenRecord>> SqlTokenRepository::ListTokens() {
  std::vector<TokenRecord> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListTokens));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(ReadToken(*st));
    }
  }));
  return out;
}

}  // namespace gorank::storage
