#include "services/rules/xiangqi/pgn.h"

#include <string>

#include "absl/status/status.h"
#include "services/rules/sgf/charset.h"

namespace gorank::rules::xiangqi {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c | 0x20);
  return out;
}

// A cursor over UTF-8 text that knows its line and column (in characters).
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}
  bool done() const { return i_ >= text_.size(); }
  char peek() const { return text_[i_]; }
  std::string_view rest() const { return text_.substr(i_); }
  int line() const { return line_; }
  int column() const { return column_; }
  void Advance() {
    const unsigned char c = static_cast<unsigned char>(text_[i_]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    if (i_ + len > text_.size()) len = static_cast<int>(text_.size() - i_);
    i_ += len;
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
  }
  // ASCII white space and U+3000 (ideographic space).
  bool AtSpace() const {
    const char c = text_[i_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
        c == '\v')
      return true;
    return rest().substr(0, 3) == "\xe3\x80\x80";
  }
  std::string Where() const {
    return "line " + std::to_string(line_) + ", column " +
           std::to_string(column_);
  }

 private:
  std::string_view text_;
  size_t i_ = 0;
  int line_ = 1, column_ = 1;
};

bool IsDelimiter(char c) {
  return c == '[' || c == ']' || c == '{' || c == '}' || c == '(' || c == ')' ||
         c == ';';
}

// "12." "12..." "12．" "12、": the length of the number and its dots, 0 when
// the word does not start with one.
size_t MoveNumberLength(std::string_view w) {
  size_t i = 0;
  while (i < w.size() && w[i] >= '0' && w[i] <= '9') ++i;
  if (i == 0) return 0;
  size_t j = i;
  for (;;) {
    if (j < w.size() && w[j] == '.') {
      ++j;
    } else if (w.substr(j, 3) == "\xef\xbc\x8e" ||
               w.substr(j, 3) == "\xe3\x80\x81") {
      j += 3;
    } else {
      break;
    }
  }
  return j == i ? 0 : j;
}

bool IsResultToken(std::string_view w) {
  if (w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*" ||
      w == "\xc2\xbd-\xc2\xbd")
    return true;
  // Chinese results ("红胜", "和棋") end the moves too; no move reads as one.
  for (char c : w) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      const RecordedResult::Kind k = ParseResult(w).kind;
      return k == RecordedResult::Kind::kRedWins ||
             k == RecordedResult::Kind::kBlackWins ||
             k == RecordedResult::Kind::kDraw;
    }
  }
  return false;
}

struct Builder {
  PgnFile file;
  PgnGame game;
  bool started = false, ended = false, tag_result = false;
  int tags = 0, total_moves = 0;

  absl::Status Begin(int line) {
    if (started && !ended && game.moves.empty()) return absl::OkStatus();
    return Flush(line);
  }
  absl::Status Flush(int next_line) {
    if (started) {
      if (static_cast<int>(file.games.size()) >= kMaxGames)
        return absl::ResourceExhaustedError(
            "more than " + std::to_string(kMaxGames) + " games in one file");
      file.games.push_back(std::move(game));
    }
    game = PgnGame();
    game.line = next_line;
    started = true;
    ended = tag_result = false;
    tags = 0;
    return absl::OkStatus();
  }
};

absl::Status ReadTag(Reader& r, Builder& b) {
  const std::string where = r.Where();
  const auto bad = [&](const std::string& what) {
    return absl::InvalidArgumentError("tag at " + where + ": " + what);
  };
  r.Advance();  // '['
  while (!r.done() && r.AtSpace()) r.Advance();
  std::string name;
  while (!r.done() && !r.AtSpace() && r.peek() != '"' && r.peek() != ']') {
    name += r.peek();
    r.Advance();
  }
  while (!r.done() && r.AtSpace()) r.Advance();
  if (r.done() || r.peek() != '"')
    return bad("expected a quoted value after [" + name);
  r.Advance();
  std::string value;
  for (;;) {
    if (r.done()) return bad("the value is not closed with '\"'");
    const char c = r.peek();
    if (c == '"') break;
    if (c == '\\') {
      r.Advance();
      if (r.done()) return bad("the value is not closed with '\"'");
    }
    const std::string_view rest = r.rest();
    const size_t before = rest.size();
    r.Advance();
    value += rest.substr(0, before - r.rest().size());
  }
  r.Advance();  // '"'
  while (!r.done() && r.AtSpace()) r.Advance();
  if (r.done() || r.peek() != ']') return bad("expected ']' to close [" + name);
  r.Advance();
  if (++b.tags > kMaxTags)
    return absl::ResourceExhaustedError(
        "more than " + std::to_string(kMaxTags) + " tags in one game");
  const std::string key = Lower(name);
  PgnGame& g = b.game;
  if (key == "red" || (key == "white" && g.red.empty()))
    g.red = value;
  else if (key == "black")
    g.black = value;
  else if (key == "event")
    g.event = value;
  else if (key == "date")
    g.date = value;
  else if (key == "fen")
    g.fen = value;
  else if (key == "format")
    g.format = value;
  else if (key == "game")
    g.game = value;
  else if (key == "result") {
    g.result = ParseResult(value);
    b.tag_result = true;
  }
  return absl::OkStatus();
}

absl::Status SkipComment(Reader& r) {
  const std::string where = r.Where();
  while (!r.done() && r.peek() != '}') r.Advance();
  if (r.done())
    return absl::InvalidArgumentError("comment at " + where +
                                      " is not closed with '}'");
  r.Advance();
  return absl::OkStatus();
}

absl::Status SkipVariation(Reader& r) {
  const std::string where = r.Where();
  int depth = 0;
  while (!r.done()) {
    const char c = r.peek();
    if (c == '{') {
      absl::Status s = SkipComment(r);
      if (!s.ok()) return s;
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) {
      r.Advance();
      return absl::OkStatus();
    }
    r.Advance();
  }
  return absl::InvalidArgumentError("variation at " + where +
                                    " is not closed with ')'");
}

}  // namespace

RecordedResult ParseResult(std::string_view text) {
  RecordedResult r;
  r.text = std::string(text);
  std::string_view t = text;
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  if (t.empty()) return r;
  const auto has = [&](std::string_view s) {
    return t.find(s) != std::string_view::npos;
  };
  if (t == "1-0" || has("红胜") || has("紅勝") || has("红方胜") ||
      has("黑负") || has("黑方负"))
    r.kind = RecordedResult::Kind::kRedWins;
  else if (t == "0-1" || has("黑胜") || has("黑勝") || has("黑方胜") ||
           has("红负") || has("红方负"))
    r.kind = RecordedResult::Kind::kBlackWins;
  else if (t == "1/2-1/2" || t == "\xc2\xbd-\xc2\xbd" || has("和棋") ||
           has("和局") || has("平局"))
    r.kind = RecordedResult::Kind::kDraw;
  else
    r.kind = RecordedResult::Kind::kUnknown;  // "*" and anything unread
  return r;
}

absl::StatusOr<PgnFile> ReadPgn(std::string_view bytes) {
  if (bytes.size() > kMaxRecordBytes)
    return absl::ResourceExhaustedError(
        "the record is " + std::to_string(bytes.size()) + " bytes; at most " +
        std::to_string(kMaxRecordBytes) + " are read");
  if (bytes.substr(0, 3) == "\xef\xbb\xbf") bytes.remove_prefix(3);
  std::string text;
  Builder b;
  if (sgf::IsValidUtf8(bytes)) {
    text = std::string(bytes);
    b.file.charset = "UTF-8";
  } else {
    absl::StatusOr<std::string> converted =
        sgf::ConvertToUtf8(bytes, "GB18030");
    if (!converted.ok())
      return absl::InvalidArgumentError(
          "the record is neither UTF-8 nor GBK: " +
          std::string(converted.status().message()));
    text = std::move(*converted);
    b.file.charset = "GB18030";
    b.file.charset_note = "the bytes are not UTF-8: read as GBK (GB18030)";
  }
  Reader r(text);
  while (!r.done()) {
    if (r.AtSpace()) {
      r.Advance();
      continue;
    }
    const char c = r.peek();
    absl::Status s = absl::OkStatus();
    if (c == '[') {
      s = b.Begin(r.line());
      if (s.ok()) s = ReadTag(r, b);
    } else if (c == '{') {
      s = SkipComment(r);
    } else if (c == ';' || (c == '%' && r.column() == 1)) {
      while (!r.done() && r.peek() != '\n') r.Advance();
    } else if (c == '(') {
      s = SkipVariation(r);
    } else if (c == ')' || c == ']' || c == '}') {
      return absl::InvalidArgumentError(std::string("'") + c + "' at " +
                                        r.Where() + " closes nothing");
    } else if (c == '$') {
      r.Advance();
      while (!r.done() && r.peek() >= '0' && r.peek() <= '9') r.Advance();
    } else {
      const int line = r.line(), column = r.column();
      const std::string_view start = r.rest();
      while (!r.done() && !r.AtSpace() && !IsDelimiter(r.peek())) r.Advance();
      std::string_view word = start.substr(0, start.size() - r.rest().size());
      if (!b.started || b.ended) {
        s = b.Flush(line);
        if (!s.ok()) return s;
      }
      if (IsResultToken(word)) {
        if (!b.tag_result) b.game.result = ParseResult(word);
        b.ended = true;
        continue;
      }
      const size_t number = MoveNumberLength(word);
      if (number > 0 && !(word.size() == number + 1 && word[number] >= '0' &&
                          word[number] <= '9')) {
        word.remove_prefix(number);
      }
      if (word.find_first_not_of('.') == std::string_view::npos) continue;
      if (++b.total_moves > kMaxRecordMoves)
        return absl::ResourceExhaustedError("more than " +
                                            std::to_string(kMaxRecordMoves) +
                                            " moves in one file");
      WrittenMove m;
      m.number = static_cast<int>(b.game.moves.size()) + 1;
      m.text = std::string(word);
      m.line = line;
      m.column =
          column + static_cast<int>(
                       number > 0 && word.data() != start.data() ? number : 0);
      b.game.moves.push_back(std::move(m));
    }
    if (!s.ok()) return s;
  }
  if (b.started) {
    absl::Status s = b.Flush(r.line());
    if (!s.ok()) return s;
  }
  if (b.file.games.empty())
    return absl::InvalidArgumentError(
        "no game in the record (expected PGN tags or moves)");
  return std::move(b.file);
}

}  // namespace gorank::rules::xiangqi
