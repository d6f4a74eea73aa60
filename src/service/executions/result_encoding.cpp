#include "result_encoding.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/results/arrow_ipc_stream.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

std::string CsvField(const Json& value) {
  if (value.is_null()) return "";
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace

void AppendPage(Json& out, const ResultPage& page, int64_t offset, int64_t limit) {
  out["schema"] = page.schema.value("schema", Json::array());
  if (page.schema.contains("warnings")) out["warnings"] = page.schema["warnings"];
  Json rows = Json::array();
  for (const std::string& row : page.rows) rows.push_back(Json::parse(row));
  out["rows"] = std::move(rows);
  out["row_count"] = page.rows.size();
  out["offset"] = offset;
  out["limit"] = limit;
  out["total_rows"] = page.total_rows;
  out["has_more"] = offset + static_cast<int64_t>(page.rows.size()) < page.total_rows;
}

void ThrowExpired(const std::string& execution_id, const std::string& expires_at) {
  throw DomainError(errc::kResultExpired,
                    "The result's TTL elapsed (or the result store lost it); re-run the "
                    "pipeline — the result is unrecoverable.",
                    Json{{"execution_id", execution_id}, {"expired_at", expires_at}});
}

std::string ResultCsv(const ResultPage& all) {
  std::string csv;
  const Json columns = all.schema.value("schema", Json::array());
  for (size_t i = 0; i < columns.size(); ++i) {
    csv += (i ? "," : "") + CsvField(columns[i].value("name", ""));
  }
  csv += "\r\n";
  for (const std::string& encoded : all.rows) {
    Json row = Json::parse(encoded);
    for (size_t i = 0; i < row.size(); ++i) csv += (i ? "," : "") + CsvField(row[i]);
    csv += "\r\n";
  }
  return csv;
}

Json EncodedResult(const std::string& execution_id, const ResultPage& all,
                   const std::string& format, const std::string& expires_at,
                   const std::string& result_url, int64_t inline_cap_bytes) {
  std::string bytes = format == "csv" ? ResultCsv(all) : ArrowIpcStream(all);
  Json out{{"execution_id", execution_id},
           {"format", format},
           {"total_rows", all.total_rows},
           {"expires_at", expires_at}};
  if (static_cast<int64_t>(bytes.size()) > inline_cap_bytes) {
    // Megabytes of base64 in a tool result poison an agent's context: point at the cursor.
    out["result_url"] = result_url + "?format=" + format;
    out["reason"] = "payload_exceeds_inline_cap";
    return out;
  }
  out["content_type"] = format == "csv" ? "text/csv" : "application/vnd.apache.arrow.stream";
  out["encoding"] = "base64";
  out["data"] = Base64Encode(bytes);
  out["size_bytes"] = bytes.size();
  return out;
}

}  // namespace dp
