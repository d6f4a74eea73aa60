// dp_bench_result_store_write: how fast a caller result is materialized into Redis by our
// RedisResultWriter (the executor's path: Append each wire row, Commit with the schema),
// against the raw pipelined writes of the same bytes by `redis-cli --pipe` (the Redis limit):
// SETs of 1 MiB values, and RPUSH batches of 1 000 of the same rows. Rounds are interleaved.
// The rows are built before the clock starts, so this is the store alone — the source read and
// the wire encoding are bench/executor's.
//
//   dp_bench_result_store_write [--rows=N] [--rounds=R]   (Redis at DP_BENCH_REDIS_URL, else
//                                                        DP_TEST_REDIS_URL)
// Prints one key=value line per round and a summary line (bench/result-store formats them).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "datapipelines/results/redis_result_store.hpp"

namespace {

std::string RedisUrlFromEnv() {
  for (const char* name : {"DP_BENCH_REDIS_URL", "DP_TEST_REDIS_URL"}) {
    const char* value = std::getenv(name);
    if (value && *value) return value;
  }
  throw std::runtime_error("set DP_BENCH_REDIS_URL or DP_TEST_REDIS_URL");
}

// A demo trips row as the wire encoder writes it (about 111 bytes), its id varying.
std::vector<std::string> TripRows(long count) {
  std::vector<std::string> rows;
  rows.reserve(count);
  for (long i = 0; i < count; ++i) {
    rows.push_back("[" + std::to_string(i + 1) +
                   ",\"2024-03-14T08:21:07.000Z\",\"2024-03-14T08:43:52.000Z\",132,236,2,18.4,"
                   "\"52.70\",\"card\"]");
  }
  return rows;
}

std::string Resp(const std::vector<std::string_view>& parts) {
  std::string out = "*" + std::to_string(parts.size()) + "\r\n";
  for (auto part : parts) {
    out += "$" + std::to_string(part.size()) + "\r\n";
    out.append(part);
    out += "\r\n";
  }
  return out;
}

struct Baselines {
  std::string rpush_file, set_file, cleanup_file;
};

// The same bytes as the rows, as RESP files for redis-cli --pipe.
Baselines WriteBaselines(const std::vector<std::string>& rows, const std::string& dir) {
  Baselines files{dir + "/rpush.resp", dir + "/set.resp", dir + "/cleanup.resp"};
  const std::string list = "dp:bench:raw:rows";
  std::ofstream push(files.rpush_file, std::ios::binary);
  for (std::size_t b = 0; b < rows.size(); b += 1000) {
    std::vector<std::string_view> parts{"RPUSH", list};
    for (std::size_t i = b; i < std::min(rows.size(), b + 1000); ++i) parts.push_back(rows[i]);
    push << Resp(parts);
  }
  std::size_t total = 0;
  for (const auto& row : rows) total += row.size();
  const std::string value(1 << 20, 'y');
  std::ofstream set(files.set_file, std::ios::binary);
  std::ofstream cleanup(files.cleanup_file, std::ios::binary);
  cleanup << Resp({"DEL", list});
  for (std::size_t i = 0, n = (total + value.size() - 1) / value.size(); i < n; ++i) {
    const std::string key = "dp:bench:raw:set:" + std::to_string(i);
    set << Resp({"SET", key, value});
    cleanup << Resp({"DEL", key});
  }
  return files;
}

// redis-cli --pipe of a file: seconds; the URL goes through the environment (-u would put a
// password on a command line other users can read).
double Pipe(const std::string& url, const std::string& file) {
  setenv("DP_BENCH_REDIS_CLI_URL", url.c_str(), 1);
  const std::string command =
      "redis-cli -u \"$DP_BENCH_REDIS_CLI_URL\" --no-auth-warning --pipe < '" + file +
      "' > /dev/null";
  auto start = std::chrono::steady_clock::now();
  if (std::system(command.c_str()) != 0) throw std::runtime_error("redis-cli --pipe failed");
  return dp::bench::SecondsSince(start);
}

double WriteThroughStore(dp::RedisResultStore& store, const std::vector<std::string>& rows,
                         const std::string& key) {
  auto start = std::chrono::steady_clock::now();
  auto writer = store.OpenWriter(key, std::chrono::seconds(120));
  for (const auto& row : rows) writer->Append(row);
  writer->Commit(dp::Json{{"columns", dp::Json::array()}});
  return dp::bench::SecondsSince(start);
}

}  // namespace

int main(int argc, char** argv) {
  return dp::bench::ReportFailures([&] {
    const long count = dp::bench::FlagValue(argc, argv, "--rows", 1000000);
    const long rounds = dp::bench::FlagValue(argc, argv, "--rounds", 5);
    const std::string url = RedisUrlFromEnv();
    dp::RedisResultStore store(dp::RedisUrl::Parse(url));
    const std::vector<std::string> rows = TripRows(count);
    std::size_t bytes = 0;
    for (const auto& row : rows) bytes += row.size();
    char dir[] = "/tmp/dp-bench-result-store-XXXXXX";
    if (!mkdtemp(dir)) throw std::runtime_error("mkdtemp failed");
    const Baselines files = WriteBaselines(rows, dir);
    std::vector<double> ours, rpush, set;
    for (long r = 0; r < rounds; ++r) {
      const std::string key = "bench-" + std::to_string(getpid()) + "-" + std::to_string(r);
      ours.push_back(WriteThroughStore(store, rows, key));
      store.Remove(key);
      rpush.push_back(Pipe(url, files.rpush_file));
      Pipe(url, files.cleanup_file);
      set.push_back(Pipe(url, files.set_file));
      Pipe(url, files.cleanup_file);
      std::printf("round=%ld store_s=%.3f rpush_s=%.3f set_s=%.3f\n", r + 1, ours.back(),
                  rpush.back(), set.back());
    }
    std::printf("rows=%ld bytes=%zu rounds=%ld store_s=%.3f rpush_s=%.3f set_s=%.3f\n", count,
                bytes, rounds, dp::bench::Median(ours), dp::bench::Median(rpush),
                dp::bench::Median(set));
    for (const auto& file : {files.rpush_file, files.set_file, files.cleanup_file}) {
      std::remove(file.c_str());
    }
    rmdir(dir);
    return 0;
  });
}
