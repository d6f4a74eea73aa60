<#-- The UI's two layouts (ui-screens §2 principle 4, §3) and its standard states (§5.1). A
     library: every page is rendered with it bound as `layout`. -->
<#macro head title>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowScriptTags":false,"allowEval":false,"responseHandling":[{"code":"204","swap":false},{"code":"...","swap":true}]}'>
<title>${title} · datapipelines</title>
<link rel="stylesheet" href="/ui/static/app.css?v=1">
<script src="/ui/static/htmx.min.js?v=2.0.4" defer></script>
<script src="/ui/static/ui.js?v=1" defer></script>
</#macro>

<#macro navlink href key label>
<a href="${href}" class="${(section == key)?then('active', '')}" data-nav="${key}">${label}</a>
</#macro>

<#-- The app shell: rail, top bar, boosted main. -->
<#macro page title crumb="">
<!DOCTYPE html>
<html lang="en">
<head><@head title=title/></head>
<body hx-boost="true" hx-headers='{"DP-CSRF-Token": "${csrf}"}'>
<div class="shell">
  <nav class="rail" aria-label="Main">
    <div class="brand"><span class="brand-mark"></span>datapipelines</div>
    <div class="workspace-chip"><small>Workspace</small>${me.workspace}<#if me.role??> · ${me.role}</#if></div>
    <@navlink href="/ui/" key="dashboard" label="Dashboard"/>
    <div class="rail-group">Build</div>
    <@navlink href="/ui/pipelines" key="pipelines" label="Pipelines"/>
    <@navlink href="/ui/templates" key="templates" label="Templates"/>
    <@navlink href="/ui/datasources" key="datasources" label="Datasources"/>
    <div class="rail-group">Operate</div>
    <@navlink href="/ui/executions" key="executions" label="Executions"/>
    <div class="rail-group">API</div>
    <@navlink href="/ui/connect" key="connect" label="Connect an agent"/>
    <@navlink href="/ui/keys" key="keys" label="API keys"/>
    <div class="rail-group">Organisation</div>
    <@navlink href="/ui/admin" key="admin" label="Admin"/>
    <div class="rail-foot">
      <@navlink href="/ui/settings" key="settings" label="Settings"/>
      <form method="post" action="/ui/logout" hx-boost="false"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="ghost" data-verb="logout">Sign out</button></form>
    </div>
  </nav>
  <div class="main">
    <header class="topbar">
      <div class="crumb"><#if crumb?has_content>${crumb} / </#if><strong>${title}</strong></div>
      <div class="who"><span>${me.display_name}</span><span class="avatar">${me.display_name?substring(0, 1)?upper_case}</span></div>
    </header>
    <main class="content" id="app-main">
      <@flash/>
      <#nested>
    </main>
  </div>
</div>
</body>
</html>
</#macro>

<#-- The password change form (ui-screens §4.14): one card for the voluntary change under
     Settings and the forced change of a one-time password. -->
<#macro password_card framed=true>
<section class="<#if framed>card</#if>" id="password">
  <h2>Change password</h2>
  <#if has_local_password!true>
  <form method="post" action="/ui/settings/password" autocomplete="off" class="stack">
    <input type="hidden" name="_csrf" value="${csrf}">
    <div class="field"><label for="current_password">Current password</label><input id="current_password" type="password" name="current_password" autocomplete="current-password" required></div>
    <div class="field"><label for="new_password">New password</label><input id="new_password" type="password" name="new_password" autocomplete="new-password" minlength="12" maxlength="128" required><div class="hint">At least 12 characters, at most 128. Length is what makes a password strong.</div></div>
    <div class="field"><label for="confirm_password">New password, again</label><input id="confirm_password" type="password" name="confirm_password" autocomplete="new-password" minlength="12" maxlength="128" required></div>
    <button type="submit" class="primary" data-verb="change-password">Change password</button>
  </form>
  <#else>
  <p class="muted" id="no-local-password">This account signs in through your identity provider: there is no password here to change.</p>
  </#if>
</section>
</#macro>

<#-- The ceremony layout: brand and a centred card, nothing else (login, errors before sign-in). -->
<#macro ceremony title>
<!DOCTYPE html>
<html lang="en">
<head><@head title=title/></head>
<body>
<div class="ceremony"><div class="card">
  <div class="brand"><span class="brand-mark"></span>datapipelines</div>
  <#nested>
</div></div>
</body>
</html>
</#macro>

<#-- Flash of a post/redirect/get (?ok=key → copy; an unmapped key renders nothing) and the
     refusal of a POST (its code, message and correlation id). -->
<#macro flash>
<#assign copy = {"released": "Released. The version is now current and locked.",
  "draft_discarded": "The draft was discarded.", "deleted": "Deleted.", "checks_ran": "The release checks ran.",
  "revoked": "Revoked. Agents using it are refused within the key cache TTL.", "registered": "Datasource registered.",
  "saved": "Saved.", "granted": "Granted.", "discarded": "Version discarded.", "cancel_requested": "Cancellation requested.",
  "signed_out": "You are signed out.", "removed": "Removed from the workspace.", "password_changed": "Password changed.",
  "user_activated": "User activated.", "user_deactivated": "User deactivated. Their sessions and keys stop working within the cache TTL.",
  "workspace_created": "Workspace created. You are its admin.",
  "local_disabled": "Password sign-in removed: the account signs in through an identity provider only. Its password sessions ended.",
  "user_unlocked": "Unlocked: the account may sign in again.",
  "invited": "Invited: nobody has that e-mail yet, so they become a member, with these flags, at their first sign-in."}>
<#if flash_ok?? && copy[flash_ok]??><div class="alert ok" role="status" data-flash="${flash_ok}">${copy[flash_ok]}</div></#if>
<#if refusal??><@error_state error=refusal/></#if>
</#macro>

<#macro error_state error>
<div class="alert error" role="alert" data-error="${error.code}">
  <b>${error.message}</b><br>
  <span class="small">Code <code>${error.code}</code><#if error.correlation_id??> · correlation id <code>${error.correlation_id}</code></#if></span>
</div>
</#macro>

<#macro empty title>
<div class="empty"><b>${title}</b><#nested></div>
</#macro>

<#macro forbidden what>
<div class="card forbidden muted">Your role in this workspace cannot ${what}. Ask a workspace admin.</div>
</#macro>

<#-- A datasource's last connection test (datasources.md §8.1B): never blank, because an empty
     cell on a health column reads as health. The code, never a message, is all that is stored. -->
<#macro last_test d>
<#if d.last_test??><#if d.last_test.ok><span class="badge ok" data-last-test="ok">ok</span><#else><span class="badge danger" data-last-test="failed">failed</span> <code class="small">${d.last_test.error_code!''}</code></#if>
<div class="small muted">${d.last_test.tested_at} · ${d.last_test.latency_ms} ms</div><#else><span class="badge muted" data-last-test="never">never tested</span></#if>
</#macro>

<#-- A destructive verb's confirmation (issue 17). htmx asks first (the form's hx-confirm) and
     marks its request confirmed (hx-vals); a plain post (JavaScript off) is answered with the
     GET confirmation page instead, which shows this question above a POST form of its own. -->
<#macro confirm question><input type="hidden" name="question" value="${question}"></#macro>

<#macro status value><span class="badge ${value!''}">${value!'—'}</span></#macro>

<#-- API keys, shared by the keys page and Connect an agent. -->
<#macro issued_key>
<#if issued??>
<section class="card" id="issued-key">
  <h2>Your new key “${issued.name}” (${issued.scope})</h2>
  <div class="alert warn">Copy it now: it is shown once and cannot be shown again.</div>
  <div class="copy-row"><code id="new-key" class="secret" data-key="${issued.api_key}">${issued.api_key}</code><button type="button" data-copy="new-key">Copy</button></div>
</section>
</#if>
</#macro>

<#macro key_form action>
<section class="card" id="create-key">
  <h2>Create a key</h2>
  <#if me.role?? || me.super_admin>
  <form method="post" action="${action}" hx-boost="false">
    <input type="hidden" name="_csrf" value="${csrf}">
    <div class="field"><label for="key-name">Name</label><input id="key-name" type="text" name="name" maxlength="100" placeholder="claude-code on my laptop" required></div>
    <label>Scope</label>
    <div class="scope-picker">
      <label><input type="radio" name="scope" value="read" checked> <b>read</b><span class="small muted">browse pipelines, templates, datasources and results</span></label>
      <label><input type="radio" name="scope" value="execute"> <b>execute</b><span class="small muted">read, and run pipelines</span></label>
      <label><input type="radio" name="scope" value="author"> <b>author</b><span class="small muted">execute, and create templates and pipelines</span></label>
    </div>
    <p class="small" id="scope-sentence">An agent needs <b>read</b> to browse, <b>execute</b> to run pipelines, and <b>author</b> to create them. A key's scope can never exceed yours: <#if max_scope == "none">as ${me.role!'a non-member'} you issue no keys — authors do.<#else>as ${me.role!'a non-member'} you can issue at most <b>${max_scope}</b>.</#if></p>
    <button type="submit" class="primary" data-verb="create-key">Create key</button>
  </form>
  </#if>
</section>
</#macro>

<#macro key_list>
<section class="card flush" id="key-list">
  <div class="card-head"><h2>Your keys</h2></div>
  <#if keys?has_content>
  <table><thead><tr><th>Name</th><th>Scope</th><th>Created</th><th>Last used</th><th>Minted by</th><th></th></tr></thead><tbody>
  <#list keys as k>
    <tr data-key-id="${k.id}"><td>${k.name}</td><td><span class="badge info">${k.scope}</span></td><td class="small">${k.created_at}</td><td class="small">${k.last_used_at!'never'}</td><td class="small">${k.minted_by!'unrecorded'}</td>
      <td><#if k.revoked><span class="badge muted">revoked</span><#else><form class="inline-form" method="post" action="${k.href}/revoke" hx-confirm="Revoke the key “${k.name}”? Agents using it are refused within the key cache TTL." hx-vals='{"confirmed": "yes"}'><input type="hidden" name="_csrf" value="${csrf}"><@confirm question="Revoke the key “${k.name}”? Agents using it are refused within the key cache TTL."/><button type="submit" class="danger" data-verb="revoke">Revoke</button></form></#if></td></tr>
  </#list>
  </tbody></table>
  <#else><@empty title="No keys yet">Create one for each agent, so each can be revoked on its own.</@empty></#if>
</section>
</#macro>
