<@layout.page title="Execution" crumb="Executions">
<div class="page-head">
  <div><h1><a href="${pipeline_href}">${execution.pipeline_name}</a> <span class="muted">v${execution.version}</span></h1>
    <p class="row"><span class="badge ${execution.status}" data-status="${execution.status}">${execution.status}</span><span class="mono small">${execution.execution_id}</span>
      <span class="small muted">by ${execution.triggered_by} via ${execution.via} · ${execution.started_at!''} · ${execution.duration_ms} ms</span></p></div>
  <#if execution.status == "RUNNING" && can.execute>
  <form class="inline-form" method="post" action="${self}/cancel"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="danger" data-verb="cancel">Cancel</button></form>
  </#if>
</div>
<#if root_cause??>
<section class="card" id="failure">
  <h2>Failure</h2>
  <div class="root-cause"><b>Root cause</b><#if root_cause.node?has_content> in node <code>${root_cause.node}</code></#if>: <code>${root_cause.code}</code><br>${root_cause.message}</div>
  <details><summary>The whole failure record</summary><pre class="code">${error_text}</pre></details>
</section>
</#if>
<section class="card">
  <h2>Node timeline</h2>
  <#if timeline?has_content>
  <svg class="timeline" role="img" aria-label="Node timeline" viewBox="0 0 820 ${timeline?size * 26 + 16}" height="${timeline?size * 26 + 16}">
    <#list timeline as t><g data-node="${t.node_id}"><text x="4" y="${t.ty}">${t.node_id}</text><line x1="160" x2="800" y1="${t.ty - 4}" y2="${t.ty - 4}"></line><rect class="${t.status}" x="${t.x}" y="${t.y}" width="${t.w}" height="16" rx="3"><title>${t.node_id}: ${t.status}, ${t.duration_ms} ms<#if (t.rows_out >= 0)>, ${t.rows_out} rows</#if></title></rect></g></#list>
  </svg>
  <table><thead><tr><th>Node</th><th>Type</th><th>Status</th><th>Duration</th><th>Rows out</th></tr></thead><tbody>
    <#list timeline as t><tr><td class="mono">${t.node_id}</td><td class="small">${t.type}</td><td><@layout.status t.status/></td><td class="small">${t.duration_ms} ms</td><td class="small"><#if (t.rows_out >= 0)>${t.rows_out}<#else>—</#if></td></tr></#list>
  </tbody></table>
  <#else><div class="empty small">No node ran.</div></#if>
</section>
<#if execution.result?? || result_error??>
<section class="card flush" id="result">
  <div class="card-head"><h2>Result<#if result??> · ${result.total_rows} rows</#if></h2><#if result??><a class="button" href="${csv_href}" hx-boost="false" download data-verb="download-csv">Download CSV</a></#if></div>
  <#if result_error??><div class="tree-crumbs"><@layout.error_state error=result_error/></div>
  <#elseif result.rows?has_content>
  <div class="diff"><table><thead><tr><#list result.columns as c><th>${c.name}<div class="small muted">${c.type}</div></th></#list></tr></thead><tbody>
  <#list result.rows as r><tr><#list r as cell><td class="small">${cell}</td></#list></tr></#list>
  </tbody></table></div>
  <#if result.has_more><div class="tree-crumbs small muted">The first ${result.rows?size} rows; the CSV holds them all until the result expires (${execution.result.expires_at}).</div></#if>
  <#else><div class="empty small">The result has no rows.</div></#if>
</section>
</#if>
<div class="grid halves">
  <section class="card flush">
    <div class="card-head"><h2>Event log</h2></div>
    <table class="events"><tbody><#list events as ev><tr><td>${ev.seq}</td><td><b>${ev.type}</b><div class="small muted">${ev.at!''}</div></td></tr></#list></tbody></table>
  </section>
  <section class="card"><h2>Parameters</h2><pre class="code">${parameters_text}</pre></section>
</div>
</@layout.page>
