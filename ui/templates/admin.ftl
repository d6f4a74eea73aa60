<@layout.page title="Admin" crumb="Organisation">
<div class="page-head"><div><h1>Workspace ${me.workspace}</h1><p>Members and their roles. Member changes apply to this (the active) workspace.</p></div></div>
<div class="grid two">
  <section class="card flush" id="members">
    <div class="card-head"><h2>Members</h2><span class="small muted">${members?size}</span></div>
    <table><thead><tr><th>Member</th><th>Role</th><th>Joined</th><#if can.admin_workspace><th></th></#if></tr></thead><tbody>
    <#list members as m>
      <tr data-member="${m.email}"><td>${m.display_name}<div class="small muted">${m.email}</div></td>
        <td><#if can.admin_workspace>
          <form class="row" method="post" action="/ui/admin/members"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="email" value="${m.email}">
            <select name="role" aria-label="Role of ${m.email}"><#list roles as r><option<#if r == m.role> selected</#if>>${r}</option></#list></select>
            <button type="submit" data-verb="set-role">Save</button></form>
          <#else><span class="badge info">${m.role}</span></#if></td>
        <td class="small">${m.joined_at}</td>
        <#if can.admin_workspace><td><form class="inline-form" method="post" action="${m.href}/remove" hx-confirm="Remove ${m.email} from workspace “${me.workspace}”?" hx-vals='{"confirmed": "yes"}'><input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Remove ${m.email} from workspace “${me.workspace}”?"/><button type="submit" class="danger" data-verb="remove-member">Remove</button></form></td></#if></tr>
    </#list>
    </tbody></table>
  </section>
  <#if can.admin_workspace>
  <section class="card" id="add-member">
    <h2>Add a member</h2>
    <form method="post" action="/ui/admin/members">
      <input type="hidden" name="_csrf" value="${csrf}">
      <div class="field"><label for="m-email">Email of an existing user</label><input id="m-email" type="email" name="email" required></div>
      <div class="field"><label for="m-role">Role</label><select id="m-role" name="role"><#list roles as r><option<#if r == "viewer"> selected</#if>>${r}</option></#list></select>
        <div class="hint">viewer reads; operator runs; author builds and releases; ws_admin also manages datasources and members.</div></div>
      <button type="submit" class="primary" data-verb="add-member">Add</button>
    </form>
  </section>
  <#else><@layout.forbidden what="change members"/></#if>
</div>
<#if users??>
<div class="grid halves">
  <section class="card flush" id="users">
    <div class="card-head"><h2>Users</h2><span class="small muted">instance admins</span></div>
    <table><thead><tr><th>User</th><th>State</th><th>Created</th></tr></thead><tbody>
    <#list users as u><tr><td>${u.display_name}<div class="small muted">${u.email}</div></td><td><#if u.active><span class="badge ok">active</span><#else><span class="badge muted">inactive</span></#if><#if u.super_admin> <span class="badge warn">instance admin</span></#if></td><td class="small">${u.created_at}</td></tr></#list>
    </tbody></table>
  </section>
  <section class="card flush" id="workspaces">
    <div class="card-head"><h2>Workspaces</h2></div>
    <table><tbody><#list workspaces as w><tr><td><b>${w.name}</b><div class="small muted">${w.display_name}</div></td><td class="small">${w.created_at}</td></tr></#list></tbody></table>
  </section>
</div>
<p class="small muted">Creating users and workspaces is the operator CLI's in this build: <code>datapipelines users create</code>, <code>datapipelines workspaces create</code>.</p>
</#if>
</@layout.page>
