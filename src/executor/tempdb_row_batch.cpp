#include "tempdb_row_batch.hpp"

#include <charconv>
#include <cmath>

#include "datapipelines/connectors/wire/wire_encoder.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "tempdb_columns.hpp"

namespace dp {
namespace {

bool ParseInt64(std::string_view text, int64_t& out) {
  if (text.size() > 1 && text[0] == '+') text.remove_prefix(1);  // from_chars refuses '+'
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// An optionally signed run of digits: an integer, whatever its size.
bool IsIntegerText(std::string_view text) {
  std::size_t pos = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (pos == text.size()) return false;
  return text.find_first_not_of("0123456789", pos) == std::string_view::npos;
}

std::size_t CountDigits(std::string_view text) {
  std::size_t digits = 0;
  for (char c : text) digits += (c >= '0' && c <= '9');
  return digits;
}

// The same readings WireEncoder gives a BOOLEAN cell (PG "t"/"f", MySQL BIT(1) bytes,
// tinyint(1) numbers), so a staged flag reads back as the value the source meant.
std::optional<bool> ParseBool(std::string_view text) {
  if (text == "t" || text == "true" || text == "TRUE" || text == "1") return true;
  if (text == "f" || text == "false" || text == "FALSE" || text == "0") return false;
  if (text.size() == 1 && (text[0] == '\x01' || text[0] == '\x00')) return text[0] == '\x01';
  int64_t number = 0;
  if (ParseInt64(text, number)) return number != 0;
  return std::nullopt;
}

}  // namespace

RowBatch::RowBatch(std::string table, const std::vector<ColumnSchema>& columns)
    : table_(std::move(table)) {
  for (const auto& column : columns) {
    mappings_.push_back(column.mapping);
    names_.push_back(column.name);
  }
}

void RowBatch::Clear() {
  cells_.clear();
  text_.clear();
  rows_ = 0;
}

void RowBatch::Append(const RowView& row) {
  std::size_t width = mappings_.size();
  std::size_t base = cells_.size();
  cells_.resize(base + width);
  for (std::size_t i = 0; i < width; ++i) {
    Cell& cell = cells_[base + i];
    cell.kind = Kind::kNull;
    if (i >= row.size() || row.is_null(i)) continue;
    Convert(i, *row.text(i), cell);
  }
  ++rows_;
}

void RowBatch::Store(std::string_view bytes, Kind kind, Cell& cell) {
  cell.kind = kind;
  cell.offset = text_.size();
  cell.length = static_cast<uint32_t>(bytes.size());
  text_.append(bytes);
}

void RowBatch::Convert(std::size_t column, std::string_view value, Cell& cell) {
  const TypeMapping& mapping = mappings_[column];
  switch (mapping.type) {
    case CanonicalType::kInteger:
    case CanonicalType::kBigInteger:
      return Integer(column, value, cell);
    case CanonicalType::kBoolean:
      return Boolean(value, cell);
    case CanonicalType::kDecimal:
      return Decimal(value, cell);
    case CanonicalType::kBigDecimal:
      CheckDigits(column, value);
      return Store(value, Kind::kText, cell);  // byte-identical: trailing zeros are the scale
    case CanonicalType::kBinary:
      return Store(value, Kind::kBlob, cell);
    case CanonicalType::kDate:
    case CanonicalType::kTime:
    case CanonicalType::kTimestamp: {
      // Stored in the wire's ISO form (UTC, 6 fractional digits), so staged values compare
      // and sort correctly as text whatever spelling the source driver used.
      WireScalar scalar = WireEncoder::Scalar(mapping, value, scratch_);
      return Store(scalar.text, Kind::kText, cell);
    }
    case CanonicalType::kNull:
    case CanonicalType::kString:
      break;
  }
  Store(value, Kind::kText, cell);  // never numerically coerced: TEXT affinity keeps '0123'
}

void RowBatch::Integer(std::size_t column, std::string_view value, Cell& cell) {
  if (ParseInt64(value, cell.integer)) {
    cell.kind = Kind::kInteger;
    return;
  }
  bool big = mappings_[column].type == CanonicalType::kBigInteger;
  if (IsIntegerText(value) && !big) {
    // An INTEGER column would turn a value beyond int64 into an inexact REAL (§8.9).
    throw DomainError(errc::kStagingValueOverflow,
                      "a value of column '" + names_[column] + "' staged as '" + table_ +
                          "' exceeds the 64-bit integer range; CAST it in the source query",
                      Json{{"table", table_}, {"column", names_[column]}, {"type", "INTEGER"}});
  }
  // BIGINTEGER's column has no affinity, so a value past int64 stays exact text; anything
  // non-numeric is kept as the driver gave it, as the wire encoder would show it.
  if (big) CheckDigits(column, value);
  Store(value, Kind::kText, cell);
}

void RowBatch::Decimal(std::string_view value, Cell& cell) {
  // DECIMAL is precision ≤ 15 by definition: every value round-trips through a double and
  // is a JSON number on the wire, and REAL storage keeps numeric comparison and ORDER BY.
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), cell.real);
  if (ec == std::errc() && ptr == value.data() + value.size() && std::isfinite(cell.real)) {
    cell.kind = Kind::kReal;
    return;
  }
  Store(value, Kind::kText, cell);  // NaN/Infinity/odd spellings: SQLite would make NULL
}

void RowBatch::Boolean(std::string_view value, Cell& cell) {
  if (auto flag = ParseBool(value)) {
    cell.kind = Kind::kInteger;
    cell.integer = *flag ? 1 : 0;
    return;
  }
  Store(value, Kind::kText, cell);
}

void RowBatch::CheckDigits(std::size_t column, std::string_view value) const {
  if (value.size() <= static_cast<std::size_t>(tempdb_columns::kMaxPrecision)) return;
  std::size_t digits = CountDigits(value);
  if (digits <= static_cast<std::size_t>(tempdb_columns::kMaxPrecision)) return;
  throw DomainError(errc::kStagingPrecisionOverflow,
                    "a value of column '" + names_[column] + "' staged as '" + table_ + "' has " +
                        std::to_string(digits) + " digits, beyond the staging limit " +
                        std::to_string(tempdb_columns::kMaxPrecision),
                    Json{{"table", table_},
                         {"column", names_[column]},
                         {"digits", digits},
                         {"limit", tempdb_columns::kMaxPrecision}});
}

int RowBatch::Bind(sqlite3_stmt* stmt, int row, int first_param) const {
  std::size_t width = mappings_.size();
  const Cell* cell = cells_.data() + static_cast<std::size_t>(row) * width;
  for (std::size_t i = 0; i < width; ++i, ++cell) {
    int index = first_param + static_cast<int>(i);
    int rc = SQLITE_OK;
    switch (cell->kind) {
      case Kind::kNull:
        rc = sqlite3_bind_null(stmt, index);
        break;
      case Kind::kInteger:
        rc = sqlite3_bind_int64(stmt, index, cell->integer);
        break;
      case Kind::kReal:
        rc = sqlite3_bind_double(stmt, index, cell->real);
        break;
      case Kind::kText:
        rc = sqlite3_bind_text(stmt, index, text_.data() + cell->offset,
                               static_cast<int>(cell->length), SQLITE_STATIC);
        break;
      case Kind::kBlob:
        rc = sqlite3_bind_blob(stmt, index, text_.data() + cell->offset,
                               static_cast<int>(cell->length), SQLITE_STATIC);
        break;
    }
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

}  // namespace dp
