// A small SGF (FF[4]) reader for Gomoku records: it reads one game tree and
// returns the nodes of its main line (at each branch, the first variation),
// each with its properties and where it starts in the text. It knows nothing
// about Gomoku; record.h interprets the properties. (The Go engine's SGF
// reader did not exist when this was written; this one is deliberately
// minimal and may be replaced by a shared services/rules/sgf reader.)
#ifndef GORANK_SERVICES_RULES_GOMOKU_SGF_READER_H_
#define GORANK_SERVICES_RULES_GOMOKU_SGF_READER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace gorank::rules::gomoku {

// A place in the input text, both 1-based.
struct TextPosition {
  int line = 1;
  int column = 1;
  // "line 3, column 14".
  std::string ToString() const;
};

struct SgfProperty {
  // Upper-case letters only: FF[3]-style lower-case letters are dropped, so
  // "AddBlack" reads as "AB".
  std::string id;
  // Unescaped values (`\]` -> `]`, `\\` -> `\`, escaped line breaks removed).
  std::vector<std::string> values;
  TextPosition position;
};

struct SgfNode {
  std::vector<SgfProperty> properties;
  TextPosition position;
  // The property with `id`, or nullptr. The pointer lives as long as the node.
  const SgfProperty* Find(const std::string& id) const;
};

inline constexpr int kMaxSgfNesting = 2000;

// The main line of the single game tree in `text` (surrounding white space
// allowed). INVALID_ARGUMENT, naming the line and column and what was
// expected, for: text that is not SGF, an unterminated value or tree, an
// empty sequence, a property without a value, more than one game tree,
// variations nested deeper than kMaxSgfNesting. Thread-safe.
absl::StatusOr<std::vector<SgfNode>> ReadSgfMainLine(const std::string& text);

}  // namespace gorank::rules::gomoku

#endif  // GORANK_SERVICES_RULES_GOMOKU_SGF_READER_H_
