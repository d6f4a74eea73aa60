#include "results/arrow_flatbuffer.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace dp::arrow {

void AppendLittleEndian(std::string& out, uint64_t bits, uint32_t size) {
  for (uint32_t i = 0; i < size; ++i) out.push_back(static_cast<char>((bits >> (8 * i)) & 0xFF));
}

FbTable& FbTable::Scalar(uint16_t slot, uint32_t size, uint64_t bits) {
  Field field;
  field.slot = slot;
  field.size = size;
  field.bits = bits;
  fields_.push_back(std::move(field));
  return *this;
}

FbTable& FbTable::Reference(Field field) {
  field.size = 4;
  fields_.push_back(std::move(field));
  return *this;
}

FbTable& FbTable::String(uint16_t slot, std::string_view value) {
  Field field;
  field.slot = slot;
  field.kind = Kind::kString;
  field.bytes = std::string(value);
  return Reference(std::move(field));
}

FbTable& FbTable::Table(uint16_t slot, FbTable value) {
  Field field;
  field.slot = slot;
  field.kind = Kind::kTable;
  field.tables.push_back(std::move(value));
  return Reference(std::move(field));
}

FbTable& FbTable::Tables(uint16_t slot, std::vector<FbTable> values) {
  Field field;
  field.slot = slot;
  field.kind = Kind::kTables;
  field.tables = std::move(values);
  return Reference(std::move(field));
}

FbTable& FbTable::Structs(uint16_t slot, std::string bytes, uint32_t count, uint32_t align) {
  Field field;
  field.slot = slot;
  field.kind = Kind::kStructs;
  field.bytes = std::move(bytes);
  field.count = count;
  field.align = align;
  return Reference(std::move(field));
}

// Serializes FbTables front to back into one buffer.
class FbWriter {
 public:
  std::string Finish(const FbTable& root) {
    buffer_.assign(4, '\0');  // root uoffset, patched below
    Patch(0, WriteTable(root));
    return std::move(buffer_);
  }

 private:
  static size_t AlignUp(size_t value, size_t align) { return (value + align - 1) / align * align; }

  // Zero-pads until (size + extra) is a multiple of align.
  void Pad(size_t align, size_t extra = 0) {
    while ((buffer_.size() + extra) % align != 0) buffer_.push_back('\0');
  }

  void Patch(size_t at, size_t target) {
    if (target <= at) throw std::logic_error("flatbuffer reference must point forward");
    const uint32_t offset = static_cast<uint32_t>(target - at);
    for (int i = 0; i < 4; ++i) buffer_[at + i] = static_cast<char>((offset >> (8 * i)) & 0xFF);
  }

  size_t WriteTable(const FbTable& table);
  size_t WriteChild(const FbTable::Field& field);

  size_t WriteString(const std::string& text) {
    Pad(4);
    const size_t position = buffer_.size();
    AppendLittleEndian(buffer_, text.size(), 4);
    buffer_ += text;
    buffer_.push_back('\0');
    return position;
  }

  size_t WriteTables(const std::vector<FbTable>& tables) {
    Pad(4);
    const size_t position = buffer_.size();
    AppendLittleEndian(buffer_, tables.size(), 4);
    buffer_.append(4 * tables.size(), '\0');
    for (size_t i = 0; i < tables.size(); ++i) Patch(position + 4 + 4 * i, WriteTable(tables[i]));
    return position;
  }

  size_t WriteStructs(const FbTable::Field& field) {
    // The elements (not the count) carry the struct's alignment.
    Pad(std::max<size_t>(field.align, 4), 4);
    const size_t position = buffer_.size();
    AppendLittleEndian(buffer_, field.count, 4);
    buffer_ += field.bytes;
    return position;
  }

  std::string buffer_;
};

size_t FbWriter::WriteTable(const FbTable& table) {
  const auto& fields = table.fields_;
  // Widest fields first, so each lands aligned with no padding once the table start is.
  std::vector<size_t> order(fields.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return fields[a].size > fields[b].size; });
  std::vector<size_t> inline_offset(fields.size());
  size_t table_bytes = 4;  // the soffset to the vtable
  size_t table_align = 4;
  uint16_t slots = 0;
  for (size_t index : order) {
    table_bytes = AlignUp(table_bytes, fields[index].size);
    inline_offset[index] = table_bytes;
    table_bytes += fields[index].size;
    table_align = std::max<size_t>(table_align, fields[index].size);
    slots = std::max<uint16_t>(slots, fields[index].slot + 1);
  }
  const size_t vtable_bytes = 4 + 2 * size_t{slots};
  Pad(2);
  Pad(table_align, vtable_bytes);  // vtable_bytes is even, so the vtable stays 2-aligned

  const size_t vtable_position = buffer_.size();
  std::vector<uint16_t> vtable(2 + slots, 0);
  vtable[0] = static_cast<uint16_t>(vtable_bytes);
  vtable[1] = static_cast<uint16_t>(table_bytes);
  for (size_t i = 0; i < fields.size(); ++i) {
    vtable[2 + fields[i].slot] = static_cast<uint16_t>(inline_offset[i]);
  }
  for (uint16_t entry : vtable) AppendLittleEndian(buffer_, entry, 2);

  const size_t table_position = buffer_.size();
  AppendLittleEndian(buffer_, table_position - vtable_position, 4);
  for (size_t index : order) {
    const auto& field = fields[index];
    buffer_.resize(table_position + inline_offset[index], '\0');
    AppendLittleEndian(buffer_, field.kind == FbTable::Kind::kScalar ? field.bits : 0, field.size);
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].kind == FbTable::Kind::kScalar) continue;
    Patch(table_position + inline_offset[i], WriteChild(fields[i]));
  }
  return table_position;
}

size_t FbWriter::WriteChild(const FbTable::Field& field) {
  switch (field.kind) {
    case FbTable::Kind::kString:
      return WriteString(field.bytes);
    case FbTable::Kind::kTable:
      return WriteTable(field.tables.front());
    case FbTable::Kind::kTables:
      return WriteTables(field.tables);
    case FbTable::Kind::kStructs:
      return WriteStructs(field);
    case FbTable::Kind::kScalar:
      break;
  }
  throw std::logic_error("flatbuffer scalar has no child");
}

std::string FbTable::Finish() const { return FbWriter().Finish(*this); }

}  // namespace dp::arrow
