#include "services/registry/resident_id.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace gorank::registry {
namespace {

// Same first 17 digits except the sequence number, one for each check
// character (computed independently with ISO 7064 MOD 11-2).
TEST(ResidentIdTest, AcceptsEveryCheckCharacter) {
  const std::vector<std::pair<char, std::string>> cases = {
      {'0', "440305200801100180"}, {'1', "440305200801100041"},
      {'2', "440305200801100092"}, {'3', "440305200801100033"},
      {'4', "440305200801100084"}, {'5', "440305200801100025"},
      {'6', "440305200801100076"}, {'7', "440305200801100017"},
      {'8', "440305200801100068"}, {'9', "440305200801100009"},
      {'X', "44030520080110005X"}};
  for (const auto& [check, id] : cases) {
    EXPECT_EQ(ResidentIdCheckChar(id.substr(0, 17)), check) << id;
    absl::StatusOr<std::string> n = NormalizeResidentId(id);
    ASSERT_TRUE(n.ok()) << id << ": " << n.status();
    EXPECT_EQ(*n, id);
    EXPECT_EQ(ResidentIdBirthDate(*n), (Date{2008, 1, 10}));
  }
}

TEST(ResidentIdTest, AcceptsPublishedSamples) {
  // The standard's worked example and the residence-permit samples.
  for (const char* id : {"11010519491231002X", "810000199408230021",
                         "830000199201300022", "110101200002290018"}) {
    EXPECT_TRUE(NormalizeResidentId(id).ok()) << id;
  }
  EXPECT_EQ(ResidentIdBirthDate("11010519491231002X"), (Date{1949, 12, 31}));
  EXPECT_EQ(ResidentIdBirthDate("110101200002290018"), (Date{2000, 2, 29}));
}

TEST(ResidentIdTest, NormalisesLowercaseXAndSpaces) {
  EXPECT_EQ(*NormalizeResidentId("44030520080110005x"), "44030520080110005X");
  EXPECT_EQ(*NormalizeResidentId("  44030520080110005X "),
            "44030520080110005X");
}

struct BadCase {
  std::string id;
  std::string message_part;  // what the message must name
};

class ResidentIdRejectTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(ResidentIdRejectTest, IsInvalidArgumentWithoutEchoingTheNumber) {
  const BadCase& c = GetParam();
  absl::StatusOr<std::string> n = NormalizeResidentId(c.id);
  ASSERT_FALSE(n.ok()) << c.id;
  EXPECT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string msg(n.status().message());
  EXPECT_NE(msg.find(c.message_part), std::string::npos) << msg;
  if (c.id.size() >= 6) {
    // The number is sensitive: never repeated in an error message.
    EXPECT_EQ(msg.find(c.id), std::string::npos) << msg;
  }
}

INSTANTIATE_TEST_SUITE_P(
    BadNumbers, ResidentIdRejectTest,
    ::testing::Values(
        BadCase{"440305200801100181", "check character"},  // should end in 0
        BadCase{"44030520080110005Y", "check character"},
        BadCase{"440305200801100050", "check character"},  // X expected
        BadCase{"440305200802300010", "birth date"},       // 30 February
        BadCase{"440305200813010019", "birth date"},       // month 13
        BadCase{"440305000001010017", "birth date"},       // year 0
        BadCase{"440305202302290011", "birth date"},       // 2023 not leap
        BadCase{"44030520080110005", "18 characters"},     // 17
        BadCase{"44030520080110005X1", "18 characters"},   // 19
        BadCase{"440305080110005", "18 characters"},       // old 15-digit form
        BadCase{"", "18 characters"}, BadCase{"44030520080110A05X", "digits"},
        BadCase{"4403052008X110005X", "digits"},
        BadCase{"440305-2008011005X", "digits"},
        BadCase{"４40305200801100180", "18 characters"}));  // full-width digit

TEST(ResidentIdTest, LeapDayIsAValidBirthDate) {
  EXPECT_TRUE(NormalizeResidentId("440305202402290019").ok());
}

}  // namespace
}  // namespace gorank::registry
