<@layout.page title="Admin" crumb="Organisation">
<#if has_workspace!true>
<div class="page-head"><div><h1>Workspace ${me.workspace}</h1><p>Members and their capability flags. Member changes apply to this (the active) workspace.</p></div></div>
<div class="grid two">
  <section class="card flush" id="members">
    <div class="card-head"><h2>Members</h2><span class="small muted">${members?size}</span></div>
    <table><thead><tr><th>Member</th><th>Flags</th><th>Joined</th><#if can.admin_workspace><th></th></#if></tr></thead><tbody>
    <#list members as m>
      <tr data-member="${m.email}"><td>${m.display_name}<div class="small muted">${m.email}</div></td>
        <td><#if can.admin_workspace>
          <form class="row" method="post" action="/ui/admin/members"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="email" value="${m.email}">
            <span aria-label="Flags of ${m.email}" class="row"><fieldset class="flags"><legend class="small muted">Flags</legend><label><input type="checkbox" name="author"<#if m.author> checked</#if>> author</label><label><input type="checkbox" name="promoter"<#if m.promoter> checked</#if>> promoter</label><label><input type="checkbox" name="admin"<#if m.admin> checked</#if>> admin</label></fieldset></span>
            <button type="submit" data-verb="set-flags">Save</button></form>
          <#else><span class="badge info" data-flags="${m.flags_name}">${m.flags_name}</span></#if></td>
        <td class="small">${m.joined_at}</td>
        <#if can.admin_workspace><td><form class="inline-form" method="post" action="${m.href}/remove" hx-confirm="Remove ${m.email} from workspace “${me.workspace}”?" hx-vals='{"confirmed": "yes"}'><input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Remove ${m.email} from workspace “${me.workspace}”?"/><button type="submit" class="danger" data-verb="remove-member">Remove</button></form></td></#if></tr>
    </#list>
    </tbody></table>
    <#if invitations?? && invitations?has_content>
    <div class="card-foot" id="invitations"><b class="small">Invited — a member at their first sign-in</b>
      <ul><#list invitations as i><li data-invitation="${i.email}">${i.email} <span class="small muted"><#if i.author>author </#if><#if i.promoter>promoter </#if><#if i.admin>admin</#if><#if !i.author && !i.promoter && !i.admin>viewer</#if></span></li></#list></ul></div>
    </#if>
  </section>
  <#if can.admin_workspace>
  <section class="card" id="add-member">
    <h2>Add a member</h2>
    <form method="post" action="/ui/admin/members">
      <input type="hidden" name="_csrf" value="${csrf}">
      <input type="hidden" name="add" value="1">
      <div class="field"><label for="m-email">Email</label><input id="m-email" type="email" name="email" required><div class="hint">Someone without an account yet is invited: they become a member, with these flags, at their first sign-in.</div></div>
      <div class="field"><fieldset class="flags"><legend class="small muted">Flags</legend><label><input type="checkbox" name="author" id="m-author"> author</label><label><input type="checkbox" name="promoter" id="m-promoter"> promoter</label><label><input type="checkbox" name="admin" id="m-admin"> admin</label></fieldset>
        <div class="hint">No flag: a viewer, who reads and runs. Author builds and edits; promoter releases and promotes; admin also manages datasources and members (and always authors).</div></div>
      <button type="submit" class="primary" data-verb="add-member">Add</button>
    </form>
  </section>
  <#else><@layout.forbidden what="change members"/></#if>
</div>
<#else>
<div class="page-head"><div><h1>Organisation</h1><p id="no-workspace">You are in no workspace yet: create one below, then add its members from here.</p></div></div>
</#if>
<#if users??>
<#macro one_time notice what>
  <#if notice.mail == "sent"><div id="mail-outcome" data-mail="sent">The one-time password went to ${notice.email} by mail; nobody else sees it. Their first sign-in asks for a new password.</div>
  <#else>
  <#if notice.mail == "failed"><div id="mail-outcome" data-mail="failed">The mail to ${notice.email} failed (${notice.mail_reason!''}): hand the password over yourself.</div></#if>
  <div>${what} one-time password is shown this once — hand it over out of band; their first sign-in asks for a new one.</div>
  <div class="row"><code id="one-time-password">${notice.password}</code><button type="button" data-copy="one-time-password">Copy</button></div>
  </#if>
</#macro>
<#if reset_user??>
<div class="alert ok" role="status" id="admin-notice" data-reset-user="${reset_user.email}">
  <b>Password of ${reset_user.email} reset.</b> Their sessions ended and any lockout is cleared.
  <@one_time notice=reset_user what="The new"/>
</div>
</#if>
<#if created_user??>
<div class="alert ok" role="status" id="admin-notice" data-created-user="${created_user.email}">
  <b>Account ${created_user.email} created.</b>
  <@one_time notice=created_user what="Its"/>
  <#if created_user.workspace??><div class="small">Member of workspace <b>${created_user.workspace}</b>.</div></#if>
  <#if created_user.membership_refusal??><div class="small" data-membership-refused="${created_user.membership_refusal.code}">No membership was written: ${created_user.membership_refusal.message} (<code>${created_user.membership_refusal.code}</code>). The account stands; add it from the members form of that workspace.</div></#if>
</div>
</#if>
<div class="stack">
  <section class="card flush" id="users">
    <div class="card-head"><h2>Users</h2><span class="small muted">instance admins</span></div>
    <table><thead><tr><th>User</th><th>State</th><th>Created</th><th></th></tr></thead><tbody>
    <#list users as u><tr data-user="${u.email}"><td>${u.display_name}<div class="small muted">${u.email} · ${u.provider}</div></td><td><#if u.active><span class="badge ok">active</span><#else><span class="badge muted">inactive</span></#if><#if u.super_admin> <span class="badge warn">instance admin</span></#if><#if u.locked> <span class="badge error" data-locked="true">locked</span></#if><#if u.must_change_password> <span class="badge info" data-one-time="true">one-time password</span></#if><#if !u.local_password> <span class="badge muted">no password</span></#if></td><td class="small">${u.created_at}</td>
      <td><div class="row wrap"><#if u.email != me.email><form class="inline-form" method="post" action="${u.href}/${u.active?then('deactivate', 'activate')}"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit"<#if u.active> class="danger"</#if> data-verb="${u.active?then('deactivate', 'activate')}">${u.active?then('Deactivate', 'Activate')}</button></form></#if>
        <form class="inline-form" method="post" action="${u.href}/reset-password" hx-confirm="Reset the password of ${u.email}? Their sessions end and the new one-time password replaces the old." hx-vals='{"confirmed": "yes"}'><input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Reset the password of ${u.email}? Their sessions end and the new one-time password replaces the old."/><button type="submit" data-verb="reset-password">Reset password</button></form>
        <#if u.local_password && u.email != me.email><form class="inline-form" method="post" action="${u.href}/disable-local" hx-confirm="Remove the password of ${u.email}? They sign in through an identity provider only." hx-vals='{"confirmed": "yes"}'><input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Remove the password of ${u.email}? They sign in through an identity provider only."/><button type="submit" class="danger" data-verb="disable-local">Remove password</button></form></#if>
        <#if u.locked><form class="inline-form" method="post" action="${u.href}/unlock"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" data-verb="unlock">Unlock</button></form></#if></div></td></tr></#list>
    </tbody></table>
    <p class="small muted card-foot">A deactivated user's sessions and API keys stop working within the key and session cache TTL, not instantly.</p>
  </section>
  <section class="card flush" id="workspaces">
    <div class="card-head"><h2>Workspaces</h2></div>
    <table><tbody><#list workspaces as w><tr data-workspace="${w.name}"><td><b>${w.name}</b><div class="small muted">${w.display_name}</div></td><td class="small">${w.created_at}</td></tr></#list></tbody></table>
  </section>
</div>
<div class="grid halves">
  <section class="card" id="create-user">
    <h2>Create a local user</h2>
    <form method="post" action="/ui/admin/users" autocomplete="off">
      <input type="hidden" name="_csrf" value="${csrf}">
      <div class="field"><label for="u-email">Email</label><input id="u-email" type="email" name="email" required></div>
      <div class="field"><label for="u-name">Display name</label><input id="u-name" type="text" name="display_name" placeholder="optional"></div>
      <div class="field"><label for="u-workspace">Workspace</label><input id="u-workspace" type="text" name="workspace" placeholder="optional: add them to it"></div>
      <div class="field"><fieldset class="flags"><legend class="small muted">Flags</legend><label><input type="checkbox" name="author" id="u-author"> author</label><label><input type="checkbox" name="promoter" id="u-promoter"> promoter</label><label><input type="checkbox" name="admin" id="u-admin"> admin</label></fieldset></div>
      <p class="small muted">The server generates a one-time password: mailed to the person when mail is configured, otherwise shown once, on this page. Their first sign-in asks for a new one.</p>
      <button type="submit" class="primary" data-verb="create-user">Create user</button>
    </form>
  </section>
  <section class="card" id="create-workspace">
    <h2>Create a workspace</h2>
    <form method="post" action="/ui/admin/workspaces">
      <input type="hidden" name="_csrf" value="${csrf}">
      <div class="field"><label for="w-name">Name</label><input id="w-name" type="text" name="name" required pattern="[a-z0-9_\-]{1,63}"><div class="hint">1 to 63 characters of a-z, 0-9, _ and -; it cannot change later.</div></div>
      <div class="field"><label for="w-display">Display name</label><input id="w-display" type="text" name="display_name" placeholder="optional"></div>
      <p class="small muted">You become its ws_admin; add members after switching to it.</p>
      <button type="submit" class="primary" data-verb="create-workspace">Create workspace</button>
    </form>
  </section>
</div>
</#if>
</@layout.page>
