<@layout.page title=datasource.name crumb="Datasources">
<div class="page-head">
  <div><h1>${datasource.display_name!datasource.name}</h1><p class="row"><span class="mono">${datasource.name}</span><span class="badge info">${datasource.dialect}</span><#if datasource.readonly!false><span class="badge muted">read-only</span></#if></p></div>
  <#if can.admin_workspace><form class="inline-form" method="post" action="${self}/test"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="primary" data-verb="test">Test connection</button></form></#if>
</div>
<#if test??>
<div class="alert ${test.connected?then('ok', 'error')}" role="status" id="test-result" data-connected="${test.connected?c}">
  <#if test.connected><b>Connected</b><#if test.latency_ms??> in ${test.latency_ms} ms</#if><#if test.server_version??> · ${test.server_version}</#if><#else><b>Not connected</b><#if test.error??> — ${(test.error.message)!test.error}</#if></#if>
</div>
</#if>
<div class="grid two">
  <div>
    <section class="card">
      <h2>Connection</h2>
      <table><tbody>
        <tr><td class="muted">JDBC URL</td><td class="mono">${datasource.jdbc_url}</td></tr>
        <tr><td class="muted">Username</td><td class="mono">${datasource.username!''}</td></tr>
        <tr><td class="muted">Password</td><td><#if datasource.password_set!false><span class="badge ok">set</span><#else><span class="badge muted">none</span></#if> <span class="small muted">(write-only)</span></td></tr>
        <tr><td class="muted">Last test</td><td data-health="${datasource.name}"><@layout.last_test d=datasource/></td></tr>
        <tr><td class="muted">Query timeout</td><td>${datasource.query_timeout_seconds!'default'} s</td></tr>
      </tbody></table>
    </section>
    <section class="card flush" id="facts">
      <div class="card-head"><h2>Learned facts</h2><span class="small muted">what agents recorded about this data</span></div>
      <#if (datasource.facts![])?has_content>
      <table><tbody><#list datasource.facts as f><tr><td><span class="badge info">${f.kind!''}</span></td><td>${f.text!f.statement!''}<div class="small muted">${f.status!''}</div></td></tr></#list></tbody></table>
      <#else><div class="empty small">No facts recorded yet.</div></#if>
    </section>
  </div>
  <div>
    <#if can.admin_workspace>
    <section class="card" id="edit">
      <h2>Edit</h2>
      <form method="post" action="${self}" autocomplete="off">
        <input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="dialect" value="${datasource.dialect}">
        <div class="field"><label for="e-display">Display name</label><input id="e-display" type="text" name="display_name" value="${datasource.display_name!''}"></div>
        <div class="field"><label for="e-url">JDBC URL</label><input id="e-url" type="text" name="jdbc_url" value="${datasource.jdbc_url}"></div>
        <div class="field"><label for="e-user">Username</label><input id="e-user" type="text" name="username" value="${datasource.username!''}"></div>
        <div class="field"><label for="e-password">New password</label><input id="e-password" type="password" name="password" autocomplete="new-password" placeholder="leave empty to keep the stored one"></div>
        <div class="field"><label class="check"><input type="checkbox" name="readonly"<#if datasource.readonly!false> checked</#if>> Read-only</label></div>
        <button type="submit" data-verb="save">Save</button>
      </form>
    </section>
    <section class="card" id="delete">
      <h2>Delete</h2>
      <form method="post" action="${self}/delete" class="stack" data-confirm-typed="${datasource.name}" hx-confirm="Delete datasource “${datasource.name}”? Pipelines can no longer read it; an operator can restore it." hx-vals='{"confirmed": "yes"}'>
        <input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Delete datasource “${datasource.name}”? Pipelines can no longer read it; an operator can restore it."/>
        <label for="confirm">Type the name to delete this datasource. A pipeline still using it blocks the delete and is named.</label>
        <input id="confirm" type="text" name="confirm" autocomplete="off">
        <button type="submit" class="danger" data-verb="delete">Delete datasource</button>
      </form>
    </section>
    </#if>
    <#if grants??>
    <section class="card flush" id="grants">
      <div class="card-head"><h2>Grants</h2></div>
      <table><tbody><#list grants as g><tr><td>${g.workspace}</td><td class="small muted">${g.granted_at!''}</td><td><form class="inline-form" method="post" action="${g.href}/revoke" hx-confirm="Revoke the grant of “${datasource.name}” to workspace “${g.workspace}”? Its pipelines can no longer read it." hx-vals='{"confirmed": "yes"}'><input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Revoke the grant of “${datasource.name}” to workspace “${g.workspace}”? Its pipelines can no longer read it."/><button type="submit" class="danger" data-verb="revoke-grant">Revoke</button></form></td></tr></#list></tbody></table>
      <form class="row tree-crumbs" method="post" action="${self}/grants"><input type="hidden" name="_csrf" value="${csrf}"><input type="text" name="workspace" placeholder="workspace name" required><button type="submit" data-verb="grant">Grant</button></form>
    </section>
    </#if>
  </div>
</div>
</@layout.page>
