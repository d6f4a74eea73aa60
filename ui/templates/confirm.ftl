<@layout.page title="Are you sure?" crumb="Confirm">
<section class="card" id="confirm" data-confirm-action="${action}">
  <h1>Are you sure?</h1>
  <p id="confirm-question">${question}</p>
  <p class="small muted">This cannot be undone from here.</p>
  <form method="post" action="${action}" class="row">
    <input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="confirmed" value="yes">
    <#list fields as f><input type="hidden" name="${f.name}" value="${f.value}"></#list>
    <button type="submit" class="danger" data-verb="confirm">Yes, ${verb}</button>
    <a class="button" href="${back}" data-verb="cancel-confirm">No, go back</a>
  </form>
</section>
</@layout.page>
