#pragma once

namespace dp {

class DatasourceExplorer;
class DatasourceService;
class ToolCatalog;

// The nine datasource tools (spec §6.2.10–12, §6.2.16–19, §6.2.33–34), each one call into
// DatasourceService (list, get, test) or DatasourceExplorer (the catalog, preview and probe). An
// argument fault the service reports (request.validation.invalid: a refused sql_probe statement, a
// blank identifier, a missing bind) is JSON-RPC -32602.
void BindDatasourceTools(ToolCatalog& catalog, DatasourceService& datasources,
                         DatasourceExplorer& explorer);

}  // namespace dp
