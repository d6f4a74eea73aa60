<@layout.page title="Settings">
<div class="page-head"><div><h1>Settings</h1><p>Your account in this workspace.</p></div></div>
<div class="grid halves">
  <section class="card"><h2>Profile</h2>
    <table><tbody>
      <tr><td class="muted">Name</td><td>${me.display_name}</td></tr>
      <tr><td class="muted">Email</td><td>${me.email}</td></tr>
      <tr><td class="muted">Workspace</td><td>${me.workspace}</td></tr>
      <tr><td class="muted">Flags</td><td><span class="badge info">${me.role!'not a member'}</span><#if me.super_admin> <span class="badge warn">instance admin</span></#if></td></tr>
    </tbody></table></section>
  <section class="card"><h2>What you can do here</h2>
    <ul>
      <li>Build and edit pipelines and templates: <b>${can.author?then('yes', 'no')}</b></li>
      <li>Release drafts: <b>${can.release?then('yes', 'no')}</b></li>
      <li>Run and cancel pipelines: <b>${can.execute?then('yes', 'no')}</b></li>
      <li>Register, edit and test datasources: <b>${can.admin_workspace?then('yes', 'no')}</b></li>
      <li>Grant datasources to workspaces: <b>${can.super_admin?then('yes', 'no')}</b></li>
    </ul>
    <p class="small muted">Members and roles: <a href="/ui/admin">Admin</a>.</p></section>
</div>
<@layout.password_card/>
</@layout.page>
