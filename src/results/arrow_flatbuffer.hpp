#pragma once
// A minimal FlatBuffers encoder — just what the Arrow IPC metadata (Schema.fbs, Message.fbs)
// needs: tables with scalar fields, strings, sub-tables, vectors of tables and vectors of
// structs. No flatc/flatbuffers library is involved, so the wire rules live here:
//   * little-endian scalars, each aligned to its size from the buffer start;
//   * a table starts with an int32 soffset to its vtable (vtable = table - soffset);
//   * a vtable is [uint16 vtable bytes, uint16 table bytes, uint16 field offset per slot];
//   * references are uint32 offsets that point forward (target = field position + offset);
//   * vectors and strings are prefixed with a uint32 element count, strings NUL-terminated.
// The buffer is laid out front to back (root, then each object followed by its children)
// instead of flatc's back-to-front, which keeps every reference forward without a second pass.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace dp::arrow {

class FbTable {
 public:
  // Scalars are stored even when equal to the schema default: readers accept it, and it
  // spares us a table of defaults (Date.unit defaults to MILLISECOND, for one).
  FbTable& Bool(uint16_t slot, bool value) { return Scalar(slot, 1, value ? 1 : 0); }
  FbTable& UInt8(uint16_t slot, uint8_t value) { return Scalar(slot, 1, value); }
  FbTable& Int16(uint16_t slot, int16_t value) {
    return Scalar(slot, 2, static_cast<uint16_t>(value));
  }
  FbTable& Int32(uint16_t slot, int32_t value) {
    return Scalar(slot, 4, static_cast<uint32_t>(value));
  }
  FbTable& Int64(uint16_t slot, int64_t value) {
    return Scalar(slot, 8, static_cast<uint64_t>(value));
  }
  FbTable& String(uint16_t slot, std::string_view value);
  FbTable& Table(uint16_t slot, FbTable value);
  FbTable& Tables(uint16_t slot, std::vector<FbTable> values);
  // `bytes` is `count` packed structs whose widest member is `align` bytes.
  FbTable& Structs(uint16_t slot, std::string bytes, uint32_t count, uint32_t align);

  // The finished buffer with this table as its root.
  std::string Finish() const;

 private:
  enum class Kind { kScalar, kString, kTable, kTables, kStructs };
  struct Field {
    uint16_t slot = 0;
    Kind kind = Kind::kScalar;
    uint32_t size = 0;            // inline bytes: the scalar's width, or 4 for a reference
    uint64_t bits = 0;            // kScalar value
    std::string bytes;            // kString text, kStructs packed elements
    uint32_t count = 0;           // kStructs element count
    uint32_t align = 1;           // kStructs element alignment
    std::vector<FbTable> tables;  // kTable (one) or kTables
  };

  FbTable& Scalar(uint16_t slot, uint32_t size, uint64_t bits);
  FbTable& Reference(Field field);

  friend class FbWriter;
  std::vector<Field> fields_;
};

// Little-endian value `bits` of `size` bytes into `out` (the host is not assumed LE).
void AppendLittleEndian(std::string& out, uint64_t bits, uint32_t size);

}  // namespace dp::arrow
