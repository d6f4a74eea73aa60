<@layout.page title="Dashboard">
<div class="page-head"><div><h1>Good to see you, ${me.display_name}</h1><p>What agents built, what ran, and what waits for a person.</p></div></div>
<div class="stats">
  <div class="stat"><b>${stats.pipelines}</b><span>pipelines</span></div>
  <div class="stat"><b>${stats.drafts}</b><span>drafts awaiting review</span></div>
  <div class="stat"><b>${stats.datasources}</b><span>datasources</span></div>
  <div class="stat"><b>${stats.failed_recent}</b><span>failed of the last 10 runs</span></div>
</div>
<div class="grid two">
  <section class="card flush" id="recent-executions">
    <div class="card-head"><h2>Recent executions</h2><a href="/ui/executions">All executions →</a></div>
    <#if executions?has_content>
    <table><thead><tr><th>Pipeline</th><th>Status</th><th>Started</th><th>Duration</th></tr></thead><tbody>
    <#list executions as e>
      <tr><td><a href="${e.href}">${e.pipeline_name}</a> <span class="muted small">v${e.version}</span></td><td><@layout.status e.status/></td><td class="small">${e.started_at!''}</td><td class="small">${e.duration_ms} ms</td></tr>
    </#list>
    </tbody></table>
    <#else><@layout.empty title="No executions yet">Runs appear here once an agent or a person executes a pipeline.</@layout.empty></#if>
  </section>
  <section class="card flush" id="drafts">
    <div class="card-head"><h2>Drafts awaiting review</h2><a href="/ui/pipelines">Pipelines →</a></div>
    <#if drafts?has_content>
    <table><tbody>
    <#list drafts as p>
      <tr><td><a href="${p.href}">${p.name}</a><div class="small muted">${p.owner} · ${p.updated_at!''}</div></td><td><span class="badge DRAFT">v${p.version} DRAFT</span></td></tr>
    </#list>
    </tbody></table>
    <#else><@layout.empty title="Nothing to review">When an agent saves a pipeline it lands here as a draft for a person to release.</@layout.empty></#if>
  </section>
</div>
<section class="card flush" id="datasource-health">
  <div class="card-head"><h2>Datasource health</h2><a href="/ui/datasources">Manage →</a></div>
  <#if datasources?has_content>
  <table><thead><tr><th>Name</th><th>Dialect</th><th>Access</th><th>Last test</th><th></th></tr></thead><tbody>
  <#list datasources as d>
    <tr><td><a href="${d.href}">${d.display_name!d.name}</a> <span class="muted small mono">${d.name}</span></td><td>${d.dialect}</td><td><#if d.readonly!false><span class="badge muted">read-only</span><#else><span class="badge info">read-write</span></#if></td>
    <td data-health="${d.name}"><@layout.last_test d=d/></td>
    <td><#if can.admin_workspace><form class="inline-form" method="post" action="${d.href}/test"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" data-verb="test">Test connection</button></form></#if></td></tr>
  </#list>
  </tbody></table>
  <#else><@layout.empty title="No datasources granted to this workspace">An operator registers one and grants it here.</@layout.empty></#if>
</section>
</@layout.page>
