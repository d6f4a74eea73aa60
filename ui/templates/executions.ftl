<@layout.page title="Executions" crumb="Operate">
<div class="page-head"><div><h1>Execution history</h1><p>Every run of a pipeline in this workspace you may see, newest first.</p></div></div>
<form class="card filters" method="get" action="/ui/executions" hx-get="/ui/executions" hx-trigger="change" hx-target="#execution-list" hx-select="#execution-list" hx-swap="outerHTML" hx-push-url="true">
  <div class="field"><label for="pipeline_id">Pipeline id</label><input id="pipeline_id" type="text" name="pipeline_id" value="${filter.pipeline_id}"></div>
  <div class="field"><label for="status">Status</label>
    <select id="status" name="status"><option value="">Any</option>
      <#list ["RUNNING", "SUCCESS", "FAILED", "ABORTED"] as s><option value="${s}"<#if filter.status == s> selected</#if>>${s}</option></#list></select></div>
  <div class="field"><label for="since">Started within</label>
    <select id="since" name="since"><option value="">Any time</option>
      <#list [{"v": "1", "l": "the last hour"}, {"v": "24", "l": "the last 24 hours"}, {"v": "168", "l": "the last 7 days"}] as o><option value="${o.v}"<#if filter.since == o.v> selected</#if>>${o.l}</option></#list></select></div>
  <div class="field"><label for="started_after">Started after (UTC)</label><input id="started_after" type="datetime-local" name="started_after" value="${filter.started_after}"></div>
  <div class="field"><label for="started_before">Started before (UTC)</label><input id="started_before" type="datetime-local" name="started_before" value="${filter.started_before}"></div>
  <button type="submit">Filter</button>
</form>
<section class="card flush" id="execution-list">
  <#if executions?has_content>
  <table><thead><tr><th>Execution</th><th>Pipeline</th><th>Status</th><th>Via</th><th>Started</th><th>Duration</th><th>Rows</th></tr></thead><tbody>
  <#list executions as e>
    <tr><td class="mono small"><a href="${e.href}">${e.execution_id?substring(0, 8)}…</a></td><td>${e.pipeline_name} <span class="muted small">v${e.version}</span></td><td><@layout.status e.status/></td><td class="small">${e.via}</td><td class="small">${e.started_at!''}</td><td class="small">${e.duration_ms} ms</td><td class="small">${(e.result.total_rows)!'—'}</td></tr>
  </#list>
  </tbody></table>
  <p class="small muted" id="execution-total">${total} matching run<#if total != 1>s</#if></p>
  <#if has_more><div class="tree-crumbs"><a href="${older_href}" data-pager="older">Older →</a></div></#if>
  <#else><@layout.empty title="No executions match">Change the filters, or run a pipeline.</@layout.empty></#if>
</section>
</@layout.page>
