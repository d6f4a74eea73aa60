#include "template/evaluation/builtins/builtin_names.hpp"

#include <cctype>

namespace dp::tmpl {
namespace {

constexpr BuiltInSpec kBuiltIns[] = {
#define DP_BUILTIN_SPEC(id, name, family, flags) {BuiltIn::id, name, BuiltInFamily::family, flags},
    DP_TEMPLATE_BUILTINS(DP_BUILTIN_SPEC)
#undef DP_BUILTIN_SPEC
};

// FreeMarker 2.3.31 built-ins the engine refuses at save, with the reason shown to the author.
struct Refusal {
  std::string_view name;
  const char* why;
};
constexpr const char* kDates = "the data model holds no date/time values (dates are ISO strings)";
constexpr const char* kNodes = "the data model holds no XML nodes";
constexpr const char* kMarkup = "markup-output truncation is not available; use ?truncate";
constexpr Refusal kRefused[] = {
    {"date", kDates},
    {"time", kDates},
    {"datetime", kDates},
    {"date_if_unknown", kDates},
    {"time_if_unknown", kDates},
    {"datetime_if_unknown", kDates},
    {"is_date_like", kDates},
    {"is_date_only", kDates},
    {"is_datetime", kDates},
    {"is_time", kDates},
    {"is_unknown_date_like", kDates},
    {"number_to_date", kDates},
    {"number_to_time", kDates},
    {"number_to_datetime", kDates},
    {"ancestors", kNodes},
    {"children", kNodes},
    {"next_sibling", kNodes},
    {"previous_sibling", kNodes},
    {"node_name", kNodes},
    {"node_namespace", kNodes},
    {"node_type", kNodes},
    {"parent", kNodes},
    {"root", kNodes},
    {"is_node", kNodes},
    {"truncate_m", kMarkup},
    {"truncate_w_m", kMarkup},
    {"truncate_c_m", kMarkup},
    {"markup_string", "markup output values are only those of the html template type"},
    {"with_args", "macro and function values can't be given default arguments"},
    {"with_args_last", "macro and function values can't be given default arguments"},
    {"absolute_template_name", "templates are not addressed by file names"},
    {"namespace", "namespaces are only reached through import aliases"},
    {"float", "the engine computes in decimal, not in binary floating point"},
    {"has_api", "?api is forbidden (templates.md §4.2)"},
    {"is_collection_ex", "the data model holds no Java collections"},
    {"is_transform", "there are no transforms"},
    {"sequence", "the data model holds no Java collections"},
    {"rtf", "deprecated and unavailable"},
    {"web_safe", "deprecated; use ?html"},
};

}  // namespace

const char* UnsupportedBuiltInReason(std::string_view normalized) {
  for (const Refusal& r : kRefused) {
    if (r.name == normalized) return r.why;
  }
  if (normalized == "iso" || normalized.rfind("iso_", 0) == 0) return kDates;
  return nullptr;
}

const BuiltInSpec* FindBuiltIn(std::string_view normalized) {
  for (const BuiltInSpec& spec : kBuiltIns) {
    if (spec.name == normalized) return &spec;
  }
  return nullptr;
}

std::string NormalizeBuiltInName(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace dp::tmpl
