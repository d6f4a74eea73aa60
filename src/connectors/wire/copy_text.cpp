#include "datapipelines/connectors/wire/copy_text.hpp"

namespace dp::copy_text {

void AppendValue(std::string& buffer, std::string_view value) {
  std::size_t plain = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    const char* escaped = c == '\\'   ? "\\\\"
                          : c == '\t' ? "\\t"
                          : c == '\n' ? "\\n"
                          : c == '\r' ? "\\r"
                                      : nullptr;
    if (!escaped) continue;
    // Copy the unescaped run in one append: most values have nothing to escape.
    buffer.append(value.substr(plain, i - plain));
    buffer.append(escaped);
    plain = i + 1;
  }
  buffer.append(value.substr(plain));
}

void AppendRow(std::string& buffer, const std::vector<std::optional<std::string>>& row) {
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i) buffer += '\t';
    if (row[i]) {
      AppendValue(buffer, *row[i]);
    } else {
      buffer += "\\N";
    }
  }
  buffer += '\n';
}

}  // namespace dp::copy_text
