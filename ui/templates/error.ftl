<@layout.ceremony title="Something went wrong">
<#assign status = {"request.route_not_found": "Page not found", "auth.csrf.invalid": "Refused: this form is stale", "internal.error": "Something went wrong", "auth.role_required": "You don't have permission to do this", "auth.scope.insufficient": "You don't have permission to do this", "workspace.membership_required": "You don't have permission to access this page"}>
<h1>${status[error.code]!"Refused"}</h1>
<div class="alert error" role="alert" data-error="${error.code}">
  <b>${error.message}</b><br>
  <span class="small">Code <code>${error.code}</code> · correlation id <code>${correlation_id}</code></span>
</div>
<p class="muted">Quote the correlation id when you report this: it names every log line of the request.</p>
<p><a class="button" href="/ui/">Back to the dashboard</a></p>
</@layout.ceremony>
