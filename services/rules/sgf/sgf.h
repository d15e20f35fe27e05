// SGF (FF[4], and FF[1]-FF[3] leniencies) parsed into game trees. The parser
// knows the grammar only, not what a property means; the Go checker
// (services/rules/go/) and other game checkers interpret the properties.
//
// Accepted beyond the strict grammar, because real files need it: junk before
// the first `(;` and between or after game trees (e.g. KGS's trailing `])))`),
// lowercase letters inside property identifiers (FF[3] style, dropped:
// `AddBlack` -> `AB`), repeated identifiers within a node (values are read
// together by Values()). Escapes follow FF[4]: `\` escapes the next byte, and
// `\` followed by a line break (LF, CR, CRLF or LFCR) is a soft line break and
// disappears; white space other than line breaks becomes a space.
//
// The parser is iterative (an explicit stack), so deep variation nesting costs
// heap, not native stack, and is bounded by Limits::max_depth. Trees are
// stored flat (vectors of nodes, properties and values), so destroying a tree
// is not recursive either.
#ifndef GORANK_SERVICES_RULES_SGF_SGF_H_
#define GORANK_SERVICES_RULES_SGF_SGF_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace gorank::rules::sgf {

// Hard limits on one input (a whole collection).
struct Limits {
  size_t max_bytes = 1 << 20;  // 1 MiB of raw input
  int max_nodes = 200000;      // over all games of the collection
  int max_depth = 10000;       // nesting of '(' within one game tree
  int max_games = 10000;
};

struct Value {
  std::string text;  // unescaped, UTF-8
  uint32_t offset;   // byte offset of the '[' in the decoded text
};

struct Property {
  std::string id;  // uppercase letters only
  uint32_t first_value;
  uint32_t value_count;
  uint32_t offset;  // byte offset of the identifier
};

struct Node {
  uint32_t first_property = 0;
  uint32_t property_count = 0;
  int32_t parent = -1;
  int32_t first_child = -1;
  int32_t next_sibling = -1;
  int32_t last_child = -1;
  int32_t child_count = 0;
  uint32_t offset = 0;  // byte offset of the ';'
};

// One game tree (GameTree of the grammar). Node 0 is the root. Value type;
// thread-compatible.
class GameTree {
 public:
  int node_count() const { return static_cast<int>(nodes_.size()); }
  const Node& node(int index) const { return nodes_[index]; }
  const Property& property(uint32_t index) const { return properties_[index]; }
  const Value& value(uint32_t index) const { return values_[index]; }

  // The first property `id` of node `node`, or nullptr.
  const Property* Find(int node, std::string_view id) const;
  // The first value of property `id` at `node`, or nullptr.
  const Value* FirstValue(int node, std::string_view id) const;
  // Every value of every property `id` at `node` (repeats merged), in order.
  std::vector<const Value*> Values(int node, std::string_view id) const;

  // The node indices from the root to a leaf. At each node with several
  // children (a fork) the next element of `variation` picks the child
  // (0 = the main line); once `variation` is used up the first child is
  // taken. An empty `variation` gives the main line.
  // INVALID_ARGUMENT when an element is out of range for its fork, or when
  // `variation` has more elements than the line has forks.
  absl::StatusOr<std::vector<int>> Line(
      const std::vector<int>& variation) const;

 private:
  friend class Parser;
  std::vector<Node> nodes_;
  std::vector<Property> properties_;
  std::vector<Value> values_;
};

struct Collection {
  std::vector<GameTree> games;   // at least one
  std::string charset;           // charset the bytes were decoded from
  std::string declared_charset;  // CA[] as written, may be empty
  std::string charset_note;      // see DecodedText::note; empty when plain
};

// Parses a whole SGF file (one or more game trees).
// INVALID_ARGUMENT: no game tree at all, or a malformed tree; the message
// names the byte offset (in the UTF-8 text, which equals the input offset for
// UTF-8 input) and what was expected there.
// RESOURCE_EXHAUSTED: input over max_bytes, more than max_nodes nodes, a tree
// nested deeper than max_depth, or more than max_games trees.
// Thread-safe (no shared state).
absl::StatusOr<Collection> ParseCollection(std::string_view bytes,
                                           const Limits& limits = Limits());

// Parses already-decoded UTF-8 text (no charset handling). Same errors as
// ParseCollection except the byte limit, which the caller applies.
absl::StatusOr<std::vector<GameTree>> ParseText(
    std::string_view text, const Limits& limits = Limits());

}  // namespace gorank::rules::sgf

#endif  // GORANK_SERVICES_RULES_SGF_SGF_H_
