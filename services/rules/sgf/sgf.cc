#include "services/rules/sgf/sgf.h"

#include <string>
#include <utility>

#include "services/common/status_macros.h"
#include "services/rules/sgf/charset.h"

namespace gorank::rules::sgf {

const Property* GameTree::Find(int node, std::string_view id) const {
  const Node& n = nodes_[node];
  for (uint32_t i = 0; i < n.property_count; ++i) {
    const Property& p = properties_[n.first_property + i];
    if (p.id == id) return &p;
  }
  return nullptr;
}

const Value* GameTree::FirstValue(int node, std::string_view id) const {
  const Property* p = Find(node, id);
  return p == nullptr || p->value_count == 0 ? nullptr
                                             : &values_[p->first_value];
}

std::vector<const Value*> GameTree::Values(int node,
                                           std::string_view id) const {
  std::vector<const Value*> out;
  const Node& n = nodes_[node];
  for (uint32_t i = 0; i < n.property_count; ++i) {
    const Property& p = properties_[n.first_property + i];
    if (p.id != id) continue;
    for (uint32_t k = 0; k < p.value_count; ++k)
      out.push_back(&values_[p.first_value + k]);
  }
  return out;
}

absl::StatusOr<std::vector<int>> GameTree::Line(
    const std::vector<int>& variation) const {
  std::vector<int> line;
  size_t fork = 0;
  int current = 0;
  while (true) {
    line.push_back(current);
    const Node& n = nodes_[current];
    if (n.first_child < 0) break;
    int choice = 0;
    if (n.child_count > 1 && fork < variation.size()) {
      choice = variation[fork++];
      if (choice < 0 || choice >= n.child_count) {
        return absl::InvalidArgumentError(
            "variation element " + std::to_string(fork - 1) + " is " +
            std::to_string(choice) + " but the fork at byte offset " +
            std::to_string(n.offset) + " has " + std::to_string(n.child_count) +
            " branches");
      }
    }
    current = n.first_child;
    for (int k = 0; k < choice; ++k) current = nodes_[current].next_sibling;
  }
  if (fork < variation.size()) {
    return absl::InvalidArgumentError(
        "variation has " + std::to_string(variation.size()) +
        " elements but the chosen line has only " + std::to_string(fork) +
        " forks");
  }
  return line;
}

class Parser {
 public:
  Parser(std::string_view text, const Limits& limits)
      : text_(text), limits_(limits) {}

  absl::StatusOr<std::vector<GameTree>> ParseAll() {
    std::vector<GameTree> games;
    while (FindGameStart()) {
      if (static_cast<int>(games.size()) >= limits_.max_games) {
        return absl::ResourceExhaustedError("more than " +
                                            std::to_string(limits_.max_games) +
                                            " game trees in one collection");
      }
      games.emplace_back();
      GORANK_RETURN_IF_ERROR(ParseGameTree(games.back()));
    }
    if (games.empty()) {
      return absl::InvalidArgumentError(
          "no SGF game tree found: expected '(;' somewhere in the input");
    }
    return games;
  }

 private:
  // Moves pos_ to the next '(' followed (after white space) by ';'; false at
  // the end of the input. Anything skipped is junk around the trees.
  bool FindGameStart() {
    while (pos_ < text_.size()) {
      size_t open = text_.find('(', pos_);
      if (open == std::string_view::npos) break;
      size_t k = open + 1;
      while (k < text_.size() && IsSpace(text_[k])) ++k;
      if (k < text_.size() && text_[k] == ';') {
        pos_ = open;
        return true;
      }
      pos_ = open + 1;
    }
    pos_ = text_.size();
    return false;
  }

  static bool IsSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
  }
  static bool IsLetter(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  }

  void SkipSpace() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  }

  absl::Status Error(const std::string& expected) const {
    std::string found = pos_ >= text_.size()
                            ? "end of input"
                            : "'" + std::string(1, text_[pos_]) + "'";
    return absl::InvalidArgumentError("malformed SGF at byte offset " +
                                      std::to_string(pos_) + ": expected " +
                                      expected + ", found " + found);
  }

  // REQUIRES: text_[pos_] == '('. Reads one whole game tree iteratively.
  absl::Status ParseGameTree(GameTree& game) {
    std::vector<int32_t> open;  // the node each open '(' branches from
    int32_t current = -1;
    bool need_node = true;  // right after '(' a node must follow
    ++pos_;
    open.push_back(-1);
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size()) return Error("')' to close the game tree");
      char c = text_[pos_];
      if (need_node && c != ';') return Error("';' to start a node after '('");
      if (c == ';') {
        GORANK_RETURN_IF_ERROR(AddNode(game, current));
        current = game.node_count() - 1;
        need_node = false;
        ++pos_;
      } else if (c == '(') {
        if (static_cast<int>(open.size()) >= limits_.max_depth) {
          return absl::ResourceExhaustedError(
              "variations nested deeper than " +
              std::to_string(limits_.max_depth) + " levels at byte offset " +
              std::to_string(pos_));
        }
        open.push_back(current);
        need_node = true;
        ++pos_;
      } else if (c == ')') {
        current = open.back();
        open.pop_back();
        ++pos_;
        if (open.empty()) return absl::OkStatus();
      } else if (IsLetter(c)) {
        GORANK_RETURN_IF_ERROR(ParseProperty(game));
      } else {
        return Error("a property identifier, ';', '(' or ')'");
      }
    }
  }

  absl::Status AddNode(GameTree& game, int32_t parent) {
    if (++total_nodes_ > limits_.max_nodes) {
      return absl::ResourceExhaustedError(
          "more than " + std::to_string(limits_.max_nodes) +
          " nodes in one input (byte offset " + std::to_string(pos_) + ")");
    }
    Node node;
    node.parent = parent;
    node.first_property = static_cast<uint32_t>(game.properties_.size());
    node.offset = static_cast<uint32_t>(pos_);
    int32_t index = game.node_count();
    if (parent >= 0) {
      Node& p = game.nodes_[parent];
      if (p.last_child >= 0) {
        game.nodes_[p.last_child].next_sibling = index;
      } else {
        p.first_child = index;
      }
      p.last_child = index;
      ++p.child_count;
    }
    game.nodes_.push_back(node);
    return absl::OkStatus();
  }

  absl::Status ParseProperty(GameTree& game) {
    Property prop;
    prop.offset = static_cast<uint32_t>(pos_);
    while (pos_ < text_.size() && IsLetter(text_[pos_])) {
      if (text_[pos_] <= 'Z') prop.id.push_back(text_[pos_]);
      ++pos_;
    }
    if (prop.id.empty()) {
      pos_ = prop.offset;
      return Error("a property identifier with at least one uppercase letter");
    }
    prop.first_value = static_cast<uint32_t>(game.values_.size());
    prop.value_count = 0;
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '[') break;
      GORANK_RETURN_IF_ERROR(ParseValue(game));
      ++prop.value_count;
    }
    if (prop.value_count == 0) {
      return Error("'[' to open a value of property " + prop.id);
    }
    game.properties_.push_back(std::move(prop));
    ++game.nodes_.back().property_count;
    return absl::OkStatus();
  }

  // REQUIRES: text_[pos_] == '['.
  absl::Status ParseValue(GameTree& game) {
    Value value;
    value.offset = static_cast<uint32_t>(pos_);
    ++pos_;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == ']') {
        game.values_.push_back(std::move(value));
        return absl::OkStatus();
      }
      if (c == '\\') {
        if (pos_ >= text_.size()) break;
        char d = text_[pos_++];
        if (d == '\n' || d == '\r') {  // soft line break: dropped
          if (pos_ < text_.size() &&
              (text_[pos_] == '\n' || text_[pos_] == '\r') &&
              text_[pos_] != d) {
            ++pos_;
          }
          continue;
        }
        value.text.push_back(d);
        continue;
      }
      if (c == '\t' || c == '\v' || c == '\f') c = ' ';
      value.text.push_back(c);
    }
    pos_ = value.offset;
    return absl::InvalidArgumentError(
        "malformed SGF at byte offset " + std::to_string(value.offset) +
        ": the value opened here has no closing ']'");
  }

  std::string_view text_;
  Limits limits_;
  size_t pos_ = 0;
  int total_nodes_ = 0;
};

absl::StatusOr<std::vector<GameTree>> ParseText(std::string_view text,
                                                const Limits& limits) {
  Parser parser(text, limits);
  return parser.ParseAll();
}

absl::StatusOr<Collection> ParseCollection(std::string_view bytes,
                                           const Limits& limits) {
  if (bytes.size() > limits.max_bytes) {
    return absl::ResourceExhaustedError(
        "record of " + std::to_string(bytes.size()) + " bytes is over the " +
        std::to_string(limits.max_bytes) + "-byte limit");
  }
  GORANK_ASSIGN_OR_RETURN(DecodedText decoded, DecodeSgfBytes(bytes));
  Collection collection;
  GORANK_ASSIGN_OR_RETURN(collection.games, ParseText(decoded.utf8, limits));
  collection.charset = std::move(decoded.charset);
  collection.declared_charset = std::move(decoded.declared);
  collection.charset_note = std::move(decoded.note);
  return collection;
}

}  // namespace gorank::rules::sgf
