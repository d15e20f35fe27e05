#include "services/rules/gomoku/record.h"

#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"

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

std::string TextPosition::ToString() const {
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

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
