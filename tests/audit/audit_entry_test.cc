#include "services/audit/audit_entry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace gorank::audit {
namespace {

using ::testing::HasSubstr;

AuditEntry Sample() {
  return AuditEntry{1767225600,
                    "agency:110/token:7",
                    "player.register",
                    "player:42",
                    "",
                    R"({"name":"张三","rank":"3d"})"};
}

TEST(AuditEntryTest, EncodesCanonicalBytes) {
  EXPECT_EQ(Sample().Encode().value(),
            R"({"action":"player.register","actor":"agency:110/token:7",)"
            R"("after":"{\"name\":\"张三\",\"rank\":\"3d\"}","before":"",)"
            R"("subject":"player:42","time":1767225600,"v":1})");
}

TEST(AuditEntryTest, FromChangeCopiesEveryField) {
  ChangeRecord change{5,         "system", "registry.seed_regions",
                      "regions", "",       "[1,2]"};
  EXPECT_EQ(AuditEntry::FromChange(change),
            (AuditEntry{5, "system", "registry.seed_regions", "regions", "",
                        "[1,2]"}));
}

TEST(AuditEntryTest, RoundTripsAwkwardValues) {
  const std::vector<AuditEntry> entries = {
      Sample(),
      {0, "a", "b", "", "", ""},
      {-5, "x\"y\\z", "tab\there", "line\nbreak\x01", "[]", "null"},
      {INT64_MAX, "用户", "证书.签发", "certificate:110250001",
       "{ \"spaced\" : true }", "{\"b\":1,\"a\":2}"},
  };
  for (const AuditEntry& entry : entries) {
    absl::StatusOr<std::string> bytes = entry.Encode();
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    absl::StatusOr<AuditEntry> decoded = AuditEntry::Decode(*bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.status() << " " << *bytes;
    EXPECT_EQ(*decoded, entry);
    EXPECT_EQ(decoded->Encode().value(), *bytes);
  }
}

TEST(AuditEntryTest, EncodeRejectsInvalidEntries) {
  struct Case {
    const char* name;
    AuditEntry entry;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"no actor", {1, "", "a", "s", "", ""}, "actor and an action"},
      {"no action", {1, "u", "", "s", "", ""}, "actor and an action"},
      {"bad UTF-8",
       {1, "u\xff", "a", "s", "", ""},
       "'actor' is not valid UTF-8"},
      {"before not JSON",
       {1, "u", "a", "s", "{oops", ""},
       "'before' must be empty or a JSON text"},
      {"after not JSON",
       {1, "u", "a", "s", "", "plain text"},
       "'after' must be empty or a JSON text"},
      // Invalid UTF-8 is named before the JSON check.
      {"after neither UTF-8 nor JSON",
       {1, "u", "a", "s", "", "\xc3("},
       "'after' is not valid UTF-8"},
      {"row name not UTF-8",
       {1, "u", "a", "s", "", "", {{"players:\xff", "d"}}},
       "'rows' is not valid UTF-8"},
  };
  for (const Case& c : cases) {
    absl::Status status = c.entry.Encode().status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(std::string(status.message()), HasSubstr(c.message)) << c.name;
  }
}

TEST(AuditEntryTest, DecodeAcceptsOnlyCanonicalBytes) {
  std::string good = Sample().Encode().value();
  std::string spaced = good;
  spaced.insert(1, " ");
  struct Case {
    const char* name;
    std::string bytes;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"not JSON", "hello", "not a JSON object"},
      {"array", "[1]", "not a JSON object"},
      {"missing field",
       R"({"action":"a","actor":"u","after":"","before":"","time":1,"v":1})",
       "no field 'subject'"},
      {"extra field",
       R"({"action":"a","actor":"u","after":"","before":"","subject":"","time":1,"v":1,"x":0})",
       "unknown fields"},
      {"version 2",
       R"({"action":"a","actor":"u","after":"","before":"","subject":"","time":1,"v":2})",
       "version is not 1"},
      {"time as string",
       R"({"action":"a","actor":"u","after":"","before":"","subject":"","time":"1","v":1})",
       "time is not an integer"},
      {"actor not a string",
       R"({"action":"a","actor":7,"after":"","before":"","subject":"","time":1,"v":1})",
       "'actor' is not a string"},
      {"white space", spaced, "not in canonical form"},
      {"key order",
       R"({"actor":"u","action":"a","after":"","before":"","subject":"","time":1,"v":1})",
       "not in canonical form"},
      {"escaped slash",
       R"({"action":"a\/b","actor":"u","after":"","before":"","subject":"","time":1,"v":1})",
       "not in canonical form"},
  };
  for (const Case& c : cases) {
    absl::Status status = AuditEntry::Decode(c.bytes).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(std::string(status.message()), HasSubstr(c.message)) << c.name;
  }
}

}  // namespace
}  // namespace gorank::audit
