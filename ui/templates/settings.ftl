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
<section class="card" id="password">
  <h2>Change password</h2>
  <form method="post" action="/ui/settings/password" autocomplete="off" class="grid halves">
    <input type="hidden" name="_csrf" value="${csrf}">
    <div>
      <div class="field"><label for="current_password">Current password</label><input id="current_password" type="password" name="current_password" autocomplete="current-password" required></div>
    </div>
    <div>
      <div class="field"><label for="new_password">New password</label><input id="new_password" type="password" name="new_password" autocomplete="new-password" minlength="12" required><div class="hint">At least 12 characters.</div></div>
      <div class="field"><label for="confirm_password">New password, again</label><input id="confirm_password" type="password" name="confirm_password" autocomplete="new-password" minlength="12" required></div>
      <button type="submit" class="primary" data-verb="change-password">Change password</button>
    </div>
  </form>
</section>
</@layout.page>
