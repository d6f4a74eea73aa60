<@layout.ceremony title="Sign in">
<h1>Sign in</h1>
<p class="muted">Use your datapipelines account.</p>
<#if flash_ok?? && flash_ok == "signed_out"><div class="alert ok" role="status">You are signed out.</div></#if>
<#if expired??><div class="alert warn" role="status" data-expired="true">Your session has expired or was ended: sign in again.</div></#if>
<#if refusal??><div class="alert error" role="alert" data-error="${refusal.code}">${refusal.message}<br><span class="small">correlation id <code>${correlation_id}</code></span></div></#if>
<#if local_enabled>
<form method="post" action="/ui/login?next=${next_q}">
  <div class="field"><label for="email">Email</label><input id="email" type="email" name="email" value="${email!''}" autocomplete="username" required autofocus></div>
  <div class="field"><label for="password">Password</label><input id="password" type="password" name="password" autocomplete="current-password" required></div>
  <button type="submit" class="primary" data-verb="login">Sign in</button>
</form>
</#if>
<#if providers?has_content>
<#if local_enabled><p class="divider muted"><span>or</span></p></#if>
<div class="sign-in-providers">
<#list providers as provider>
  <a class="button oidc" data-provider="${provider.name}" href="/oauth2/authorization/${provider.name}?next=${next_q}">${provider.display_name}</a>
</#list>
</div>
</#if>
</@layout.ceremony>
