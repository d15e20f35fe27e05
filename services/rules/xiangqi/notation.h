// The three ways Xiangqi records write a move, read and written against a
// position (the side to move is the mover):
//   ICCS coordinates: "h2e2" (also "H2-E2"): from and to as file a-i (from
//     red's left) and rank 0-9 (from red's side).
//   WXF: piece letter (K A E H R C P; B and N are read as E and H), the
//     mover's file number 1-9 counted from the mover's right, then "+"
//     (forward), "-" (backward) or "." (sideways, also "="), then the ranks
//     moved (general, chariot, cannon, soldier going forward or back) or the
//     file reached. Two like pieces on one file: "+C.5" / "-C.5" for the
//     front and rear one (also read: "C+.5"). Soldiers three or more on one
//     file, or on two files at once: the place from the front then the file,
//     "17.6" (the front soldier of file 7 to file 6).
//   Chinese: 炮二平五 / 马８进７: piece (帅将仕士相象马车炮兵卒 and the
//     traditional forms 帥將傌馬俥車砲), the file (red 一..九 from red's right,
//     black １..９ or 1..9 from black's right), 进/退/平, then the count or
//     file. Like pieces on one file: 前/后 (three soldiers 前/中/后, four or
//     five 一..五 from the front) instead of the file: 前炮平五, 中兵平四;
//     soldiers on two files: the place then the file, 前七平六 (also read:
//     前兵七平六).
// Reading resolves the text to exactly one legal move, or says why not.
// Writing always gives the form above that reading takes back to the move.
#ifndef GORANK_SERVICES_RULES_XIANGQI_NOTATION_H_
#define GORANK_SERVICES_RULES_XIANGQI_NOTATION_H_

#include <string>
#include <string_view>

#include "services/rules/xiangqi/legality.h"
#include "services/rules/xiangqi/position.h"

namespace gorank::rules::xiangqi {

enum class Notation { kIccs, kWxf, kChinese };
const char* NotationName(Notation n);  // "ICCS", "WXF", "Chinese"

// The notation a token is written in: Chinese when it has a non-ASCII byte,
// ICCS when it is letter-digit-letter-digit (a dash allowed), WXF otherwise.
Notation DetectNotation(std::string_view token);

// REQUIRES: m is legal in pos. Thread-safe.
std::string FormatMove(const Position& pos, Move m, Notation n);

struct Resolution {
  enum class Status {
    kOk,           // move is the one legal move the text means
    kUnreadable,   // not a move in the notation
    kNoSuchPiece,  // names a piece that is not there
    kAmbiguous,    // fits more than one legal move
    kIllegal,      // names a move that breaks `rule` (move is that move when it
                   // is on the board, 0 otherwise)
  };
  Status status = Status::kUnreadable;
  Move move = 0;
  Rule rule = Rule::kNone;
  std::string message;  // for every status but kOk: what is wrong, for a person
};

// Reads `text` (trimmed) in notation n against pos. Thread-safe.
Resolution ResolveMove(const Position& pos, std::string_view text, Notation n);

}  // namespace gorank::rules::xiangqi

#endif  // GORANK_SERVICES_RULES_XIANGQI_NOTATION_H_
