#!/usr/bin/env node
// Decodes an Arrow IPC *stream* file with the reference apache-arrow JavaScript reader and
// prints it as JSON, so tests can prove the hand-written C++ writer
// (src/results/arrow_ipc_stream.cpp) against an independent implementation.
//
//   node tools/arrow-check/check.mjs <file.arrows>
//
// Output: {"format":"stream","batches":[rows per batch],"num_rows":n,
//          "fields":[{name,type,typeId,nullable,unit?,timezone?}],"rows":[[value,…],…]}
// Values: Int/Float → number, Bool → boolean, Utf8 → string, Binary → padded base64,
// Date32 → "YYYY-MM-DD", Timestamp(µs) → "YYYY-MM-DDTHH:MM:SS.ffffffZ" (read from the raw
// int64, so no precision is lost to JS numbers), null → null.
import { readFileSync } from 'node:fs';
import { DataType, RecordBatchReader } from 'apache-arrow';

// The raw stored value (int32 days, int64 µs) — Vector.get() rounds 64-bit times to ms.
function rawAt(vector, index) {
  let local = index;
  for (const data of vector.data) {
    if (local < data.length) {
      return data.values[data.offset + local];  // Int32Array (Date32), BigInt64Array (µs)
    }
    local -= data.length;
  }
  throw new Error(`index ${index} out of range`);
}

function isoDate(days) {
  return new Date(Number(days) * 86400000).toISOString().slice(0, 10);
}

function isoMicros(micros) {
  const big = BigInt(micros);
  const millis = big / 1000n - (big % 1000n < 0n ? 1n : 0n);  // floor, also before 1970
  const rest = big - millis * 1000n;
  const iso = new Date(Number(millis)).toISOString();  // …SS.mmmZ
  return `${iso.slice(0, -1)}${String(rest).padStart(3, '0')}Z`;
}

function jsonValue(vector, type, index) {
  if (!vector.isValid(index)) return null;
  if (DataType.isDate(type)) return isoDate(rawAt(vector, index));
  if (DataType.isTimestamp(type)) return isoMicros(rawAt(vector, index));
  const value = vector.get(index);
  if (DataType.isBinary(type)) return Buffer.from(value).toString('base64');
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function describeField(field) {
  const out = {
    name: field.name,
    type: String(field.type),
    typeId: field.type.typeId,
    nullable: field.nullable,
  };
  if (field.type.unit !== undefined) out.unit = field.type.unit;
  if (field.type.timezone !== undefined) out.timezone = field.type.timezone;
  return out;
}

function main() {
  const path = process.argv[2];
  if (!path) {
    console.error('usage: node check.mjs <arrow-stream-file>');
    process.exit(2);
  }
  const reader = RecordBatchReader.from(new Uint8Array(readFileSync(path)));
  reader.open();
  if (!reader.isStream()) throw new Error('not an Arrow IPC stream');
  const fields = reader.schema.fields;
  const batches = [];
  const rows = [];
  for (const batch of reader) {
    batches.push(batch.numRows);
    const columns = fields.map((_, c) => batch.getChildAt(c));
    for (let r = 0; r < batch.numRows; ++r) {
      rows.push(fields.map((field, c) => jsonValue(columns[c], field.type, r)));
    }
  }
  process.stdout.write(JSON.stringify({
    format: 'stream',
    batches,
    num_rows: rows.length,
    fields: fields.map(describeField),
    rows,
  }) + '\n');
}

main();
