// ParseSgfRecord (declared in record.h): Gomoku's reading of an SGF game
// tree from the shared reader in services/rules/sgf.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "services/common/status_macros.h"
#include "services/rules/gomoku/record.h"
#include "services/rules/sgf/charset.h"
#include "services/rules/sgf/sgf.h"

namespace gorank::rules::gomoku {
namespace {

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// One decoded game and the text it came from, to turn byte offsets into
// lines and columns.
class SgfGame {
 public:
  SgfGame(std::string text, sgf::GameTree tree)
      : text_(std::move(text)), tree_(std::move(tree)) {}

  const sgf::GameTree& tree() const { return tree_; }

  TextPosition PositionAt(uint32_t offset) const {
    TextPosition where;
    // A UTF-8 byte order mark takes no column.
    const uint32_t start = text_.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    for (uint32_t i = start; i < offset && i < text_.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(text_[i]);
      if (c == '\n') {
        ++where.line;
        where.column = 1;
      } else if ((c & 0xC0) != 0x80) {  // not a UTF-8 continuation byte
        ++where.column;
      }
    }
    return where;
  }

  // "SGF line 1, column 8: ".
  std::string At(uint32_t offset) const {
    return "SGF " + PositionAt(offset).ToString() + ": ";
  }

  // The one value of property `id` at `node`; nullopt when absent.
  absl::StatusOr<std::optional<std::string>> Single(int node,
                                                    const char* id) const {
    const std::vector<const sgf::Value*> values = tree_.Values(node, id);
    if (values.empty()) return std::nullopt;
    if (values.size() > 1) {
      return absl::InvalidArgumentError(
          At(tree_.Find(node, id)->offset) + "property " + id + " has " +
          std::to_string(values.size()) + " values; expected exactly one");
    }
    return values[0]->text;
  }

 private:
  std::string text_;
  sgf::GameTree tree_;
};

absl::Status ReadRoot(const SgfGame& game, GameRecord& record) {
  struct Text {
    const char* id;
    std::string* target;
  };
  for (const Text& t :
       {Text{"PB", &record.black_player}, Text{"PW", &record.white_player},
        Text{"EV", &record.event}, Text{"DT", &record.date},
        Text{"RU", &record.rules}}) {
    GORANK_ASSIGN_OR_RETURN(std::optional<std::string> value,
                            game.Single(0, t.id));
    if (value) *t.target = *value;
  }
  GORANK_ASSIGN_OR_RETURN(std::optional<std::string> re, game.Single(0, "RE"));
  if (re) record.result = ParseRecordedResult(*re);
  GORANK_ASSIGN_OR_RETURN(std::optional<std::string> gm, game.Single(0, "GM"));
  if (gm && Trim(*gm) != "4") {
    return absl::InvalidArgumentError(
        game.At(game.tree().Find(0, "GM")->offset) + "GM[" + *gm +
        "] is not a Gomoku record; expected GM[4] (GM[1] is Go)");
  }
  GORANK_ASSIGN_OR_RETURN(std::optional<std::string> sz, game.Single(0, "SZ"));
  if (sz && Trim(*sz) != "15") {
    return absl::InvalidArgumentError(
        game.At(game.tree().Find(0, "SZ")->offset) + "SZ[" + *sz +
        "]: only 15x15 Gomoku is checked; expected SZ[15]");
  }
  return absl::OkStatus();
}

// The move of `node`, if it has one.
absl::StatusOr<std::optional<RecordedMove>> ReadMove(const SgfGame& game,
                                                     int node, int number) {
  const sgf::GameTree& tree = game.tree();
  for (const char* setup : {"AB", "AW", "AE"}) {
    if (const sgf::Property* p = tree.Find(node, setup)) {
      return absl::UnimplementedError(
          game.At(p->offset) + "setup stones (" + setup +
          ") are not supported; give the game as B/W moves from an empty "
          "board");
    }
  }
  const sgf::Property* black = tree.Find(node, "B");
  const sgf::Property* white = tree.Find(node, "W");
  if (black && white) {
    return absl::InvalidArgumentError(
        game.At(tree.node(node).offset) +
        "a node holds both B and W; expected one move a node");
  }
  if (!black && !white) return std::nullopt;
  const sgf::Property& property = black ? *black : *white;
  RecordedMove move;
  move.number = number;
  move.color = black ? Stone::kBlack : Stone::kWhite;
  move.position = game.PositionAt(property.offset);
  const std::vector<const sgf::Value*> values =
      game.tree().Values(node, property.id);
  if (values.size() != 1) {
    return absl::InvalidArgumentError(
        game.At(property.offset) + "property " + property.id + " has " +
        std::to_string(values.size()) + " values; expected exactly one");
  }
  const std::string& v = values[0]->text;
  if (v.empty() || v == "tt") return move;  // a pass
  if (v.size() != 2 || v[0] < 'a' || v[0] > 'o' || v[1] < 'a' || v[1] > 'o') {
    return absl::InvalidArgumentError(
        game.At(property.offset) + "move " + std::to_string(number) + " " +
        property.id + "[" + v +
        "] is not a point of the 15x15 board; expected two letters a-o "
        "(column, then row from the top), or " +
        property.id + "[] to pass");
  }
  move.point = Point{v[0] - 'a', kBoardSize - 1 - (v[1] - 'a')};
  return move;
}

}  // namespace

absl::StatusOr<GameRecord> ParseSgfRecord(const std::string& bytes) {
  const sgf::Limits limits;
  if (bytes.size() > limits.max_bytes) {
    return absl::ResourceExhaustedError(
        "SGF record of " + std::to_string(bytes.size()) +
        " bytes is over the " + std::to_string(limits.max_bytes) +
        "-byte limit");
  }
  GORANK_ASSIGN_OR_RETURN(sgf::DecodedText decoded, sgf::DecodeSgfBytes(bytes));
  GORANK_ASSIGN_OR_RETURN(std::vector<sgf::GameTree> trees,
                          sgf::ParseText(decoded.utf8, limits));
  if (trees.size() != 1) {
    return absl::InvalidArgumentError(
        "the SGF file holds " + std::to_string(trees.size()) +
        " games; a Gomoku record must hold exactly one");
  }
  const SgfGame game(std::move(decoded.utf8), std::move(trees[0]));
  GameRecord record;
  record.charset = decoded.charset;
  record.charset_note = decoded.note;
  GORANK_RETURN_IF_ERROR(ReadRoot(game, record));
  GORANK_ASSIGN_OR_RETURN(std::vector<int> line, game.tree().Line({}));
  for (int node : line) {
    const int number = static_cast<int>(record.moves.size()) + 1;
    GORANK_ASSIGN_OR_RETURN(std::optional<RecordedMove> move,
                            ReadMove(game, node, number));
    if (move) record.moves.push_back(*move);
  }
  return record;
}

}  // namespace gorank::rules::gomoku
