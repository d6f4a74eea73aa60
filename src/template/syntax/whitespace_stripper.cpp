#include "template/syntax/whitespace_stripper.hpp"

#include <string_view>

#include "template/java/utf16_text.hpp"

namespace dp::tmpl {
namespace {

bool IsStrippableSpace(char c) { return static_cast<unsigned char>(c) <= ' '; }

bool TrimmableToEmpty(std::string_view text) {
  for (char c : text) {
    if (!IsStrippableSpace(c)) return false;
  }
  return true;
}

bool IsTopLevel(const Node* node) { return node->parent && node->parent->kind == NodeKind::kRoot; }

Node* PrevSibling(const Node* node) {
  if (!node->parent || node->index == 0) return nullptr;
  return node->parent->children[node->index - 1].get();
}

Node* NextSibling(const Node* node) {
  if (!node->parent || node->index + 1 >= node->parent->children.size()) return nullptr;
  return node->parent->children[node->index + 1].get();
}

bool TreatedAsLeaf(const Node* node) {
  return node->children.empty() || node->kind == NodeKind::kMacro ||
         node->kind == NodeKind::kFunction || node->kind == NodeKind::kAssignBlock;
}

Node* LastLeaf(Node* node) {
  while (!TreatedAsLeaf(node)) node = node->children.back().get();
  return node;
}

Node* FirstLeaf(Node* node) {
  while (!TreatedAsLeaf(node)) node = node->children.front().get();
  return node;
}

Node* PrevTerminal(const Node* node) {
  if (Node* prev = PrevSibling(node)) return LastLeaf(prev);
  if (node->parent && node->parent->kind != NodeKind::kRoot) return PrevTerminal(node->parent);
  return nullptr;
}

Node* NextTerminal(const Node* node) {
  if (Node* next = NextSibling(node)) return FirstLeaf(next);
  if (node->parent && node->parent->kind != NodeKind::kRoot) return NextTerminal(node->parent);
  return nullptr;
}

bool NonOutputting(const Node* node) {
  if (!node) return false;
  switch (node->kind) {
    case NodeKind::kMacro:
    case NodeKind::kFunction:
    case NodeKind::kAssign:
    case NodeKind::kSetting:
    case NodeKind::kComment:
      return true;
    default:
      return false;
  }
}

bool IsIgnorable(const Node* node) {
  if (node->kind == NodeKind::kTrim) return true;  // removed once its line is trimmed
  if (node->kind != NodeKind::kText) return false;
  if (node->text.empty()) return true;
  if (!TrimmableToEmpty(node->text)) return false;
  const bool top = IsTopLevel(node);
  const Node* prev = PrevSibling(node);
  const Node* next = NextSibling(node);
  return ((prev == nullptr && top) || NonOutputting(prev)) &&
         ((next == nullptr && top) || NonOutputting(next));
}

// Whether the text's last line (opening) or first line (trailing) is printed on the line of
// the element next to it: it has no line break, or that line has a non-white-space character
// (Character.isWhitespace, so U+2028 is white-space and U+0001 is not).
bool HeedsOpening(const Node* node) {
  if (node->kind == NodeKind::kInterpolation) return true;
  if (node->kind != NodeKind::kText || IsIgnorable(node)) return false;
  const size_t last = node->text.find_last_of("\r\n");
  return last == std::string::npos ||
         HasNonJavaWhitespace(std::string_view(node->text).substr(last + 1));
}

bool HeedsTrailing(const Node* node) {
  if (node->kind == NodeKind::kInterpolation) return true;
  if (node->kind != NodeKind::kText || IsIgnorable(node)) return false;
  const size_t first = node->text.find_first_of("\r\n");
  return first == std::string::npos ||
         HasNonJavaWhitespace(std::string_view(node->text).substr(0, first));
}

size_t OpeningCharsToStrip(const Node* node) {
  const std::string& text = node->text;
  const size_t newline = text.find_first_of("\r\n");
  if (newline == std::string::npos && node->begin.column != 1) return 0;
  size_t count = newline == std::string::npos ? 0 : newline + 1;
  if (count > 0 && count < text.size() && text[count - 1] == '\r' && text[count] == '\n') ++count;
  if (!TrimmableToEmpty(std::string_view(text).substr(0, count))) return 0;
  for (const Node* elem = PrevTerminal(node); elem && elem->end.line == node->begin.line;
       elem = PrevTerminal(elem)) {
    if (HeedsOpening(elem)) return 0;
  }
  return count;
}

size_t TrailingCharsToStrip(const Node* node) {
  const std::string& text = node->text;
  const size_t last = text.find_last_of("\r\n");
  if (last == std::string::npos && node->begin.column != 1) return 0;
  const size_t from = last == std::string::npos ? 0 : last + 1;
  if (!TrimmableToEmpty(std::string_view(text).substr(from))) return 0;
  for (const Node* elem = NextTerminal(node); elem && elem->begin.line == node->end.line;
       elem = NextTerminal(elem)) {
    if (HeedsTrailing(elem)) return 0;
  }
  return text.size() - from;
}

// Java's Character.isWhitespace for the ASCII range (the directives trim with it).
bool IsJavaWs(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1C' && c <= '\x1F');
}

// <#t>/<#lt> later on this text's last line: drop that line's leading white-space (or the whole
// line when it is blank). Returns whether any trim directive there suppresses normal stripping.
bool DeliberateLeftTrim(Node* node) {
  bool result = false;
  for (const Node* elem = NextTerminal(node); elem && elem->begin.line == node->end.line;
       elem = NextTerminal(elem)) {
    if (elem->kind != NodeKind::kTrim) continue;
    if (!elem->trim_left && !elem->trim_right) result = true;
    if (!elem->trim_left) continue;
    result = true;
    std::string& text = node->text;
    const size_t last = text.find_last_of("\r\n");
    if (last == std::string::npos && node->begin.column != 1) continue;
    const size_t line_start = last == std::string::npos ? 0 : last + 1;
    if (TrimmableToEmpty(std::string_view(text).substr(line_start))) {
      text.resize(line_start);
    } else {
      size_t i = line_start;
      while (i < text.size() && IsJavaWs(text[i])) ++i;
      text.erase(line_start, i - line_start);
    }
  }
  return result;
}

bool LeftTrimLaterOnLine(const Node* node) {
  bool trim = true;
  for (const Node* elem = NextTerminal(node); elem && elem->begin.line == node->end.line;
       elem = NextTerminal(elem)) {
    if (HeedsOpening(elem)) trim = false;
    if (elem->kind == NodeKind::kTrim && elem->trim_left) return true;
  }
  return trim;
}

// <#t>/<#rt> earlier on this text's first line: drop that line's trailing white-space and its
// line break. Returns whether any trim directive there suppresses normal stripping.
bool DeliberateRightTrim(Node* node) {
  bool result = false;
  for (const Node* elem = PrevTerminal(node); elem && elem->end.line == node->begin.line;
       elem = PrevTerminal(elem)) {
    if (elem->kind != NodeKind::kTrim) continue;
    if (!elem->trim_left && !elem->trim_right) result = true;
    if (!elem->trim_right) continue;
    result = true;
    std::string& text = node->text;
    const size_t newline = text.find_first_of("\r\n");
    if (newline == std::string::npos) return false;
    size_t first_line_end = newline + 1;
    if (first_line_end < text.size() && text[first_line_end - 1] == '\r' &&
        text[first_line_end] == '\n') {
      ++first_line_end;
    }
    if (TrimmableToEmpty(std::string_view(text).substr(0, first_line_end))) {
      text.erase(0, first_line_end);
      ++node->begin.line;
      node->begin.column = 1;
    } else {
      size_t keep = first_line_end;
      while (keep > 0 && IsJavaWs(text[keep - 1])) --keep;
      std::string rest = text.substr(first_line_end);
      if (TrimmableToEmpty(rest) && LeftTrimLaterOnLine(node)) rest.clear();
      text = text.substr(0, keep) + rest;
    }
  }
  return result;
}

void CleanText(Node* node) {
  if (node->text.empty()) return;
  const bool left_trimmed = DeliberateLeftTrim(node);
  const bool right_trimmed = DeliberateRightTrim(node);
  if (node->text.empty()) return;
  if (IsTopLevel(node) && PrevSibling(node) == nullptr) return;
  const size_t trailing = left_trimmed ? 0 : TrailingCharsToStrip(node);
  const size_t opening = right_trimmed ? 0 : OpeningCharsToStrip(node);
  if (opening == 0 && trailing == 0) return;
  if (opening + trailing >= node->text.size()) {
    node->text.clear();
  } else {
    node->text = node->text.substr(opening, node->text.size() - opening - trailing);
  }
  if (opening > 0) {
    ++node->begin.line;
    node->begin.column = 1;
  }
}

void Clean(Node* node) {
  for (auto& child : node->children) {
    if (child->kind == NodeKind::kText) {
      CleanText(child.get());
    } else {
      Clean(child.get());
    }
  }
  for (size_t i = 0; i < node->children.size();) {
    if (IsIgnorable(node->children[i].get())) {
      node->children.erase(node->children.begin() + static_cast<long>(i));
      for (size_t j = i; j < node->children.size(); ++j) node->children[j]->index = j;
    } else {
      ++i;
    }
  }
}

void AssignIndexes(Node* node) {
  for (size_t i = 0; i < node->children.size(); ++i) {
    Node* child = node->children[i].get();
    child->index = i;
    child->parent = node;
    AssignIndexes(child);
  }
}

}  // namespace

void WhitespaceStripper::Strip(Node* root) {
  // A template that is one text block is FreeMarker's root element itself, never cleaned up.
  if (root->children.size() == 1 && root->children[0]->kind == NodeKind::kText) return;
  AssignIndexes(root);
  Clean(root);
}

}  // namespace dp::tmpl
