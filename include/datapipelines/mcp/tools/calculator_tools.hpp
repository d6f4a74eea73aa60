#pragma once

namespace dp {

class ToolCatalog;
struct OrgSettings;

// calculators_list and calculators_get (spec §6.2.23-24): the build's calculator catalog and
// the Context keys every pipeline can reference. The answer is a property of the build,
// identical for every caller; `org` is the deployment's settings, whose key NAMES (not values)
// the list reports.
void BindCalculatorTools(ToolCatalog& catalog, const OrgSettings& org);

}  // namespace dp
