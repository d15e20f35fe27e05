#include "services/rules/gomoku/sgf_reader.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "services/common/status_macros.h"

namespace gorank::rules::gomoku {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  absl::StatusOr<std::vector<SgfNode>> Run() {
    // A UTF-8 byte order mark is allowed before the tree.
    if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
    SkipSpace();
    if (AtEnd() || Peek() != '(') return Error("expected '(' to open the game");
    GORANK_RETURN_IF_ERROR(Tree(0, /*main=*/true));
    SkipSpace();
    if (!AtEnd()) {
      return Error(Peek() == '('
                       ? "a second game tree; a record must hold one game"
                       : "unexpected text after the game tree");
    }
    return std::move(nodes_);
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return text_[pos_]; }
  void Advance() {
    if (text_[pos_] == '\n') {
      ++where_.line;
      where_.column = 1;
    } else {
      ++where_.column;
    }
    ++pos_;
  }
  void SkipSpace() {
    while (!AtEnd() && IsSpace(Peek())) Advance();
  }
  absl::Status Error(const std::string& what) const {
    return absl::InvalidArgumentError("SGF " + where_.ToString() + ": " + what);
  }

  // GameTree = "(" Sequence { GameTree } ")". Only the first child of a
  // main-line tree is itself main line.
  absl::Status Tree(int depth, bool main) {
    if (depth >= kMaxSgfNesting) return Error("variations nested too deeply");
    Advance();  // '('
    SkipSpace();
    if (AtEnd() || Peek() != ';') return Error("expected ';' to start a node");
    while (!AtEnd() && Peek() == ';') {
      GORANK_RETURN_IF_ERROR(Node(main));
      SkipSpace();
    }
    bool first_child = true;
    while (!AtEnd() && Peek() == '(') {
      GORANK_RETURN_IF_ERROR(Tree(depth + 1, main && first_child));
      first_child = false;
      SkipSpace();
    }
    if (AtEnd()) return Error("the game tree is not closed with ')'");
    if (Peek() != ')') return Error("expected ';', '(' or ')'");
    Advance();
    return absl::OkStatus();
  }

  absl::Status Node(bool main) {
    SgfNode node;
    node.position = where_;
    Advance();  // ';'
    SkipSpace();
    while (!AtEnd() && Peek() >= 'A' && Peek() <= 'z' &&
           (Peek() <= 'Z' || Peek() >= 'a')) {
      SgfProperty property;
      property.position = where_;
      while (!AtEnd() && ((Peek() >= 'A' && Peek() <= 'Z') ||
                          (Peek() >= 'a' && Peek() <= 'z'))) {
        if (Peek() <= 'Z') property.id.push_back(Peek());
        Advance();
      }
      if (property.id.empty())
        return Error("a property name needs upper-case letters");
      SkipSpace();
      if (AtEnd() || Peek() != '[') {
        return Error("expected '[' after property " + property.id);
      }
      while (!AtEnd() && Peek() == '[') {
        GORANK_ASSIGN_OR_RETURN(std::string value, Value());
        property.values.push_back(std::move(value));
        SkipSpace();
      }
      node.properties.push_back(std::move(property));
    }
    if (main) nodes_.push_back(std::move(node));
    return absl::OkStatus();
  }

  absl::StatusOr<std::string> Value() {
    const TextPosition start = where_;
    Advance();  // '['
    std::string value;
    while (!AtEnd() && Peek() != ']') {
      if (Peek() == '\\') {
        Advance();
        if (AtEnd()) break;
        if (Peek() == '\n' || Peek() == '\r') {  // soft line break
          Advance();
          continue;
        }
      }
      value.push_back(Peek());
      Advance();
    }
    if (AtEnd()) {
      return absl::InvalidArgumentError(
          "SGF " + start.ToString() +
          ": property value is not closed with ']'");
    }
    Advance();  // ']'
    return value;
  }

  const std::string& text_;
  size_t pos_ = 0;
  TextPosition where_;
  std::vector<SgfNode> nodes_;
};

}  // namespace

std::string TextPosition::ToString() const {
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

const SgfProperty* SgfNode::Find(const std::string& id) const {
  for (const SgfProperty& property : properties) {
    if (property.id == id) return &property;
  }
  return nullptr;
}

absl::StatusOr<std::vector<SgfNode>> ReadSgfMainLine(const std::string& text) {
  return Parser(text).Run();
}

}  // namespace gorank::rules::gomoku
