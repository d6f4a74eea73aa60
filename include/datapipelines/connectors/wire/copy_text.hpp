#pragma once
// PostgreSQL COPY text format (one row per line, tab-separated, \N for NULL) for callers that
// feed Connection::CopyIn. Escaping follows the COPY documentation: backslash, tab, newline and
// carriage return are written as backslash sequences; every other byte (UTF-8 included) as is.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dp::copy_text {

// Appends one non-NULL field value, escaped.
void AppendValue(std::string& buffer, std::string_view value);

// Appends one row: fields tab-separated, nullopt as \N, terminated by a newline.
void AppendRow(std::string& buffer, const std::vector<std::optional<std::string>>& row);

}  // namespace dp::copy_text
