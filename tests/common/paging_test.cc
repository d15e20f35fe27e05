#include "services/common/paging.h"

#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gorank {
namespace {

using ::testing::HasSubstr;

constexpr PageSpec kSpec{50, 200};

PageQuery Reviews(const std::string& prefix, int64_t year) {
  return PageQuery("ListReviews").With("agency", prefix).With("year", year);
}

TEST(PageSizeTest, ZeroIsTheDefaultAndTheMaximumIsAccepted) {
  EXPECT_EQ(ReadPage(kSpec, Reviews("", 0), "i", 0, "")->size, 50);
  EXPECT_EQ(ReadPage(kSpec, Reviews("", 0), "i", 1, "")->size, 1);
  EXPECT_EQ(ReadPage(kSpec, Reviews("", 0), "i", 200, "")->size, 200);
  EXPECT_EQ(ReadPage(kSpec, Reviews("", 0), "i", 7, "")->FetchLimit(), 8);
  EXPECT_FALSE(ReadPage(kSpec, Reviews("", 0), "i", 0, "")->after);
}

TEST(PageSizeTest, OutsideTheRangeIsInvalidArgumentNamingIt) {
  for (int32_t size : {-1, 201, 1 << 30}) {
    auto r = ReadPage(kSpec, Reviews("", 0), "i", size, "");
    ASSERT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << size;
    EXPECT_THAT(std::string(r.status().message()),
                HasSubstr("page_size must be 0..200 (0: 50), got " +
                          std::to_string(size)));
  }
}

TEST(PageTokenTest, RoundTripOfEveryKindOfKey) {
  const PageQuery q = Reviews("110", 2025);
  std::vector<PageKey> keys;
  keys.push_back(PageKey().Add(42));
  keys.push_back(PageKey().Add(-1).Add(INT64_MAX).Add(INT64_MIN));
  keys.push_back(PageKey().Add("110250001"));
  keys.push_back(PageKey().Add("2025-03-01").Add(7));
  keys.push_back(PageKey().Add(std::string("a\0b", 3)).Add(""));
  for (const PageKey& key : keys) {
    const std::string token = EncodePageToken(q, key);
    EXPECT_EQ(token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm"
                                      "nopqrstuvwxyz0123456789-_"),
              std::string::npos)
        << token;
    auto r = ReadPage(kSpec, q, key.Shape(), 10, token);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->size, 10);
    ASSERT_TRUE(r->after);
    EXPECT_TRUE(*r->after == key);
  }
}

TEST(PageTokenTest, ForgedOrDamagedTokensAreRefused) {
  const PageQuery q = Reviews("", 0);
  const std::string good = EncodePageToken(q, PageKey().Add(42));
  std::string record;
  ASSERT_TRUE(absl::WebSafeBase64Unescape(good, &record));
  std::string changed_key = record;
  changed_key[10] ^= 1;  // inside the key, check not recomputed
  std::string other_version = record;
  other_version[0] = 2;
  const std::vector<std::string> bad = {
      "42",  // the old decimal tokens
      "x1",  // not base64url
      good + "=",
      good.substr(0, good.size() - 2),
      absl::WebSafeBase64Escape(changed_key),
      absl::WebSafeBase64Escape(other_version),
      absl::WebSafeBase64Escape("garbage that is long enough"),
      std::string(4000, 'A'),
  };
  for (const std::string& token : bad) {
    auto r = ReadPage(kSpec, q, "i", 0, token);
    ASSERT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << token;
    EXPECT_THAT(std::string(r.status().message()),
                HasSubstr("page_token is not one this server gave"));
  }
}

TEST(PageTokenTest, AKeyOfAnotherShapeIsRefused) {
  const PageQuery q = Reviews("", 0);
  const std::string token = EncodePageToken(q, PageKey().Add("110250001"));
  auto r = ReadPage(kSpec, q, "i", 0, token);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("another kind of key"));
}

TEST(PageTokenTest, ATokenOfAnotherQueryIsRefused) {
  const std::string token =
      EncodePageToken(Reviews("110", 2025), PageKey().Add(42));
  const std::vector<PageQuery> others = {
      Reviews("120", 2025),
      Reviews("110", 2024),
      Reviews("", 0),
      PageQuery("ListAppraisals").With("agency", "110").With("year", 2025),
      // Values that run together differently must not collide.
      PageQuery("ListReviews").With("agency", "1102025").With("year", 0),
  };
  for (const PageQuery& q : others) {
    auto r = ReadPage(kSpec, q, "i", 0, token);
    ASSERT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(r.status().message()),
                HasSubstr("page_token belongs to another query"));
  }
  EXPECT_TRUE(ReadPage(kSpec, Reviews("110", 2025), "i", 0, token).ok());
}

TEST(PageTokenTest, FingerprintsAreStable) {
  // Tokens outlive the process: every rankd on one database must read them.
  EXPECT_EQ(PageQuery("L").Fingerprint(), PageQuery("L").Fingerprint());
  EXPECT_NE(PageQuery("L").With("a", "").Fingerprint(),
            PageQuery("L").With("a", int64_t{0}).Fingerprint());
  EXPECT_EQ(EncodePageToken(PageQuery("L"), PageKey().Add(1)),
            EncodePageToken(PageQuery("L"), PageKey().Add(1)));
}

struct Row {
  int64_t id;
};

TEST(CutPageTest, KeepsTheSizeAndNamesTheLastRowKept) {
  const PageQuery q("ListThings");
  PageRequest request = *ReadPage(kSpec, q, "i", 2, "");
  auto page = CutPage(std::vector<Row>{{1}, {2}, {3}}, request, q,
                      [](const Row& r) { return PageKey().Add(r.id); });
  ASSERT_EQ(page.rows.size(), 2u);
  EXPECT_EQ(page.rows.back().id, 2);
  auto next = ReadPage(kSpec, q, "i", 2, page.next_page_token);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->after->Int(0), 2);

  auto last = CutPage(std::vector<Row>{{3}, {4}}, request, q,
                      [](const Row& r) { return PageKey().Add(r.id); });
  EXPECT_EQ(last.rows.size(), 2u);
  EXPECT_EQ(last.next_page_token, "");
}

}  // namespace
}  // namespace gorank
