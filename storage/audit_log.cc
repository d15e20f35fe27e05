#include "storage/audit_log.h"

#include <openssl/sha.h>

#include "nlohmann/json.hpp"
#include "services/common/status_macros.h"

namespace gorank::storage {
namespace {

constexpr char kInsertAudit[] =
    "INSERT INTO audit_log(entry, leaf_hash) VALUES(?1, ?2)";

std::string LeafHash(const std::string& entry) {
  std::string data(1, '\0');
  data += entry;
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), md);
  return std::string(reinterpret_cast<const char*>(md), sizeof md);
}

}  // namespace

std::string EncodeChange(const ChangeRecord& c) {
  // nlohmann's ordered_json keeps insertion order: the order below is the
  // canonical one.
  nlohmann::ordered_json j;
  j["time"] = c.time_unix;
  j["actor"] = c.actor;
  j["action"] = c.action;
  j["subject"] = c.subject;
  j["before"] = c.before;
  j["after"] = c.after;
  return j.dump();
}

absl::StatusOr<int64_t> AppendAudit(Connection& conn, const ChangeRecord& change) {
  const std::string entry = EncodeChange(change);
  GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(kInsertAudit));
  st->BindBlob(1, entry).BindBlob(2, LeafHash(entry));
  GORANK_RETURN_IF_ERROR(st->Run());
  return conn.LastInsertRowId();
}

}  // namespace gorank::storage
