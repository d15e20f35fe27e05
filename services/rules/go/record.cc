#include "services/rules/go/record.h"

#include <cctype>
#include <string>

#include "services/common/status_macros.h"

namespace gorank::rules::go {
namespace {

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

absl::Status ValueError(const sgf::Value& v, const std::string& what) {
  return absl::InvalidArgumentError("byte offset " + std::to_string(v.offset) +
                                    ": " + what);
}

bool ParseInt(const std::string& s, int* out) {
  if (s.empty() || s.size() > 6) return false;
  int n = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    n = n * 10 + (c - '0');
  }
  *out = n;
  return true;
}

int Coordinate(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 26;
  return -1;
}

absl::StatusOr<Point> ParsePoint(const sgf::Value& v, const std::string& text,
                                 int size) {
  if (text.size() != 2 || Coordinate(text[0]) < 0 || Coordinate(text[1]) < 0) {
    return ValueError(v, "'" + text + "' is not an SGF point (two letters)");
  }
  Point p{Coordinate(text[0]), Coordinate(text[1])};
  if (p.col >= size || p.row >= size) {
    return ValueError(v, "point '" + text + "' is off the " +
                             std::to_string(size) + "x" + std::to_string(size) +
                             " board");
  }
  return p;
}

// A point list value: "dd" or the rectangle "aa:cc".
absl::Status AddPoints(const sgf::Value& v, int size, std::vector<Point>& out) {
  std::string text = Trim(v.text);
  size_t colon = text.find(':');
  if (colon == std::string::npos) {
    GORANK_ASSIGN_OR_RETURN(Point p, ParsePoint(v, text, size));
    out.push_back(p);
    return absl::OkStatus();
  }
  GORANK_ASSIGN_OR_RETURN(Point a, ParsePoint(v, text.substr(0, colon), size));
  GORANK_ASSIGN_OR_RETURN(Point b, ParsePoint(v, text.substr(colon + 1), size));
  for (int row = std::min(a.row, b.row); row <= std::max(a.row, b.row); ++row) {
    for (int col = std::min(a.col, b.col); col <= std::max(a.col, b.col);
         ++col) {
      out.push_back(Point{col, row});
    }
  }
  return absl::OkStatus();
}

absl::Status ReadSetup(const sgf::GameTree& game, int node, int size,
                       Setup& setup) {
  static const std::pair<const char*, Color> kSetup[] = {
      {"AE", Color::kEmpty}, {"AB", Color::kBlack}, {"AW", Color::kWhite}};
  for (const auto& [id, color] : kSetup) {
    for (const sgf::Value* v : game.Values(node, id)) {
      std::vector<Point> points;
      GORANK_RETURN_IF_ERROR(AddPoints(*v, size, points));
      for (Point p : points) setup.emplace_back(p, color);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<RecordMove> ReadMove(const sgf::Value& v, Color color,
                                    int size) {
  RecordMove move;
  move.color = color;
  move.offset = v.offset;
  std::string text = Trim(v.text);
  if (text.empty() || (text == "tt" && size <= 19)) {
    move.pass = true;
  } else {
    GORANK_ASSIGN_OR_RETURN(move.point, ParsePoint(v, text, size));
  }
  return move;
}

// One pass over a node's properties (the hot path of reading a record).
absl::Status ReadStep(const sgf::GameTree& game, int node, bool root, int size,
                      RecordStep& step) {
  const sgf::Node& n = game.node(node);
  for (uint32_t i = 0; i < n.property_count; ++i) {
    const sgf::Property& prop = game.property(n.first_property + i);
    if (prop.value_count == 0) continue;
    const sgf::Value& first = game.value(prop.first_value);
    const std::string& id = prop.id;
    if (id == "B" || id == "W") {
      if (step.move) return ValueError(first, "a node holds two moves");
      GORANK_ASSIGN_OR_RETURN(
          step.move,
          ReadMove(first, id == "B" ? Color::kBlack : Color::kWhite, size));
    } else if (id == "WARNB" || id == "WARNW") {
      auto& list = id == "WARNB" ? step.black_warnings : step.white_warnings;
      for (uint32_t k = 0; k < prop.value_count; ++k) {
        list.push_back(Trim(game.value(prop.first_value + k).text));
      }
    } else if (!root && (id == "AB" || id == "AW" || id == "AE")) {
      Color color = id == "AB"   ? Color::kBlack
                    : id == "AW" ? Color::kWhite
                                 : Color::kEmpty;
      for (uint32_t k = 0; k < prop.value_count; ++k) {
        std::vector<Point> points;
        GORANK_RETURN_IF_ERROR(
            AddPoints(game.value(prop.first_value + k), size, points));
        for (Point p : points) step.setup.emplace_back(p, color);
      }
    }
  }
  return absl::OkStatus();
}

std::string Text(const sgf::GameTree& game, int node, const char* id) {
  const sgf::Value* v = game.FirstValue(node, id);
  return v == nullptr ? "" : Trim(v->text);
}

absl::Status ReadRoot(const sgf::GameTree& game, GameRecord& record) {
  if (const sgf::Value* gm = game.FirstValue(0, "GM");
      gm != nullptr && Trim(gm->text) != "1") {
    return ValueError(*gm, "GM[" + gm->text + "] is not a Go record (GM[1])");
  }
  if (const sgf::Value* sz = game.FirstValue(0, "SZ"); sz != nullptr) {
    std::string text = Trim(sz->text);
    size_t colon = text.find(':');
    int cols = 0, rows = 0;
    bool ok = colon == std::string::npos
                  ? ParseInt(text, &cols) && (rows = cols, true)
                  : ParseInt(Trim(text.substr(0, colon)), &cols) &&
                        ParseInt(Trim(text.substr(colon + 1)), &rows);
    if (!ok) return ValueError(*sz, "SZ[" + text + "] is not a board size");
    if (cols != rows) {
      return ValueError(
          *sz, "SZ[" + text + "]: non-square boards are not supported");
    }
    if (cols < kMinBoardSize || cols > kMaxBoardSize) {
      return ValueError(*sz,
                        "SZ[" + text + "]: board sizes 2..25 are supported");
    }
    record.size = cols;
  }
  if (const sgf::Value* ha = game.FirstValue(0, "HA"); ha != nullptr) {
    std::string text = Trim(ha->text);
    if (!text.empty() &&
        (!ParseInt(text, &record.handicap) || record.handicap > 361)) {
      return ValueError(*ha,
                        "HA[" + text + "] is not a number of handicap stones");
    }
  }
  if (const sgf::Value* km = game.FirstValue(0, "KM"); km != nullptr) {
    record.komi_text = Trim(km->text);
    if (!record.komi_text.empty()) {
      absl::StatusOr<Komi> komi = ReadKomi(record.komi_text);
      if (!komi.ok())
        return ValueError(*km, std::string(komi.status().message()));
      if (!komi->note.empty()) record.notes.push_back(komi->note);
      record.komi = *komi;
    }
  }
  if (const sgf::Value* pl = game.FirstValue(0, "PL"); pl != nullptr) {
    std::string text = Trim(pl->text);
    if (text == "B" || text == "b" || text == "1") {
      record.player_to_move = Color::kBlack;
    } else if (text == "W" || text == "w" || text == "2") {
      record.player_to_move = Color::kWhite;
    } else {
      return ValueError(*pl, "PL[" + text + "] is neither B nor W");
    }
  }
  record.result = ParseResult(Text(game, 0, "RE"));
  record.black_player = Text(game, 0, "PB");
  record.white_player = Text(game, 0, "PW");
  record.black_rank = Text(game, 0, "BR");
  record.white_rank = Text(game, 0, "WR");
  record.event = Text(game, 0, "EV");
  record.round = Text(game, 0, "RO");
  record.date = Text(game, 0, "DT");
  record.place = Text(game, 0, "PC");
  record.rules = Text(game, 0, "RU");
  record.application = Text(game, 0, "AP");
  return ReadSetup(game, 0, record.size, record.initial_setup);
}

}  // namespace

absl::StatusOr<GameRecord> ReadGameRecord(const sgf::GameTree& game,
                                          const std::vector<int>& line) {
  GameRecord record;
  GORANK_RETURN_IF_ERROR(ReadRoot(game, record));
  record.steps.reserve(line.size());
  for (size_t i = 0; i < line.size(); ++i) {
    int node = line[i];
    RecordStep step;
    GORANK_RETURN_IF_ERROR(ReadStep(game, node, i == 0, record.size, step));
    if (step.setup.empty() && !step.move && step.black_warnings.empty() &&
        step.white_warnings.empty()) {
      continue;
    }
    record.steps.push_back(std::move(step));
  }
  int last = line.back();
  for (const sgf::Value* v : game.Values(last, "TB")) {
    GORANK_RETURN_IF_ERROR(AddPoints(*v, record.size, record.territory_black));
  }
  for (const sgf::Value* v : game.Values(last, "TW")) {
    GORANK_RETURN_IF_ERROR(AddPoints(*v, record.size, record.territory_white));
  }
  return record;
}

}  // namespace gorank::rules::go
