<@layout.page title="Pipelines" crumb="Build">
<div class="page-head">
  <div><h1>Pipelines</h1><p>Agents author pipelines over MCP; a person reviews and releases them here.</p></div>
  <form class="filters" method="get" action="/ui/pipelines" role="search">
    <div class="field"><label for="q">Search</label>
      <input id="q" type="search" name="q" value="${q}" placeholder="name, folder…"
             hx-get="/ui/pipelines" hx-trigger="input changed delay:300ms, search" hx-target="#pipeline-list" hx-select="#pipeline-list" hx-swap="outerHTML" hx-push-url="true" hx-indicator="#search-spinner"></div>
    <button type="submit">Search</button><span id="search-spinner" class="htmx-indicator spinner" aria-hidden="true"></span>
  </form>
</div>
<section class="card flush" id="pipeline-list">
  <#if browse>
  <div class="tree-crumbs"><a href="/ui/pipelines?prefix=">All folders</a><#list crumbs as c> / <a href="${c.href}">${c.label}</a></#list></div>
  <#if folders?has_content><div class="folders"><#list folders as f><a href="${f.href}" title="${f.path}"><span>📁 ${f.segment}</span><span class="badge muted">${f.pipeline_count}</span></a></#list></div></#if>
  <#else>
  <div class="tree-crumbs">${total} matching “${q}” · <a href="/ui/pipelines">clear</a></div>
  </#if>
  <#if pipelines?has_content>
  <table><thead><tr><th>Name</th><th>Version</th><th>Owner</th><th>Updated</th></tr></thead><tbody>
  <#list pipelines as p>
    <tr data-pipeline="${p.name}"><td><a href="${p.href}">${p.name}</a><#if p.display_name?has_content><div class="small muted">${p.display_name}</div></#if></td>
      <td><#if p.status??><span class="badge ${p.status}">v${p.version} ${p.status}</span><#else><span class="badge muted">no live version</span></#if></td>
      <td class="small">${p.owner}</td><td class="small">${p.updated_at!''}</td></tr>
  </#list>
  </tbody></table>
  <#if has_more><div class="tree-crumbs"><a href="/ui/pipelines?q=${q}&amp;offset=${next_offset}">Next page →</a></div></#if>
  <#elseif !folders?has_content>
  <@layout.empty title="No pipelines here yet">Connect an agent (<a href="/ui/connect">Connect an agent</a>) and ask it to build one; it lands here as a draft.</@layout.empty>
  </#if>
</section>
</@layout.page>
