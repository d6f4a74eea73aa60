<@layout.ceremony title="Choose a password">
<h1>Choose your password</h1>
<div class="alert warn" role="status" id="one-time-warning">You signed in with a one-time password. Choose your own before you go on: nothing else opens until you do.</div>
<#if refusal??><div class="alert error" role="alert" data-error="${refusal.code}">${refusal.message}<br><span class="small">correlation id <code>${correlation_id}</code></span></div></#if>
<@layout.password_card framed=false/>
<form method="post" action="/ui/logout" class="inline-form"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="link" data-verb="logout">Sign out</button></form>
</@layout.ceremony>
