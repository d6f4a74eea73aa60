#pragma once
// The implementation behind each catalog kind, by kind name. Each family registers its kinds
// from its own file; the evaluator dispatches through the assembled table.
#include <functional>
#include <map>
#include <string>

#include "calculators/calculator_args.hpp"
#include "datapipelines/util/json.hpp"

namespace dp::calc {

using CalculatorFunction = Json (*)(const CalculatorArgs& args);
using CalculatorTable = std::map<std::string, CalculatorFunction, std::less<>>;

void AddCalendarCalculators(CalculatorTable& table);  // quarters, periods, ISO weeks, shifts
void AddDateTextCalculators(CalculatorTable& table);  // date_parse, date_format, tz_shift
void AddNumericCalculators(CalculatorTable& table);   // round, percent_change
void AddValueCalculators(CalculatorTable& table);     // coalesce, if_null, map

// Every implemented kind.
const CalculatorTable& CalculatorImplementations();

}  // namespace dp::calc
