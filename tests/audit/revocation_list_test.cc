// The signed revocation list (revocation_list.h): signing sorts and
// de-duplicates, the JSON form round trips, every tampering (an entry
// dropped, added or re-dated, the header changed, the signature or the key
// id altered) fails the check, and malformed JSON is INVALID_ARGUMENT
// naming the field.
#include "services/audit/revocation_list.h"

#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace gorank::audit {
namespace {

using nlohmann::json;

SigningKey Key(char c) { return *SigningKey::FromSeed(std::string(32, c)); }

RevocationList Sample(const SigningKey& key) {
  return SignRevocationList(
      42, 1765324800,
      {{"110250007", 300}, {"110250002", 100}, {"000260001", 500}}, key);
}

TEST(RevocationListTest, SigningSortsByNumberAndTheLastRevocationWins) {
  const SigningKey key = Key('a');
  const RevocationList list = SignRevocationList(
      7, 1000, {{"110250007", 300}, {"110250002", 100}, {"110250007", 400}},
      key);
  ASSERT_EQ(list.revoked.size(), 2u);
  EXPECT_EQ(list.revoked[0], (Revocation{"110250002", 100}));
  EXPECT_EQ(list.revoked[1], (Revocation{"110250007", 400}));
  EXPECT_EQ(list.key_id, key.KeyId());
  EXPECT_EQ(list.tree_size, 7);
  EXPECT_EQ(list.time_unix, 1000);
  EXPECT_EQ(list.signature.size(), 64u);
  EXPECT_TRUE(VerifyRevocationList(list, key.public_key()).ok);
  EXPECT_EQ(list.SignedBytes(),
            "gorank revocation list v1\n7\n1000\n"
            "110250002 100\n110250007 400\n");
}

TEST(RevocationListTest, EmptyListIsSignedToo) {
  const SigningKey key = Key('a');
  const RevocationList list = SignRevocationList(0, 5, {}, key);
  absl::StatusOr<RevocationList> back = RevocationList::FromJson(list.ToJson());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->revoked.empty());
  EXPECT_TRUE(VerifyRevocationList(*back, key.public_key()).ok);
  EXPECT_FALSE(back->Find("110250002").has_value());
}

TEST(RevocationListTest, JsonRoundTripsAndFinds) {
  const SigningKey key = Key('a');
  const RevocationList list = Sample(key);
  const std::string text = list.ToJson();
  const json j = json::parse(text);
  EXPECT_EQ(j["key_id"], key.KeyId());
  EXPECT_EQ(j["tree_size"], 42);
  EXPECT_EQ(j["revoked"][0]["number"], "000260001");
  absl::StatusOr<RevocationList> back = RevocationList::FromJson(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, list);
  EXPECT_TRUE(VerifyRevocationList(*back, key.public_key()).ok);
  for (const auto& [number, when] :
       {std::pair{"000260001", 500}, {"110250002", 100}, {"110250007", 300}}) {
    ASSERT_TRUE(back->Find(number).has_value()) << number;
    EXPECT_EQ(back->Find(number)->revoked_unix, when);
  }
  for (const char* absent :
       {"000000000", "110250001", "110250003", "999999999"}) {
    EXPECT_FALSE(back->Find(absent).has_value()) << absent;
  }
}

TEST(RevocationListTest, EveryTamperingFailsTheSignature) {
  const SigningKey key = Key('a');
  const RevocationList good = Sample(key);
  struct Case {
    const char* what;
    void (*alter)(RevocationList&);
  } cases[] = {
      {"entry dropped",
       [](RevocationList& l) { l.revoked.erase(l.revoked.begin() + 1); }},
      {"entry added",
       [](RevocationList& l) {
         l.revoked.push_back({"120250001", 9});
       }},
      {"entry re-dated",
       [](RevocationList& l) { l.revoked[0].revoked_unix++; }},
      {"number changed",
       [](RevocationList& l) { l.revoked[2].number = "110250008"; }},
      {"tree size", [](RevocationList& l) { l.tree_size = 43; }},
      {"time", [](RevocationList& l) { l.time_unix = 1; }},
      {"signature", [](RevocationList& l) { l.signature[10] ^= 1; }},
      {"signature short", [](RevocationList& l) { l.signature.pop_back(); }},
  };
  for (const Case& c : cases) {
    RevocationList bad = good;
    c.alter(bad);
    const Verdict v = VerifyRevocationList(bad, key.public_key());
    EXPECT_FALSE(v.ok) << c.what;
    EXPECT_NE(v.reason.find("altered"), std::string::npos)
        << c.what << ": " << v.reason;
  }
  // Through the JSON file as well: an entry removed from the text.
  json j = json::parse(good.ToJson());
  j["revoked"].erase(0);
  absl::StatusOr<RevocationList> edited = RevocationList::FromJson(j.dump());
  ASSERT_TRUE(edited.ok()) << edited.status();
  EXPECT_FALSE(VerifyRevocationList(*edited, key.public_key()).ok);
}

TEST(RevocationListTest, AnotherKeyIsNamedInTheReason) {
  const SigningKey key = Key('a');
  const SigningKey other = Key('b');
  const RevocationList list = Sample(key);
  Verdict v = VerifyRevocationList(list, other.public_key());
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.reason.find(key.KeyId()), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find(other.KeyId()), std::string::npos) << v.reason;
  // Relabelled with the other key's id, the signature still fails.
  RevocationList relabelled = list;
  relabelled.key_id = other.KeyId();
  v = VerifyRevocationList(relabelled, other.public_key());
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.reason.find("altered"), std::string::npos) << v.reason;
}

TEST(RevocationListTest, MalformedJsonIsInvalidArgumentNamingTheField) {
  const json good = json::parse(Sample(Key('a')).ToJson());
  struct Case {
    const char* field;  // expected in the message
    json doc;
  };
  std::vector<Case> cases;
  auto without = [&](const char* f) {
    json j = good;
    j.erase(f);
    return j;
  };
  auto with = [&](const char* f, json v) {
    json j = good;
    j[f] = std::move(v);
    return j;
  };
  cases.push_back({"key_id", without("key_id")});
  cases.push_back({"signature", without("signature")});
  cases.push_back({"signature", with("signature", "not base64!")});
  cases.push_back({"tree_size", without("tree_size")});
  cases.push_back({"tree_size", with("tree_size", "42")});
  cases.push_back({"time_unix", with("time_unix", 1.5)});
  cases.push_back({"time_unix", with("time_unix", json(uint64_t{1} << 63))});
  cases.push_back({"revoked", without("revoked")});
  cases.push_back({"revoked", with("revoked", json::object())});
  cases.push_back({"revoked", with("revoked", json::array({1}))});
  cases.push_back(
      {"revoked", with("revoked", json::array({{{"number", "12345"},
                                                {"revoked_unix", 1}}}))});
  cases.push_back(
      {"revoked", with("revoked", json::array({{{"number", "110250002"},
                                                {"revoked_unix", "1"}}}))});
  // Out of order, and a number twice.
  cases.push_back(
      {"revoked",
       with("revoked",
            json::array({{{"number", "110250007"}, {"revoked_unix", 1}},
                         {{"number", "110250002"}, {"revoked_unix", 1}}}))});
  cases.push_back(
      {"revoked",
       with("revoked",
            json::array({{{"number", "110250002"}, {"revoked_unix", 1}},
                         {{"number", "110250002"}, {"revoked_unix", 2}}}))});
  for (const Case& c : cases) {
    absl::StatusOr<RevocationList> l = RevocationList::FromJson(c.doc.dump());
    ASSERT_EQ(l.status().code(), absl::StatusCode::kInvalidArgument)
        << c.doc.dump();
    EXPECT_NE(l.status().message().find(std::string("'") + c.field + "'"),
              std::string::npos)
        << l.status();
  }
  for (const char* text : {"", "{", "[]", "42", "null"}) {
    EXPECT_EQ(RevocationList::FromJson(text).status().code(),
              absl::StatusCode::kInvalidArgument)
        << text;
  }
}

}  // namespace
}  // namespace gorank::audit
