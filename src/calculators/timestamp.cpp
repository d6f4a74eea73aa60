#include "calculators/timestamp.hpp"

#include <cstdio>

#include "calculators/civil_date.hpp"

namespace dp::calc {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool Digits(size_t count, int* out) {
    if (pos_ + count > text_.size()) return false;
    int value = 0;
    for (size_t i = 0; i < count; ++i) {
      const char c = text_[pos_ + i];
      if (c < '0' || c > '9') return false;
      value = value * 10 + (c - '0');
    }
    pos_ += count;
    *out = value;
    return true;
  }
  bool Accept(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool AtEnd() const { return pos_ == text_.size(); }
  bool PeekDigit() const { return pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9'; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// Reads "Z" or "+HH:MM" / "-HH:MM" (also "+HH" and "+HHMM") into seconds east of UTC.
std::optional<int> ReadOffset(Reader& reader) {
  if (reader.Accept('Z') || reader.Accept('z')) return 0;
  int sign = 0;
  if (reader.Accept('+')) {
    sign = 1;
  } else if (reader.Accept('-')) {
    sign = -1;
  } else {
    return std::nullopt;
  }
  int hours = 0, minutes = 0;
  if (!reader.Digits(2, &hours)) return std::nullopt;
  if (reader.Accept(':')) {
    if (!reader.Digits(2, &minutes)) return std::nullopt;
  } else if (reader.PeekDigit() && !reader.Digits(2, &minutes)) {
    return std::nullopt;
  }
  if (hours > 18 || minutes > 59) return std::nullopt;
  return sign * (hours * 3600 + minutes * 60);
}

}  // namespace

std::optional<Instant> ParseTimestamp(std::string_view text) {
  if (text.size() < 17) return std::nullopt;
  const auto date = ParseIsoDate(text.substr(0, 10));
  if (!date || (text[10] != 'T' && text[10] != 't')) return std::nullopt;
  Reader reader(text.substr(11));
  int hour = 0, minute = 0, second = 0;
  if (!reader.Digits(2, &hour) || !reader.Accept(':') || !reader.Digits(2, &minute)) {
    return std::nullopt;
  }
  int32_t nanos = 0;
  if (reader.Accept(':')) {
    if (!reader.Digits(2, &second)) return std::nullopt;
    if (reader.Accept('.')) {
      int digits = 0;
      while (reader.PeekDigit()) {
        int digit = 0;
        reader.Digits(1, &digit);
        if (++digits > 9) return std::nullopt;
        nanos = nanos * 10 + digit;
      }
      if (digits == 0) return std::nullopt;
      for (int i = digits; i < 9; ++i) nanos *= 10;
    }
  }
  if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
  const auto offset = ReadOffset(reader);
  if (!offset || !reader.AtEnd()) return std::nullopt;
  const int64_t local = DaysFromCivil(*date) * 86400 + hour * 3600 + minute * 60 + second;
  return Instant{local - *offset, nanos};
}

std::string FormatTimestamp(const Instant& instant) {
  const int64_t days = instant.epoch_seconds >= 0 ? instant.epoch_seconds / 86400
                                                  : -((-instant.epoch_seconds + 86399) / 86400);
  const int64_t second_of_day = instant.epoch_seconds - days * 86400;
  const CivilDate date = CivilFromDays(days);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%sT%02d:%02d:%02d", FormatIsoDate(date).c_str(),
                static_cast<int>(second_of_day / 3600), static_cast<int>(second_of_day / 60 % 60),
                static_cast<int>(second_of_day % 60));
  std::string out = buffer;
  if (instant.nanos != 0) {
    char fraction[16];
    std::snprintf(fraction, sizeof fraction, "%09d", instant.nanos);
    std::string digits = fraction;
    while (digits.size() > 3 && digits.compare(digits.size() - 3, 3, "000") == 0) {
      digits.resize(digits.size() - 3);
    }
    out += "." + digits;
  }
  return out + "Z";
}

}  // namespace dp::calc
