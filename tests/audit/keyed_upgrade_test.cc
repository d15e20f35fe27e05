// A registry written by an older rankd (unkeyed SHA-256 row digests, no
// entry links) opened by this one: its log passes rankd's own check and its
// tables verify against the old digests; the entries written from then on
// carry keyed digests and the link to the entry before; a row of the old
// log altered behind it is still found.
#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/audit/audit_entry.h"
#include "services/audit/audit_trail.h"
#include "services/audit/keyed_digest.h"
#include "services/common/clock.h"
#include "services/registry/player_registry.h"
#include "storage/database.h"
#include "storage/sql_audit_repository.h"
#include "storage/sql_registry_repository.h"
#include "tests/testing/temp_dir.h"

namespace gorank::audit {
namespace {

using ::testing::HasSubstr;

// Registers `name` through the registry as the national admin.
void Register(storage::Database* db, FakeClock* clock,
              const std::string& name) {
  storage::SqlRegistryRepository repo(db);
  registry::PlayerRegistry players(&repo, clock);
  registry::PlayerDraft d;
  d.name = name;
  d.agency_prefix = "110";
  d.gender = registry::Gender::kFemale;
  d.birth_date = Date{1992, 7, 8};
  auto p = players.Register(auth::Caller{auth::Role::kNationalAdmin, "", 1}, d);
  ASSERT_TRUE(p.ok()) << p.status();
}

std::string LastEntry(storage::SqlAuditRepository& repo) {
  const int64_t size = repo.LogSize().value();
  return repo.Entries(size - 1, size).value().at(0);
}

TEST(KeyedUpgradeTest, AnOldLogVerifiesAndNewEntriesAreKeyedAndLinked) {
  testing::TempDir dir;
  const std::string path = dir.File("rankd.db");
  const SigningKey key = SigningKey::FromSeed(std::string(32, 'u')).value();
  FakeClock clock;
  clock.SetDate(Date{2025, 3, 3});
  {  // The older rankd: no row-digest key.
    auto db = storage::Database::Open(path);
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_NO_FATAL_FAILURE(Register(db->get(), &clock, "旧一"));
    ASSERT_NO_FATAL_FAILURE(Register(db->get(), &clock, "旧二"));
    storage::SqlAuditRepository repo(db->get());
    EXPECT_FALSE(IsKeyedDigest(
        AuditEntry::Decode(LastEntry(repo))->rows.begin()->second));
    AuditTrail trail(&repo, &key, &clock);
    ASSERT_TRUE(trail.SignCheckpointNow().ok());
  }
  storage::DatabaseOptions options;
  options.row_digest_key = RowDigestKey(key);
  auto db = storage::Database::Open(path, options);
  ASSERT_TRUE(db.ok()) << db.status();
  storage::SqlAuditRepository repo(db->get());
  AuditTrail trail(&repo, &key, &clock);
  auto check = trail.CheckLog();
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_TRUE(check->ok) << check->reason;
  auto tables = trail.VerifyTables();
  ASSERT_TRUE(tables.ok()) << tables.status();
  EXPECT_TRUE(tables->mismatches.empty()) << tables->mismatches[0].row;

  const int64_t before = repo.LogSize().value();
  ASSERT_NO_FATAL_FAILURE(Register(db->get(), &clock, "新三"));
  auto entry = AuditEntry::Decode(LastEntry(repo));
  ASSERT_TRUE(entry.ok()) << entry.status();
  ASSERT_TRUE(entry->rows.count(
      ChainRowName(before)));  // linked to the old log's last entry
  for (const auto& [row, digest] : entry->rows)
    EXPECT_TRUE(IsKeyedDigest(digest)) << row;
  ASSERT_TRUE(trail.SignCheckpointNow().ok());
  tables = trail.VerifyTables();
  ASSERT_TRUE(tables.ok()) << tables.status();
  EXPECT_TRUE(tables->mismatches.empty());

  // A player of the old log renamed behind it.
  ASSERT_TRUE((*db)
                  ->Write([](storage::Connection& c) {
                    return c.Exec(
                        "UPDATE players SET name = '改名' WHERE name = '旧一'");
                  })
                  .ok());
  tables = trail.VerifyTables();
  ASSERT_TRUE(tables.ok()) << tables.status();
  ASSERT_EQ(tables->mismatches.size(), 1u);
  EXPECT_THAT(tables->mismatches[0].reason, HasSubstr("row differs"));
}

}  // namespace
}  // namespace gorank::audit
