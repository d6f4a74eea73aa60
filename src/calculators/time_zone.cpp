#include "calculators/time_zone.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "calculators/civil_date.hpp"

namespace dp::calc {
namespace {

using Transition = TimeZone::PosixRule::Transition;

std::string ZoneInfoDirectory() {
  const char* dir = std::getenv("TZDIR");
  return dir && *dir ? dir : "/usr/share/zoneinfo";
}

// Only names shaped like tz database ids reach the filesystem.
bool IsZoneIdShape(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '/' || name.back() == '/') return false;
  if (name.find("..") != std::string_view::npos || name.find("//") != std::string_view::npos) {
    return false;
  }
  for (char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '/' || c == '_' || c == '-' || c == '+';
    if (!ok) return false;
  }
  // Files in the zoneinfo tree that are not zone ids.
  static constexpr std::string_view kNotZones[] = {"posixrules", "localtime", "Factory"};
  for (auto not_zone : kNotZones) {
    if (name == not_zone) return false;
  }
  return name.rfind("posix/", 0) != 0 && name.rfind("right/", 0) != 0;
}

class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}
  int64_t Signed(int width) {
    Need(width);
    uint64_t value = 0;
    for (int i = 0; i < width; ++i) value = (value << 8) | static_cast<uint8_t>(bytes_[pos_ + i]);
    pos_ += width;
    if (width == 4) return static_cast<int32_t>(static_cast<uint32_t>(value));
    return static_cast<int64_t>(value);
  }
  uint8_t Byte() {
    Need(1);
    return static_cast<uint8_t>(bytes_[pos_++]);
  }
  void Skip(size_t count) {
    Need(count);
    pos_ += count;
  }
  std::string_view Rest() const { return bytes_.substr(pos_); }

 private:
  void Need(size_t count) const {
    if (pos_ + count > bytes_.size()) throw std::runtime_error("truncated TZif data");
  }
  std::string_view bytes_;
  size_t pos_ = 0;
};

struct TzifHeader {
  char version = 0;
  int64_t isutcnt = 0, isstdcnt = 0, leapcnt = 0, timecnt = 0, typecnt = 0, charcnt = 0;
};

TzifHeader ReadHeader(ByteReader& reader) {
  TzifHeader header;
  const std::string magic = {static_cast<char>(reader.Byte()), static_cast<char>(reader.Byte()),
                             static_cast<char>(reader.Byte()), static_cast<char>(reader.Byte())};
  if (magic != "TZif") throw std::runtime_error("not a TZif file");
  header.version = static_cast<char>(reader.Byte());
  reader.Skip(15);
  header.isutcnt = reader.Signed(4);
  header.isstdcnt = reader.Signed(4);
  header.leapcnt = reader.Signed(4);
  header.timecnt = reader.Signed(4);
  header.typecnt = reader.Signed(4);
  header.charcnt = reader.Signed(4);
  if (header.typecnt <= 0) throw std::runtime_error("TZif file without time types");
  return header;
}

// --- POSIX TZ strings ("CET-1CEST,M3.5.0,M10.5.0/3") ---

class PosixReader {
 public:
  explicit PosixReader(std::string_view text) : text_(text) {}

  bool AtEnd() const { return pos_ >= text_.size(); }
  bool Accept(char c) {
    if (!AtEnd() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Name() {
    if (Accept('<')) {
      while (!AtEnd() && text_[pos_] != '>') ++pos_;
      return Accept('>');
    }
    const size_t start = pos_;
    while (!AtEnd() && std::isalpha(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return pos_ - start >= 3;
  }
  bool PeekOffsetStart() const {
    return !AtEnd() && (text_[pos_] == '+' || text_[pos_] == '-' || std::isdigit(Peek()));
  }
  // [+-]hh[:mm[:ss]] in seconds, sign as written.
  std::optional<int64_t> Hms() {
    int64_t sign = 1;
    if (Accept('-')) {
      sign = -1;
    } else {
      Accept('+');
    }
    auto hours = Number();
    if (!hours) return std::nullopt;
    int64_t total = *hours * 3600;
    if (Accept(':')) {
      auto minutes = Number();
      if (!minutes) return std::nullopt;
      total += *minutes * 60;
      if (Accept(':')) {
        auto seconds = Number();
        if (!seconds) return std::nullopt;
        total += *seconds;
      }
    }
    return sign * total;
  }
  std::optional<int64_t> Number() {
    const size_t start = pos_;
    int64_t value = 0;
    while (!AtEnd() && std::isdigit(Peek())) value = value * 10 + (text_[pos_++] - '0');
    if (pos_ == start) return std::nullopt;
    return value;
  }
  std::optional<Transition> Rule() {
    Transition transition;
    if (Accept('M')) {
      auto month = Number();
      if (!month || !Accept('.')) return std::nullopt;
      auto week = Number();
      if (!week || !Accept('.')) return std::nullopt;
      auto weekday = Number();
      if (!weekday) return std::nullopt;
      transition.form = 'M';
      transition.month = static_cast<int>(*month);
      transition.week = static_cast<int>(*week);
      transition.weekday = static_cast<int>(*weekday);
      if (transition.month < 1 || transition.month > 12 || transition.week < 1 ||
          transition.week > 5 || transition.weekday > 6) {
        return std::nullopt;
      }
    } else {
      transition.form = Accept('J') ? 'J' : 'n';
      auto day = Number();
      if (!day) return std::nullopt;
      transition.day = static_cast<int>(*day);
    }
    if (Accept('/')) {
      auto time = Hms();
      if (!time) return std::nullopt;
      transition.time = *time;
    }
    return transition;
  }

 private:
  int Peek() const { return static_cast<unsigned char>(text_[pos_]); }
  std::string_view text_;
  size_t pos_ = 0;
};

std::optional<TimeZone::PosixRule> ParsePosixRule(std::string_view text) {
  PosixReader reader(text);
  TimeZone::PosixRule rule;
  if (!reader.Name()) return std::nullopt;
  auto std_offset = reader.Hms();
  if (!std_offset) return std::nullopt;
  rule.std_offset = -*std_offset;  // POSIX counts west of UTC as positive
  if (reader.AtEnd()) return rule;
  if (!reader.Name()) return std::nullopt;
  rule.has_dst = true;
  rule.dst_offset = rule.std_offset + 3600;
  if (reader.PeekOffsetStart()) {
    auto dst_offset = reader.Hms();
    if (!dst_offset) return std::nullopt;
    rule.dst_offset = -*dst_offset;
  }
  if (!reader.Accept(',')) return std::nullopt;  // no default rule: tzcode requires one
  auto start = reader.Rule();
  if (!start || !reader.Accept(',')) return std::nullopt;
  auto end = reader.Rule();
  if (!end || !reader.AtEnd()) return std::nullopt;
  rule.start = *start;
  rule.end = *end;
  return rule;
}

// The local-time second (in the offset in force before it) at which `transition` happens.
int64_t TransitionLocalSeconds(const Transition& transition, int64_t year) {
  int64_t day = 0;  // days since epoch
  if (transition.form == 'M') {
    const int first_weekday = IsoDayOfWeek(CivilDate{year, transition.month, 1}) % 7;  // 0=Sun
    int day_of_month = 1 + (transition.weekday - first_weekday + 7) % 7 + (transition.week - 1) * 7;
    while (day_of_month > DaysInMonth(year, transition.month)) day_of_month -= 7;
    day = DaysFromCivil(CivilDate{year, transition.month, day_of_month});
  } else if (transition.form == 'J') {
    // 1-365, February 29th never counted.
    int64_t ordinal = transition.day;
    if (IsLeapYear(year) && ordinal >= 60) ++ordinal;
    day = DaysFromCivil(CivilDate{year, 1, 1}) + ordinal - 1;
  } else {
    day = DaysFromCivil(CivilDate{year, 1, 1}) + transition.day;
  }
  return day * 86400 + transition.time;
}

int64_t YearOfLocalSeconds(int64_t local_seconds) {
  const int64_t days =
      local_seconds >= 0 ? local_seconds / 86400 : -((-local_seconds + 86399) / 86400);
  return CivilFromDays(days).year;
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return {};
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

}  // namespace

bool TimeZone::LooksLikeFixedOffset(std::string_view name) {
  if (!name.empty() && (name.front() == '+' || name.front() == '-')) return true;
  for (std::string_view prefix : {"UTC", "GMT", "UT"}) {
    if (name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix &&
        (name[prefix.size()] == '+' || name[prefix.size()] == '-')) {
      return true;
    }
  }
  return false;
}

std::shared_ptr<const TimeZone> TimeZone::FromTzif(std::string name, std::string_view bytes) {
  ByteReader reader(bytes);
  TzifHeader header = ReadHeader(reader);
  int time_width = 4;
  if (header.version >= '2') {
    // Skip the 32-bit block; the 64-bit block after it is authoritative.
    reader.Skip(header.timecnt * 5 + header.typecnt * 6 + header.charcnt + header.leapcnt * 8 +
                header.isstdcnt + header.isutcnt);
    header = ReadHeader(reader);
    time_width = 8;
  }
  auto zone = std::make_shared<TimeZone>();
  zone->name_ = std::move(name);
  std::vector<int64_t> times(header.timecnt);
  std::vector<uint8_t> indices(header.timecnt);
  for (auto& time : times) time = reader.Signed(time_width);
  for (auto& index : indices) index = reader.Byte();
  std::vector<int64_t> type_offsets(header.typecnt);
  for (auto& offset : type_offsets) {
    offset = reader.Signed(4);
    reader.Skip(2);  // isdst, abbreviation index
  }
  reader.Skip(header.charcnt + header.leapcnt * (time_width + 4) + header.isstdcnt +
              header.isutcnt);
  for (size_t i = 0; i < times.size(); ++i) {
    if (indices[i] >= type_offsets.size()) throw std::runtime_error("bad TZif type index");
    zone->transitions_.push_back(times[i]);
    zone->offset_after_.push_back(type_offsets[indices[i]]);
  }
  zone->initial_offset_ = type_offsets[0];
  if (time_width == 8) {
    std::string_view footer = reader.Rest();
    if (footer.size() >= 2 && footer.front() == '\n') {
      footer.remove_prefix(1);
      footer = footer.substr(0, footer.find('\n'));
      if (auto rule = ParsePosixRule(footer)) {
        zone->has_rule_ = true;
        zone->rule_ = *rule;
      }
    }
  }
  return zone;
}

std::shared_ptr<const TimeZone> TimeZone::Find(const std::string& name) {
  if (LooksLikeFixedOffset(name) || !IsZoneIdShape(name)) return nullptr;
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const TimeZone>> cache;  // misses cached as null
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  std::shared_ptr<const TimeZone> zone;
  const std::string bytes = ReadFile(ZoneInfoDirectory() + "/" + name);
  if (!bytes.empty()) {
    try {
      zone = FromTzif(name, bytes);
    } catch (const std::runtime_error&) {
      zone = nullptr;  // a non-zone file in the tree (zone.tab, ...) is not a zone id
    }
  }
  cache.emplace(name, zone);
  return zone;
}

int64_t TimeZone::RuleOffsetAt(int64_t utc_seconds) const {
  if (!rule_.has_dst) return rule_.std_offset;
  const int64_t year = YearOfLocalSeconds(utc_seconds + rule_.std_offset);
  const int64_t dst_begins = TransitionLocalSeconds(rule_.start, year) - rule_.std_offset;
  const int64_t dst_ends = TransitionLocalSeconds(rule_.end, year) - rule_.dst_offset;
  const bool in_dst = dst_begins < dst_ends
                          ? utc_seconds >= dst_begins && utc_seconds < dst_ends
                          : utc_seconds < dst_ends || utc_seconds >= dst_begins;  // south
  return in_dst ? rule_.dst_offset : rule_.std_offset;
}

int64_t TimeZone::OffsetAt(int64_t utc_seconds) const {
  if (transitions_.empty() || utc_seconds < transitions_.front()) {
    return transitions_.empty() && has_rule_ ? RuleOffsetAt(utc_seconds) : initial_offset_;
  }
  if (utc_seconds >= transitions_.back() && has_rule_) return RuleOffsetAt(utc_seconds);
  const auto after = std::upper_bound(transitions_.begin(), transitions_.end(), utc_seconds);
  return offset_after_[static_cast<size_t>(after - transitions_.begin()) - 1];
}

int64_t TimeZone::LocalToUtc(int64_t local_seconds) const {
  // Zones change offset at most once within a day, so the offsets a day either side are the
  // only candidates.
  const int64_t earlier_offset = OffsetAt(local_seconds - 86400);
  const int64_t later_offset = OffsetAt(local_seconds + 86400);
  const int64_t with_earlier = local_seconds - earlier_offset;
  const int64_t with_later = local_seconds - later_offset;
  const bool earlier_valid = OffsetAt(with_earlier) == earlier_offset;
  const bool later_valid = OffsetAt(with_later) == later_offset;
  if (earlier_valid && later_valid) return std::min(with_earlier, with_later);  // overlap
  if (earlier_valid) return with_earlier;
  if (later_valid) return with_later;
  // A gap: keep the offset before the transition, which moves the reading forward.
  return with_earlier;
}

}  // namespace dp::calc
