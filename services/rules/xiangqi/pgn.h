// Xiangqi game records in the PGN convention used by Xiangqi programs and
// databases: tag pairs ([Game "Chinese Chess"], [Red "..."], [Black "..."],
// [Result "1-0"], optionally [FEN "..."] and [Format "ICCS"|"WXF"|"Chinese"],
// [Event], [Date]), then numbered moves ("1. h2e2 h9g7 2. ..."), comments in
// braces or after ';', variations in parentheses (skipped), NAGs ($1), and a
// result token ("1-0", "0-1", "1/2-1/2", "*"). Several games a file: a tag
// after moves, or anything after a result token, starts the next game.
// Bytes are UTF-8 (a byte-order mark is dropped) or, when they are not valid
// UTF-8, GBK (read as its superset GB18030), as Chinese Xiangqi software
// writes. Reading checks the syntax only; the moves are read against the
// board by checker.h.
#ifndef GORANK_SERVICES_RULES_XIANGQI_PGN_H_
#define GORANK_SERVICES_RULES_XIANGQI_PGN_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace gorank::rules::xiangqi {

inline constexpr size_t kMaxRecordBytes = 1 << 20;  // as for SGF
inline constexpr int kMaxGames = 10000;             // games a file
inline constexpr int kMaxRecordMoves = 200000;      // moves a file, all games
inline constexpr int kMaxTags = 1000;               // tag pairs a game

struct WrittenMove {
  int number = 0;    // ply in the game, 1-based (red's first move is 1)
  std::string text;  // as written, e.g. "炮二平五"
  int line = 1;      // where it is written (1-based)
  int column = 1;    // in characters
};

struct RecordedResult {
  enum class Kind { kAbsent, kRedWins, kBlackWins, kDraw, kUnknown };
  Kind kind = Kind::kAbsent;
  std::string text;  // as written
};

// "1-0" "0-1" "1/2-1/2" (also "½-½"), "*"; Chinese 红胜 红方胜 黑胜 黑方胜 和棋
// 和局 平局 (and 红负 = black wins, 黑负 = red wins). Anything else: kUnknown.
RecordedResult ParseResult(std::string_view text);

struct PgnGame {
  int line = 1;  // where the game starts
  std::string red, black, event, date, fen, format, game;
  RecordedResult result;  // from [Result], else the result token
  std::vector<WrittenMove> moves;
};

struct PgnFile {
  std::vector<PgnGame> games;
  std::string charset;       // "UTF-8" or "GB18030"
  std::string charset_note;  // set when the bytes were not UTF-8
};

// Errors: RESOURCE_EXHAUSTED over kMaxRecordBytes, kMaxGames, kMaxRecordMoves
// or kMaxTags (naming the limit); INVALID_ARGUMENT, naming the line and column,
// for bytes that are neither UTF-8 nor GBK, an unterminated tag, comment,
// string or variation, a ')' without '(', and a file without any game.
// Thread-safe.
absl::StatusOr<PgnFile> ReadPgn(std::string_view bytes);

}  // namespace gorank::rules::xiangqi

#endif  // GORANK_SERVICES_RULES_XIANGQI_PGN_H_
