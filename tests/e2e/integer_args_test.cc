// rankctl's integer arguments without the binary: what RequireDecimalIntegers
// lets through is read as decimal (CLI11 alone reads "010" as 8 and "0x10"
// as 16), on options, positionals, vectors and subcommands, and
// ParseDecimal's table.
#include "services/cli/integer_args.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "gtest/gtest.h"

namespace gorank::cli {
namespace {

struct Parsed {
  int64_t id = -1;
  int32_t year = -1;
  std::vector<int64_t> players;
  uint32_t count = 0;
};

// Parses `args` with a subcommand "cmd" holding the options; "" when parsing
// succeeded, else CLI11's message.
std::string Parse(std::vector<std::string> args, Parsed* out) {
  CLI::App app;
  auto* cmd = app.add_subcommand("cmd");
  cmd->add_option("id", out->id);
  cmd->add_option_function<int32_t>("--year",
                                    [out](int32_t v) { out->year = v; });
  cmd->add_option("--player", out->players);
  cmd->add_option("--count", out->count);
  RequireDecimalIntegers(app);
  args.insert(args.begin(), "cmd");
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(IntegerArgsTest, LeadingZerosAreDecimal) {
  Parsed p;
  ASSERT_EQ(Parse({"010", "--year", "02026", "--player", "08", "--player",
                   "-010", "--count", "007"},
                  &p),
            "");
  EXPECT_EQ(p.id, 10);
  EXPECT_EQ(p.year, 2026);
  EXPECT_EQ(p.players, (std::vector<int64_t>{8, -10}));
  EXPECT_EQ(p.count, 7u);
}

TEST(IntegerArgsTest, AnythingElseNamesTheArgument) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"0x10"}, "id: '0x10' is not a whole number"},
      {{"1", "--year", "abc"}, "--year: 'abc' is not a whole number"},
      {{"1", "--year", "99999999999"},
       "--year"},  // past int32: CLI11's range check
      {{"99999999999999999999"}, "id: '99999999999999999999'"},
      {{"1", "--player", "1", "--player", "2x"}, "--player: '2x'"},
      {{"1", "--count", "-1"}, "--count: '-1' is not a whole number >= 0"},
      {{"+1"}, "id: '+1'"},
      {{"1.0"}, "id: '1.0'"},
  };
  for (const auto& [args, message] : cases) {
    Parsed p;
    const std::string error = Parse(args, &p);
    EXPECT_NE(error.find(message), std::string::npos)
        << args[0] << ": " << error;
  }
}

TEST(IntegerArgsTest, ParseDecimalTable) {
  int32_t v = 0;
  EXPECT_TRUE(ParseDecimal("2147483647", &v));
  EXPECT_EQ(v, 2147483647);
  EXPECT_TRUE(ParseDecimal("-2147483648", &v));
  EXPECT_FALSE(ParseDecimal("2147483648", &v));
  for (const char* bad : {"", " 1", "1 ", "+1", "0x1", "1e3", "--1", "-"}) {
    EXPECT_FALSE(ParseDecimal(bad, &v)) << "'" << bad << "'";
  }
  uint16_t u = 0;
  EXPECT_FALSE(ParseDecimal("-1", &u));
  EXPECT_TRUE(ParseDecimal("65535", &u));
  EXPECT_FALSE(ParseDecimal("65536", &u));
}

}  // namespace
}  // namespace gorank::cli
