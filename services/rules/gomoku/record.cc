#include "services/rules/gomoku/record.h"

#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "services/common/status_macros.h"

namespace gorank::rules::gomoku {
namespace {

std::string Trim(const std::string& s) {
  size_t b = 0;
  size_t e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string Lower(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool Contains(const std::string& s, const char* part) {
  return s.find(part) != std::string::npos;
}

RecordedResult::Reason LatinReason(const std::string& reason) {
  using Reason = RecordedResult::Reason;
  if (reason == "r" || reason == "resign") return Reason::kResignation;
  if (reason == "t" || reason == "time") return Reason::kTime;
  if (reason == "f" || reason == "forfeit") return Reason::kForfeit;
  if (reason == "foul" || reason == "forbidden") return Reason::kForbiddenMove;
  return Reason::kUnspecified;
}

RecordedResult ChineseResult(RecordedResult result, const std::string& s) {
  using Kind = RecordedResult::Kind;
  using Reason = RecordedResult::Reason;
  if (Contains(s, "禁手")) {
    result.kind = Kind::kWhiteWins;
    result.reason = Reason::kForbiddenMove;
  } else if (Contains(s, "黑方认输") || Contains(s, "黑认输")) {
    result.kind = Kind::kWhiteWins;
    result.reason = Reason::kResignation;
  } else if (Contains(s, "白方认输") || Contains(s, "白认输")) {
    result.kind = Kind::kBlackWins;
    result.reason = Reason::kResignation;
  } else if (Contains(s, "黑胜")) {
    result.kind = Kind::kBlackWins;
  } else if (Contains(s, "白胜")) {
    result.kind = Kind::kWhiteWins;
  } else if (Contains(s, "和棋") || Contains(s, "和局") ||
             Contains(s, "平局")) {
    result.kind = Kind::kDraw;
  }
  return result;
}

absl::StatusOr<std::string> SingleValue(const SgfProperty& property) {
  if (property.values.size() != 1) {
    return absl::InvalidArgumentError("SGF " + property.position.ToString() +
                                      ": property " + property.id + " has " +
                                      std::to_string(property.values.size()) +
                                      " values; expected exactly one");
  }
  return property.values[0];
}

absl::Status CheckRoot(const SgfNode& root, GameRecord& record) {
  struct Text {
    const char* id;
    std::string* target;
  };
  for (const Text& t :
       {Text{"PB", &record.black_player}, Text{"PW", &record.white_player},
        Text{"EV", &record.event}, Text{"DT", &record.date},
        Text{"RU", &record.rules}}) {
    if (const SgfProperty* p = root.Find(t.id)) {
      GORANK_ASSIGN_OR_RETURN(*t.target, SingleValue(*p));
    }
  }
  if (const SgfProperty* p = root.Find("RE")) {
    GORANK_ASSIGN_OR_RETURN(std::string re, SingleValue(*p));
    record.result = ParseRecordedResult(re);
  }
  if (const SgfProperty* p = root.Find("GM")) {
    GORANK_ASSIGN_OR_RETURN(std::string gm, SingleValue(*p));
    if (Trim(gm) != "4") {
      return absl::InvalidArgumentError(
          "SGF " + p->position.ToString() + ": GM[" + gm +
          "] is not a Gomoku record; expected GM[4] (GM[1] is Go)");
    }
  }
  if (const SgfProperty* p = root.Find("SZ")) {
    GORANK_ASSIGN_OR_RETURN(std::string sz, SingleValue(*p));
    if (Trim(sz) != "15") {
      return absl::InvalidArgumentError("SGF " + p->position.ToString() +
                                        ": SZ[" + sz +
                                        "]: only 15x15 Gomoku is checked; "
                                        "expected SZ[15]");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<RecordedMove> SgfMove(const SgfProperty& property, int number) {
  RecordedMove move;
  move.number = number;
  move.color = property.id == "B" ? Stone::kBlack : Stone::kWhite;
  move.position = property.position;
  GORANK_ASSIGN_OR_RETURN(std::string value, SingleValue(property));
  if (value.empty() || value == "tt") return move;  // pass
  const bool ok = value.size() == 2 && value[0] >= 'a' && value[0] <= 'o' &&
                  value[1] >= 'a' && value[1] <= 'o';
  if (!ok) {
    return absl::InvalidArgumentError(
        "SGF " + property.position.ToString() + ": move " +
        std::to_string(number) + " " + property.id + "[" + value +
        "] is not a point of the 15x15 board; expected two letters a-o "
        "(column, then row from the top), or " +
        property.id + "[] to pass");
  }
  move.point = Point{value[0] - 'a', kBoardSize - 1 - (value[1] - 'a')};
  return move;
}

struct Token {
  std::string text;
  TextPosition position;
};

bool IsSeparator(char c) {
  return std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == ';';
}

// Splits a move list at white space, commas and semicolons.
std::vector<Token> Tokenize(const std::string& text) {
  std::vector<Token> tokens;
  TextPosition where;
  size_t i = 0;
  while (i < text.size()) {
    if (IsSeparator(text[i])) {
      if (text[i] == '\n') {
        ++where.line;
        where.column = 1;
      } else {
        ++where.column;
      }
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && !IsSeparator(text[end])) ++end;
    tokens.push_back(Token{text.substr(i, end - i), where});
    where.column += static_cast<int>(end - i);
    i = end;
  }
  return tokens;
}

}  // namespace

std::string RecordedMove::ToString() const {
  return std::to_string(number) + ". " +
         (color == Stone::kBlack ? "B " : "W ") +
         (point ? point->ToString() : "pass");
}

RecordedResult ParseRecordedResult(const std::string& text) {
  using Kind = RecordedResult::Kind;
  RecordedResult result;
  result.text = text;
  const std::string s = Lower(Trim(text));
  if (s.empty()) return result;
  result.kind = Kind::kUnknown;
  if (s == "?") return result;
  if (s == "0" || s == "draw" || s == "jigo") {
    result.kind = Kind::kDraw;
  } else if (s == "void") {
    result.kind = Kind::kVoid;
  } else if (s.size() >= 2 && (s[0] == 'b' || s[0] == 'w') && s[1] == '+') {
    result.kind = s[0] == 'b' ? Kind::kBlackWins : Kind::kWhiteWins;
    result.reason = LatinReason(s.substr(2));
  } else {
    result = ChineseResult(result, s);
  }
  return result;
}

absl::StatusOr<GameRecord> ParseSgfRecord(const std::string& sgf) {
  GORANK_ASSIGN_OR_RETURN(std::vector<SgfNode> nodes, ReadSgfMainLine(sgf));
  GameRecord record;
  GORANK_RETURN_IF_ERROR(CheckRoot(nodes.front(), record));
  for (const SgfNode& node : nodes) {
    for (const char* setup : {"AB", "AW", "AE"}) {
      if (const SgfProperty* p = node.Find(setup)) {
        return absl::UnimplementedError("SGF " + p->position.ToString() +
                                        ": setup stones (" + setup +
                                        ") are not supported; give the game as "
                                        "B/W moves from an empty board");
      }
    }
    const SgfProperty* black = node.Find("B");
    const SgfProperty* white = node.Find("W");
    if (black && white) {
      return absl::InvalidArgumentError("SGF " + node.position.ToString() +
                                        ": a node holds both B and W; expected "
                                        "one move a node");
    }
    if (!black && !white) continue;
    const int number = static_cast<int>(record.moves.size()) + 1;
    GORANK_ASSIGN_OR_RETURN(RecordedMove move,
                            SgfMove(black ? *black : *white, number));
    record.moves.push_back(move);
  }
  return record;
}

absl::StatusOr<GameRecord> ParseMoveList(const std::string& text) {
  GameRecord record;
  for (Token& token : Tokenize(text)) {
    // A move number "12." may stand alone or before the move ("12.H8").
    size_t digits = 0;
    while (digits < token.text.size() &&
           std::isdigit(static_cast<unsigned char>(token.text[digits]))) {
      ++digits;
    }
    if (digits > 0 && digits < token.text.size() && token.text[digits] == '.') {
      token.text = token.text.substr(digits + 1);
      if (token.text.empty()) continue;
    }
    RecordedMove move;
    move.number = static_cast<int>(record.moves.size()) + 1;
    move.color = move.number % 2 == 1 ? Stone::kBlack : Stone::kWhite;
    move.position = token.position;
    if (Lower(token.text) != "pass") {
      absl::StatusOr<Point> point = Point::Parse(token.text);
      if (!point.ok()) {
        return absl::InvalidArgumentError(
            "move list, move " + std::to_string(move.number) + " at " +
            token.position.ToString() + ": " +
            std::string(point.status().message()));
      }
      move.point = *point;
    }
    record.moves.push_back(move);
  }
  if (record.moves.empty()) {
    return absl::InvalidArgumentError(
        "the move list holds no moves; expected points such as \"H8 I9 H9\"");
  }
  return record;
}

}  // namespace gorank::rules::gomoku
