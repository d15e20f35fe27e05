// TokenRepository over the Database wrapper (SQLite or PostgreSQL).
#ifndef GORANK_STORAGE_SQL_TOKEN_REPOSITORY_H_
#define GORANK_STORAGE_SQL_TOKEN_REPOSITORY_H_

#include "services/auth/token_repository.h"
#include "storage/database.h"

namespace gorank::storage {

// Thread-safe. Does not own the database.
class SqlTokenRepository : public auth::TokenRepository {
 public:
  explicit SqlTokenRepository(Database* db) : db_(db) {}

  absl::StatusOr<int64_t> InsertToken(const auth::TokenRecord& token,
                                      const ChangeRecord& change) override;
  absl::StatusOr<std::optional<auth::TokenRecord>> FindTokenByHash(
      const std::string& hash) override;
  absl::StatusOr<auth::TokenRecord> GetToken(int64_t id) override;
  absl::Status RevokeToken(int64_t id, int64_t revoked_unix,
                           const ChangeRecord& change) override;
  absl::StatusOr<std::vector<auth::TokenRecord>> ListTokens() override;

 private:
  Database* db_;
};

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_SQL_TOKEN_REPOSITORY_H_
