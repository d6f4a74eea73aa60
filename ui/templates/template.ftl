<@layout.page title=template.id crumb="Templates">
<div class="page-head">
  <div><h1>${template.display_name!template.id}</h1>
    <p class="row"><span class="mono">${template.id}</span><span class="badge ${template.status!''}" data-status="${template.status!''}">v${template.version!''} ${template.status!''}</span><span class="small muted">${template.type!''} ${template.dialect!''}<#if template.is_library!false> · library</#if></span></p></div>
  <#if can.author>
  <div class="row">
    <#if (template.status!'') == "DRAFT">
    <#if can.release><form class="inline-form" method="post" action="${self}/release" hx-confirm="Release v${template.version} of template “${template.id}”? The version becomes current and locked." hx-vals='{"confirmed": "yes"}'><input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Release v${template.version} of template “${template.id}”? The version becomes current and locked."/><input type="hidden" name="expected_hash" value="${template.body_hash!''}"><button type="submit" class="primary" data-verb="release">Release v${template.version}</button></form></#if>
    <form class="inline-form" method="post" action="${self}/purge-draft" hx-confirm="Discard the draft of template “${template.id}”? Its edits are lost." hx-vals='{"confirmed": "yes"}'><input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Discard the draft of template “${template.id}”? Its edits are lost."/><button type="submit" class="danger" data-verb="discard">Discard draft</button></form>
    <#elseif (template.status!'') == "RELEASED">
    <form class="inline-form" method="post" action="${self}/discard" hx-confirm="Discard v${template.version} of template “${template.id}”? Pins on it stop resolving." hx-vals='{"confirmed": "yes"}'><input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Discard v${template.version} of template “${template.id}”? Pins on it stop resolving."/><input type="hidden" name="version" value="${template.version}"><button type="submit" class="danger" data-verb="discard-version">Discard v${template.version}</button></form>
    </#if>
    <form class="inline-form" method="post" action="${self}/delete" data-confirm-typed="${template.id}" hx-confirm="Delete template “${template.id}”?" hx-vals='{"confirmed": "yes"}'><input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Delete template “${template.id}”?"/><input type="text" name="confirm" placeholder="type the id to delete" autocomplete="off"><button type="submit" class="danger" data-verb="delete">Delete</button></form>
  </div>
  </#if>
</div>
<#if template.description?has_content><p>${template.description}</p></#if>
<div class="grid two">
  <section class="card"><h2>Body</h2><div class="lines" id="template-body"><#list lines as l><div><span>${l.n}</span><span>${l.text}</span></div></#list></div></section>
  <div>
    <section class="card flush"><div class="card-head"><h2>Versions</h2></div>
      <table><tbody><#list versions as v><tr><td><a href="${self}?version=${v.version}">v${v.version}</a></td><td><@layout.status v.status/></td><td class="small muted">${v.updated_at!v.created_at!''}</td></tr></#list></tbody></table></section>
    <section class="card flush" id="used-by"><div class="card-head"><h2>Pinned by</h2></div>
      <#assign pins = (used_by.references)![]>
      <#if pins?has_content><table><tbody><#list pins as p><tr data-pinned-by="${p.pipeline}"><td><#if p.href??><a href="${p.href}">${p.pipeline}</a><#else>${p.pipeline}</#if></td><td class="small muted">v${p.pipeline_version} · node ${p.node_id}</td><td><@layout.status p.pipeline_version_status/></td></tr></#list></tbody></table>
      <#else><div class="empty small">No pipeline pins this version.</div></#if></section>
  </div>
</div>
</@layout.page>
