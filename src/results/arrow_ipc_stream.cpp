// The Arrow IPC streaming format, by hand: encapsulated messages (0xFFFFFFFF, int32 metadata
// length, a FlatBuffers Message padded to 8 bytes, then the body), a Schema message, one
// RecordBatch and the end-of-stream marker. Only what the result types need is encoded —
// the Schema.fbs / Message.fbs slot numbers below are the spec's field order.
#include "datapipelines/results/arrow_ipc_stream.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "datapipelines/util/crypto.hpp"
#include "results/arrow_flatbuffer.hpp"
#include "results/arrow_temporal.hpp"

namespace dp {
namespace {

using arrow::AppendLittleEndian;
using arrow::FbTable;

// Schema.fbs enums and union tags.
constexpr int16_t kMetadataV5 = 4;
constexpr uint8_t kHeaderSchema = 1;
constexpr uint8_t kHeaderRecordBatch = 3;
constexpr int16_t kPrecisionDouble = 2;
constexpr int16_t kDateUnitDay = 0;
constexpr int16_t kTimeUnitMicrosecond = 2;

enum class ArrowType : uint8_t {  // values are the Type union tags
  kInt = 2,
  kFloatingPoint = 3,
  kBinary = 4,
  kUtf8 = 5,
  kBool = 6,
  kDate = 8,
  kTimestamp = 10,
};

struct Column {
  std::string name;
  std::string wire_type;
  ArrowType type = ArrowType::kUtf8;
};

ArrowType TypeFor(const std::string& wire_type) {
  if (wire_type == "BOOLEAN") return ArrowType::kBool;
  if (wire_type == "INTEGER") return ArrowType::kInt;
  if (wire_type == "DECIMAL") return ArrowType::kFloatingPoint;
  if (wire_type == "BINARY") return ArrowType::kBinary;
  if (wire_type == "DATE") return ArrowType::kDate;
  if (wire_type == "TIMESTAMP") return ArrowType::kTimestamp;
  // BIGINTEGER, BIGDECIMAL (exact text beats a lossy number), STRING, TIME — and any type
  // added to the wire later, which still exports as its text rather than failing the call.
  return ArrowType::kUtf8;
}

std::vector<Column> ColumnsOf(const Json& envelope) {
  const Json& list = envelope.is_array() ? envelope : envelope.value("schema", Json::array());
  std::vector<Column> columns;
  for (const Json& entry : list) {
    Column column;
    column.name = entry.value("name", "");
    column.wire_type = entry.value("type", "STRING");
    column.type = TypeFor(column.wire_type);
    columns.push_back(std::move(column));
  }
  return columns;
}

FbTable TypeTable(ArrowType type) {
  FbTable table;  // Utf8, Binary and Bool are empty tables
  switch (type) {
    case ArrowType::kInt:
      table.Int32(0, 32).Bool(1, true);  // bitWidth, is_signed
      break;
    case ArrowType::kFloatingPoint:
      table.Int16(0, kPrecisionDouble);
      break;
    case ArrowType::kDate:
      table.Int16(0, kDateUnitDay);
      break;
    case ArrowType::kTimestamp:
      table.Int16(0, kTimeUnitMicrosecond).String(1, "UTC");
      break;
    default:
      break;
  }
  return table;
}

FbTable FieldTable(const Column& column) {
  FbTable field;
  field.String(0, column.name)
      .Bool(1, true)  // nullable
      .UInt8(2, static_cast<uint8_t>(column.type))
      .Table(3, TypeTable(column.type))
      .Tables(5, {});  // children: readers (Arrow C++) reject a missing vector
  return field;
}

FbTable MessageTable(uint8_t header_type, FbTable header, int64_t body_length) {
  FbTable message;
  message.Int16(0, kMetadataV5).UInt8(1, header_type).Table(2, std::move(header));
  message.Int64(3, body_length);
  return message;
}

std::string SchemaMetadata(const std::vector<Column>& columns) {
  std::vector<FbTable> fields;
  for (const Column& column : columns) fields.push_back(FieldTable(column));
  FbTable schema;
  schema.Int16(0, 0).Tables(1, std::move(fields));  // endianness: Little
  return MessageTable(kHeaderSchema, std::move(schema), 0).Finish();
}

void PadTo8(std::string& bytes) { bytes.resize((bytes.size() + 7) / 8 * 8, '\0'); }

// One column's buffers as Arrow lays them out: validity bitmap, then [offsets,] values.
class ColumnBuilder {
 public:
  explicit ColumnBuilder(const Column& column) : column_(column) {
    if (IsVariableWidth()) AppendLittleEndian(offsets_, 0, 4);
  }

  void Append(const Json& value) {
    const bool valid = !value.is_null();
    SetBit(validity_, length_, valid);
    if (valid) {
      AppendValue(value);
    } else {
      ++null_count_;
      AppendNullSlot();
    }
    ++length_;
    if (IsVariableWidth()) AppendLittleEndian(offsets_, CheckedOffset(), 4);
  }

  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }

  // The column's buffers in spec order, each unpadded.
  std::vector<const std::string*> Buffers() const {
    if (IsVariableWidth()) return {&validity_, &offsets_, &values_};
    return {&validity_, &values_};
  }

 private:
  bool IsVariableWidth() const {
    return column_.type == ArrowType::kUtf8 || column_.type == ArrowType::kBinary;
  }

  static void SetBit(std::string& bitmap, int64_t index, bool on) {
    if (index % 8 == 0) bitmap.push_back('\0');  // LSB-first bit order
    if (on) bitmap.back() = static_cast<char>(bitmap.back() | (1 << (index % 8)));
  }

  uint32_t CheckedOffset() const {
    if (values_.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      throw std::length_error("arrow column \"" + column_.name + "\" exceeds 2 GiB of data");
    }
    return static_cast<uint32_t>(values_.size());
  }

  // Nulls still occupy their fixed-width slot (zeroed); variable-width ones take no bytes.
  void AppendNullSlot() {
    switch (column_.type) {
      case ArrowType::kBool:
        SetBit(values_, length_, false);
        break;
      case ArrowType::kInt:
      case ArrowType::kDate:
        values_.append(4, '\0');
        break;
      case ArrowType::kFloatingPoint:
      case ArrowType::kTimestamp:
        values_.append(8, '\0');
        break;
      default:
        break;
    }
  }

  void AppendValue(const Json& value);
  [[noreturn]] void Reject(const Json& value) const {
    throw std::invalid_argument("arrow: column \"" + column_.name + "\" (" + column_.wire_type +
                                ") cannot hold " + value.dump());
  }
  const std::string& Text(const Json& value) const {
    if (!value.is_string()) Reject(value);
    return value.get_ref<const std::string&>();
  }
  int32_t Int32Of(const Json& value) const;

  const Column& column_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  std::string validity_;
  std::string offsets_;
  std::string values_;
};

int32_t ColumnBuilder::Int32Of(const Json& value) const {
  if (value.is_number_unsigned()) {
    if (value.get<uint64_t>() <= uint64_t{std::numeric_limits<int32_t>::max()}) {
      return static_cast<int32_t>(value.get<uint64_t>());
    }
  } else if (value.is_number_integer()) {
    const int64_t number = value.get<int64_t>();
    if (number >= std::numeric_limits<int32_t>::min() &&
        number <= std::numeric_limits<int32_t>::max()) {
      return static_cast<int32_t>(number);
    }
  } else if (value.is_number_float()) {
    // An integral double (e.g. 7.0) is still the same INTEGER.
    const double number = value.get<double>();
    if (std::trunc(number) == number && number >= std::numeric_limits<int32_t>::min() &&
        number <= std::numeric_limits<int32_t>::max()) {
      return static_cast<int32_t>(number);
    }
  }
  Reject(value);
}

void ColumnBuilder::AppendValue(const Json& value) {
  switch (column_.type) {
    case ArrowType::kBool:
      if (!value.is_boolean()) Reject(value);
      SetBit(values_, length_, value.get<bool>());
      return;
    case ArrowType::kInt:
      AppendLittleEndian(values_, static_cast<uint32_t>(Int32Of(value)), 4);
      return;
    case ArrowType::kFloatingPoint: {
      if (!value.is_number()) Reject(value);
      const double number = value.get<double>();
      uint64_t bits = 0;
      std::memcpy(&bits, &number, sizeof bits);
      AppendLittleEndian(values_, bits, 8);
      return;
    }
    case ArrowType::kDate:
      AppendLittleEndian(values_, static_cast<uint32_t>(arrow::DaysSinceEpoch(Text(value))), 4);
      return;
    case ArrowType::kTimestamp:
      AppendLittleEndian(values_, static_cast<uint64_t>(arrow::MicrosSinceEpoch(Text(value))), 8);
      return;
    case ArrowType::kBinary:
      values_ += Base64Decode(Text(value));
      return;
    case ArrowType::kUtf8:
      // A number where wire text was expected (a BIGINTEGER from a lax source) keeps its
      // JSON spelling rather than failing the export.
      values_ += value.is_string() ? value.get_ref<const std::string&>() : value.dump();
      return;
  }
}

struct Body {
  std::string bytes;
  std::string nodes;    // FieldNode structs {length, null_count}
  std::string buffers;  // Buffer structs {offset, length}
  uint32_t node_count = 0;
  uint32_t buffer_count = 0;
};

void AppendColumn(const ColumnBuilder& column, Body& body) {
  AppendLittleEndian(body.nodes, static_cast<uint64_t>(column.length()), 8);
  AppendLittleEndian(body.nodes, static_cast<uint64_t>(column.null_count()), 8);
  ++body.node_count;
  for (const std::string* buffer : column.Buffers()) {
    AppendLittleEndian(body.buffers, body.bytes.size(), 8);
    AppendLittleEndian(body.buffers, buffer->size(), 8);
    ++body.buffer_count;
    body.bytes += *buffer;
    PadTo8(body.bytes);  // every buffer starts 8-aligned within the body
  }
}

std::vector<ColumnBuilder> BuildColumns(const std::vector<Column>& columns,
                                        const std::vector<std::string>& rows) {
  std::vector<ColumnBuilder> builders(columns.begin(), columns.end());
  for (size_t r = 0; r < rows.size(); ++r) {
    const Json row = Json::parse(rows[r]);
    if (!row.is_array() || row.size() != columns.size()) {
      throw std::invalid_argument("arrow: row " + std::to_string(r) + " has " +
                                  std::to_string(row.is_array() ? row.size() : 0) + " values for " +
                                  std::to_string(columns.size()) + " columns");
    }
    for (size_t c = 0; c < columns.size(); ++c) builders[c].Append(row[c]);
  }
  return builders;
}

void AppendMessage(std::string& out, const std::string& metadata, const std::string& body) {
  AppendLittleEndian(out, 0xFFFFFFFFu, 4);  // continuation marker
  // The length counts the padding that brings marker + length + metadata to 8 bytes.
  const size_t padded = (metadata.size() + 8 + 7) / 8 * 8 - 8;
  AppendLittleEndian(out, padded, 4);
  out += metadata;
  out.append(padded - metadata.size(), '\0');
  out += body;
}

}  // namespace

std::string ArrowIpcStream(const ResultPage& page) {
  const std::vector<Column> columns = ColumnsOf(page.schema);
  const std::vector<ColumnBuilder> builders = BuildColumns(columns, page.rows);

  Body body;
  for (const ColumnBuilder& builder : builders) AppendColumn(builder, body);
  FbTable batch;
  batch.Int64(0, static_cast<int64_t>(page.rows.size()))
      .Structs(1, std::move(body.nodes), body.node_count, 8)
      .Structs(2, std::move(body.buffers), body.buffer_count, 8);
  const std::string batch_metadata =
      MessageTable(kHeaderRecordBatch, std::move(batch), static_cast<int64_t>(body.bytes.size()))
          .Finish();

  std::string out;
  AppendMessage(out, SchemaMetadata(columns), "");
  // A zero-row result still gets its (empty) batch, so readers see a 0-row table.
  AppendMessage(out, batch_metadata, body.bytes);
  AppendLittleEndian(out, 0xFFFFFFFFu, 4);  // end of stream: marker + zero length
  AppendLittleEndian(out, 0, 4);
  return out;
}

}  // namespace dp
