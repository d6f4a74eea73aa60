#include "calculators/date_pattern.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <map>

namespace dp::calc {
namespace {

constexpr std::array<std::string_view, 12> kMonthNames = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};
constexpr std::array<std::string_view, 7> kDayNames = {
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
constexpr std::array<std::string_view, 4> kQuarterNames = {"1st quarter", "2nd quarter",
                                                           "3rd quarter", "4th quarter"};

// Letters a DATE pattern may use, with the most letters Java accepts for each.
int MaxLetters(char letter) {
  switch (letter) {
    case 'y':
    case 'u':
      return 19;
    case 'M':
    case 'L':
    case 'E':
    case 'Q':
    case 'q':
    case 'G':
      return 5;
    case 'd':
      return 2;
    case 'D':
      return 3;
    default:
      return 0;
  }
}

// Java's text styles by letter count: 1-3 short, 4 full, 5 narrow.
std::string TextForm(std::string_view full, int count, int short_length = 3) {
  if (count == 4) return std::string(full);
  if (count == 5) return std::string(full.substr(0, 1));
  return std::string(full.substr(0, short_length));
}

std::string Padded(int64_t value, int width) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  if (static_cast<int>(digits.size()) < width) {
    digits.insert(0, static_cast<size_t>(width) - digits.size(), '0');
  }
  return value < 0 ? "-" + digits : digits;
}

// The fields a parse collected before they are resolved into one date.
struct ParsedFields {
  std::map<char, int64_t> values;  // canonical letter (y, M, d, D, E, Q, G) -> value
  void Set(char letter, int64_t value) {
    auto [it, inserted] = values.emplace(letter, value);
    if (!inserted && it->second != value) {
      throw DatePatternError(std::string("text gives two different values for '") + letter + "'");
    }
  }
  std::optional<int64_t> Get(char letter) const {
    auto it = values.find(letter);
    return it == values.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
};

char CanonicalLetter(char letter) {
  switch (letter) {
    case 'u':
      return 'y';
    case 'L':
      return 'M';
    case 'q':
      return 'Q';
    default:
      return letter;
  }
}

}  // namespace

bool DatePattern::Element::IsNumeric() const {
  switch (letter) {
    case 'y':
    case 'u':
    case 'd':
    case 'D':
      return true;
    case 'M':
    case 'L':
    case 'Q':
    case 'q':
      return count <= 2;
    default:
      return false;
  }
}

int DatePattern::Element::MinWidth() const { return count; }

int DatePattern::Element::MaxWidth() const {
  switch (letter) {
    case 'y':
    case 'u':
      return count == 2 ? 2 : 19;
    case 'd':
    case 'M':
    case 'L':
      return 2;
    case 'D':
      return 3;
    default:
      return count;  // Q, QQ
  }
}

DatePattern DatePattern::Compile(std::string_view pattern) {
  DatePattern compiled;
  auto add_literal = [&compiled](std::string text) {
    if (!compiled.elements_.empty() && compiled.elements_.back().letter == 0) {
      compiled.elements_.back().literal += text;
    } else {
      compiled.elements_.push_back(Element{0, 0, std::move(text)});
    }
  };
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if (c == '\'') {
      if (i + 1 < pattern.size() && pattern[i + 1] == '\'') {
        add_literal("'");
        i += 2;
        continue;
      }
      const size_t close = [&] {
        for (size_t j = i + 1; j < pattern.size(); ++j) {
          if (pattern[j] != '\'') continue;
          if (j + 1 < pattern.size() && pattern[j + 1] == '\'') {
            ++j;
            continue;
          }
          return j;
        }
        return std::string_view::npos;
      }();
      if (close == std::string_view::npos) {
        throw DatePatternError("the pattern has an unterminated quote");
      }
      std::string text;
      for (size_t j = i + 1; j < close; ++j) {
        text.push_back(pattern[j]);
        if (pattern[j] == '\'') ++j;  // '' inside quotes is one quote
      }
      add_literal(std::move(text));
      i = close + 1;
      continue;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      size_t end = i;
      while (end < pattern.size() && pattern[end] == c) ++end;
      const int count = static_cast<int>(end - i);
      const int max = MaxLetters(c);
      if (max == 0) {
        throw DatePatternError(std::string("pattern letter '") + c +
                               "' is not a date field this calculator supports");
      }
      if (count > max) throw DatePatternError(std::string("too many pattern letters: ") + c);
      compiled.elements_.push_back(Element{c, count, {}});
      i = end;
      continue;
    }
    if (c == '[' || c == ']' || c == '{' || c == '}' || c == '#') {
      throw DatePatternError(std::string("pattern character '") + c + "' is not supported");
    }
    add_literal(std::string(1, c));
    ++i;
  }
  return compiled;
}

std::string DatePattern::Format(const CivilDate& date) const {
  std::string out;
  for (const Element& element : elements_) {
    switch (element.letter) {
      case 0:
        out += element.literal;
        break;
      case 'y':
      case 'u':
        out += element.count == 2 ? Padded(((date.year % 100) + 100) % 100, 2)
                                  : Padded(date.year, element.count);
        break;
      case 'M':
      case 'L':
        out += element.count <= 2 ? Padded(date.month, element.count)
                                  : TextForm(kMonthNames[date.month - 1], element.count);
        break;
      case 'd':
        out += Padded(date.day, element.count);
        break;
      case 'D':
        out += Padded(DayOfYear(date), element.count);
        break;
      case 'E':
        out += TextForm(kDayNames[IsoDayOfWeek(date) - 1], element.count);
        break;
      case 'Q':
      case 'q': {
        const int quarter = (date.month - 1) / 3 + 1;
        if (element.count <= 2) {
          out += Padded(quarter, element.count);
        } else if (element.count == 3) {
          out += "Q" + std::to_string(quarter);
        } else {
          out += element.count == 4 ? std::string(kQuarterNames[quarter - 1])
                                    : std::to_string(quarter);
        }
        break;
      }
      case 'G':
        out += element.count == 4   ? (date.year > 0 ? "Anno Domini" : "Before Christ")
               : element.count == 5 ? (date.year > 0 ? "A" : "B")
                                    : (date.year > 0 ? "AD" : "BC");
        break;
    }
  }
  return out;
}

CivilDate DatePattern::Parse(std::string_view text) const {
  ParsedFields fields;
  size_t pos = 0;
  auto fail = [&](const std::string& what) -> DatePatternError {
    return DatePatternError("text does not match the pattern at position " + std::to_string(pos) +
                            ": " + what);
  };
  auto match_name = [&](auto names, int count, int short_length, char letter, int64_t first) {
    // Longest candidate first so "May" (full) and "Mar" (short) never shadow each other.
    int64_t best = -1;
    size_t best_length = 0;
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string candidate = TextForm(names[i], count, short_length);
      if (candidate.size() > best_length && text.substr(pos, candidate.size()) == candidate) {
        best = static_cast<int64_t>(i);
        best_length = candidate.size();
      }
    }
    if (best < 0) throw fail(std::string("expected a name for '") + letter + "'");
    pos += best_length;
    fields.Set(CanonicalLetter(letter), best + first);
  };
  for (size_t index = 0; index < elements_.size(); ++index) {
    const Element& element = elements_[index];
    if (element.letter == 0) {
      if (text.substr(pos, element.literal.size()) != element.literal) {
        throw fail("expected '" + element.literal + "'");
      }
      pos += element.literal.size();
      continue;
    }
    if (element.IsNumeric()) {
      // Adjacent value parsing: a field leaves the digits the numeric fields right after it
      // need, so "yyyyMMdd" reads 20260814.
      size_t reserved = 0;
      for (size_t next = index + 1; next < elements_.size() && elements_[next].IsNumeric();
           ++next) {
        reserved += static_cast<size_t>(elements_[next].MinWidth());
      }
      size_t available = 0;
      while (pos + available < text.size() && text[pos + available] >= '0' &&
             text[pos + available] <= '9') {
        ++available;
      }
      size_t take = std::min(static_cast<size_t>(element.MaxWidth()),
                             available > reserved ? available - reserved : 0);
      if (take < static_cast<size_t>(element.MinWidth())) {
        throw fail(std::string("expected digits for '") + element.letter + "'");
      }
      int64_t value = 0;
      for (size_t i = 0; i < take; ++i) value = value * 10 + (text[pos + i] - '0');
      pos += take;
      if ((element.letter == 'y' || element.letter == 'u') && element.count == 2) value += 2000;
      fields.Set(CanonicalLetter(element.letter), value);
      continue;
    }
    switch (element.letter) {
      case 'M':
      case 'L':
        match_name(kMonthNames, element.count, 3, element.letter, 1);
        break;
      case 'E':
        match_name(kDayNames, element.count, 3, 'E', 1);
        break;
      case 'Q':
      case 'q':
        if (element.count == 3) {
          if (text.substr(pos, 1) != "Q" || pos + 1 >= text.size() || text[pos + 1] < '1' ||
              text[pos + 1] > '4') {
            throw fail("expected a quarter such as Q3");
          }
          fields.Set('Q', text[pos + 1] - '0');
          pos += 2;
        } else {
          match_name(kQuarterNames, element.count, 0, 'Q', 1);
        }
        break;
      case 'G': {
        const std::array<std::string_view, 2> eras = {"Before Christ", "Anno Domini"};
        const int short_length = element.count == 5 ? 1 : 2;
        for (size_t i = 0; i < eras.size(); ++i) {
          const std::string candidate = element.count == 4
                                            ? std::string(eras[i])
                                            : (i == 0 ? std::string("BC") : std::string("AD"))
                                                  .substr(0, static_cast<size_t>(short_length));
          if (text.substr(pos, candidate.size()) == candidate) {
            fields.Set('G', static_cast<int64_t>(i));
            pos += candidate.size();
            break;
          }
          if (i + 1 == eras.size()) throw fail("expected an era");
        }
        break;
      }
    }
  }
  if (pos != text.size()) throw fail("unparsed text remains");

  const auto year = fields.Get('y');
  if (!year) throw DatePatternError("the text gives no year, so it names no single date");
  if (auto era = fields.Get('G'); era && *era == 0) {
    throw DatePatternError("dates before the common era are not supported");
  }
  CivilDate date{*year, 1, 1};
  const auto month = fields.Get('M');
  const auto day = fields.Get('d');
  const auto day_of_year = fields.Get('D');
  if (month && day) {
    if (*month < 1 || *month > 12) throw DatePatternError("month out of range");
    if (*day < 1 || *day > DaysInMonth(*year, static_cast<int>(*month))) {
      throw DatePatternError("day " + std::to_string(*day) + " does not exist in that month");
    }
    date = CivilDate{*year, static_cast<int>(*month), static_cast<int>(*day)};
    if (day_of_year && DayOfYear(date) != *day_of_year) {
      throw DatePatternError("day of year disagrees with month and day");
    }
  } else if (day_of_year) {
    if (*day_of_year < 1 || *day_of_year > (IsLeapYear(*year) ? 366 : 365)) {
      throw DatePatternError("day of year out of range");
    }
    date = AddDays(date, *day_of_year - 1);
    if (month && *month != date.month) throw DatePatternError("month disagrees with day of year");
  } else {
    throw DatePatternError(
        "the text names no single date (it needs a month and day, or a day "
        "of year)");
  }
  if (auto weekday = fields.Get('E'); weekday && *weekday != IsoDayOfWeek(date)) {
    throw DatePatternError("day name disagrees with the date");
  }
  if (auto quarter = fields.Get('Q'); quarter && *quarter != (date.month - 1) / 3 + 1) {
    throw DatePatternError("quarter disagrees with the date");
  }
  return date;
}

}  // namespace dp::calc
