<@layout.page title="Templates" crumb="Build">
<div class="page-head">
  <div><h1>Templates</h1><p>The SQL (and HTML) templates pipeline nodes pin by version.</p></div>
  <form class="filters" method="get" action="/ui/templates" role="search">
    <div class="field"><label for="q">Search</label><input id="q" type="search" name="q" value="${q}"
      hx-get="/ui/templates" hx-trigger="input changed delay:300ms, search" hx-target="#template-list" hx-select="#template-list" hx-swap="outerHTML" hx-push-url="true"></div>
    <button type="submit">Search</button>
  </form>
</div>
<section class="card flush" id="template-list">
  <#if browse><div class="tree-crumbs"><a href="/ui/templates?prefix=">All folders</a><#if prefix?has_content> / ${prefix}</#if></div>
  <#if folders?has_content><div class="folders"><#list folders as f><a href="${f.href}" title="${f.path}"><span>📁 ${f.segment}</span><span class="badge muted">${f.template_count!f.count!''}</span></a></#list></div></#if>
  <#else><div class="tree-crumbs">${total} matching “${q}” · <a href="/ui/templates">clear</a></div></#if>
  <#if templates?has_content>
  <table><thead><tr><th>Template</th><th>Version</th><th>Type</th><th>Updated</th></tr></thead><tbody>
  <#list templates as t>
    <tr data-template="${t.id}"><td><a href="${t.href}">${t.id}</a><#if t.display_name?has_content><div class="small muted">${t.display_name}</div></#if></td>
      <td><#if t.status??><span class="badge ${t.status}">v${t.version!''} ${t.status}</span></#if></td><td class="small">${t.type!''} ${t.dialect!''}<#if t.is_library!false> · library</#if></td><td class="small">${t.updated_at!''}</td></tr>
  </#list>
  </tbody></table>
  <#elseif !folders?has_content><@layout.empty title="No templates here yet">Agents create templates over MCP.</@layout.empty></#if>
</section>
</@layout.page>
