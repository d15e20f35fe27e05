#include "services/rules/go/types.h"

namespace gorank::rules::go {

const char* ColorLetter(Color c) {
  switch (c) {
    case Color::kBlack:
      return "B";
    case Color::kWhite:
      return "W";
    case Color::kEmpty:
      break;
  }
  return "-";
}

const char* ColorChinese(Color c) {
  switch (c) {
    case Color::kBlack:
      return "黑";
    case Color::kWhite:
      return "白";
    case Color::kEmpty:
      break;
  }
  return "";
}

std::string ToSgf(Point p) {
  return std::string{static_cast<char>('a' + p.col),
                     static_cast<char>('a' + p.row)};
}

std::string ToLabel(Point p, int board_size) {
  static constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  return std::string(1, kColumns[p.col]) + std::to_string(board_size - p.row);
}

}  // namespace gorank::rules::go
