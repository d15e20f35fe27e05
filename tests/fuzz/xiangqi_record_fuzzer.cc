// libFuzzer target: Xiangqi PGN records (the reader, then the whole check:
// FEN tags, the three notations, repetition judging, result reading).
#include <cstddef>
#include <cstdint>
#include <string>

#include "services/rules/xiangqi/checker.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace xq = gorank::rules::xiangqi;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto report = xq::CheckRecord(text);
  if (report.ok()) {
    for (const auto& game : report->games) {
      (void)game.outcome.summary.size();
      for (const auto& v : game.violations) (void)v.message.size();
    }
  }
  // Each move token also alone, in every notation, against the start.
  const xq::Position start = xq::Position::Start();
  for (xq::Notation n :
       {xq::Notation::kIccs, xq::Notation::kWxf, xq::Notation::kChinese})
    (void)xq::ResolveMove(start, text.substr(0, 32), n);
  (void)xq::Position::FromFen(text.substr(0, 128));
  (void)xq::ParseResult(text.substr(0, 64));
  return 0;
}
