#pragma once
// A stored caller result as an Apache Arrow IPC *stream* (rest-api §7.5: format=arrow): the
// schema message, one record batch, the end-of-stream marker — written by hand, since no C++
// Arrow library ships in Debian 12, and proven against the apache-arrow JavaScript reader.
#include <string>

#include "datapipelines/results/result_store.hpp"

namespace dp {

// `page.schema` is the schema envelope ({"schema": [{name, type, precision?, scale?}], …});
// `page.rows` are wire JSON arrays. Column types: BOOLEAN → Bool, INTEGER → Int32,
// BIGINTEGER → Utf8 (its wire string), DECIMAL → Float64, BIGDECIMAL → Utf8, STRING → Utf8,
// BINARY → Binary, DATE → Date32 (days), TIME → Utf8, TIMESTAMP → Timestamp(µs, "UTC");
// every column nullable.
std::string ArrowIpcStream(const ResultPage& page);

}  // namespace dp
