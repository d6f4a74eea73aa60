<@layout.page title="Datasources" crumb="Build">
<div class="page-head"><div><h1>Datasources</h1><p>The databases pipelines read and write, granted to this workspace.</p></div></div>
<div class="grid two">
  <section class="card flush" id="datasource-list">
    <div class="card-head"><h2>Granted to ${me.workspace}</h2></div>
    <#if datasources?has_content>
    <table><thead><tr><th>Name</th><th>Dialect</th><th>Access</th><th>Last test</th><th>Facts</th></tr></thead><tbody>
    <#list datasources as d>
      <tr data-datasource="${d.name}"><td><a href="${d.href}">${d.display_name!d.name}</a><div class="small muted mono">${d.name}</div></td><td>${d.dialect}</td>
        <td><#if d.readonly!false><span class="badge muted">read-only</span><#else><span class="badge info">read-write</span></#if></td>
        <td data-health="${d.name}"><@layout.last_test d=d/></td><td class="small">${(d.facts![])?size}</td></tr>
    </#list>
    </tbody></table>
    <#else><@layout.empty title="No datasources granted to this workspace">An instance admin registers one and grants it here.</@layout.empty></#if>
  </section>
  <#if can.admin_workspace>
  <section class="card" id="register">
    <h2>Register a datasource</h2>
    <form method="post" action="/ui/datasources" autocomplete="off">
      <input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="workspace" value="${me.workspace}">
      <p class="small muted">Registered into ${me.workspace} and usable there at once.</p>
      <div class="field"><label for="ds-name">Name</label><input id="ds-name" type="text" name="name" value="${(form.name)!''}" required placeholder="warehouse"></div>
      <div class="field"><label for="ds-display">Display name</label><input id="ds-display" type="text" name="display_name" value="${(form.display_name)!''}" required></div>
      <div class="field"><label for="ds-dialect">Dialect</label><select id="ds-dialect" name="dialect"><#list ["POSTGRES", "MYSQL", "SQLITE"] as d><option<#if ((form.dialect)!'') == d> selected</#if>>${d}</option></#list></select></div>
      <div class="field"><label for="ds-url">JDBC URL</label><input id="ds-url" type="text" name="jdbc_url" value="${(form.jdbc_url)!''}" required placeholder="jdbc:postgresql://db.internal:5432/analytics"><div class="hint">No credentials in the URL: they go below.</div></div>
      <div class="field"><label for="ds-user">Username</label><input id="ds-user" type="text" name="username" value="${(form.username)!''}"></div>
      <div class="field"><label for="ds-password">Password</label><input id="ds-password" type="password" name="password" autocomplete="new-password"><div class="hint">Write-only: sealed with AES-256-GCM, never shown again.</div></div>
      <div class="field"><label class="check"><input type="checkbox" name="readonly" checked> Read-only (no write-back)</label></div>
      <button type="submit" class="primary" data-verb="register">Register</button>
    </form>
  </section>
  </#if>
</div>
<#if registry??>
<section class="card flush" id="registry">
  <div class="card-head"><h2>Instance registry</h2><span class="small muted">every datasource, granted here or not (instance admins)</span></div>
  <table><thead><tr><th>Name</th><th>Dialect</th><th>Home workspace</th></tr></thead><tbody>
  <#list registry as d><tr><td><a href="${d.href}">${d.name}</a></td><td>${d.dialect}</td><td class="small">${d.workspace!'—'}</td></tr></#list>
  </tbody></table>
</section>
</#if>
</@layout.page>
