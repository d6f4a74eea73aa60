#pragma once
// IANA time zones read from the system's compiled tz database (TZif files under
// /usr/share/zoneinfo, or $TZDIR): libstdc++ 12 ships no std::chrono::tzdb. Zones are loaded
// once per name and shared; lookups are thread-safe.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dp::calc {

class TimeZone {
 public:
  // nullptr when `name` is not an IANA zone id this system's tz database has. Fixed offsets
  // ("+02:00", "UTC+2", "GMT-05:00") are refused: an offset is not a zone id.
  static std::shared_ptr<const TimeZone> Find(const std::string& name);
  static bool LooksLikeFixedOffset(std::string_view name);

  const std::string& name() const { return name_; }
  // Seconds east of UTC in effect at `utc_seconds`.
  int64_t OffsetAt(int64_t utc_seconds) const;
  // The instant a wall-clock reading in this zone denotes, by java.time's ZonedDateTime rules:
  // in a spring-forward gap the reading moves forward by the gap's length; in an autumn
  // overlap the earlier offset (the earlier instant) wins.
  int64_t LocalToUtc(int64_t local_seconds) const;

  // A daylight-saving rule from a TZif footer (POSIX TZ string), for instants past the last
  // listed transition.
  struct PosixRule {
    struct Transition {
      char form = 'M';  // 'M' (month.week.day), 'J' (Julian 1-365), 'n' (zero-based day)
      int month = 0, week = 0, weekday = 0, day = 0;
      int64_t time = 7200;  // seconds after local midnight
    };
    int64_t std_offset = 0;  // seconds east of UTC
    bool has_dst = false;
    int64_t dst_offset = 0;
    Transition start, end;
  };

  // Parses TZif bytes; throws std::runtime_error when they are not a TZif file.
  static std::shared_ptr<const TimeZone> FromTzif(std::string name, std::string_view bytes);

 private:
  int64_t RuleOffsetAt(int64_t utc_seconds) const;

  std::string name_;
  std::vector<int64_t> transitions_;   // ascending UTC seconds
  std::vector<int64_t> offset_after_;  // offset in effect from transitions_[i]
  int64_t initial_offset_ = 0;         // before the first transition
  bool has_rule_ = false;
  PosixRule rule_;
};

}  // namespace dp::calc
