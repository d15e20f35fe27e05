// libFuzzer target: Gomoku records (SGF, move lists, result text).
#include <cstddef>
#include <cstdint>
#include <string>

#include "services/rules/gomoku/record.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  namespace gomoku = gorank::rules::gomoku;
  auto sgf = gomoku::ParseSgfRecord(text);
  if (sgf.ok()) {
    for (const auto& move : sgf->moves) (void)move.ToString();
  }
  auto list = gomoku::ParseMoveList(text);
  if (list.ok()) {
    for (const auto& move : list->moves) (void)move.ToString();
  }
  (void)gomoku::ParseRecordedResult(text);
  return 0;
}
