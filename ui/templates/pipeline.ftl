<@layout.page title=pipeline.name crumb="Pipelines">
<div class="page-head">
  <div>
    <h1>${pipeline.display_name!pipeline.name}</h1>
    <p class="row"><span class="mono">${pipeline.name}</span><span class="badge ${pipeline.status}" data-status="${pipeline.status}">v${pipeline.version} ${pipeline.status}</span>
      <#if pipeline.current_version??><span class="muted small">current release v${pipeline.current_version}</span><#else><span class="muted small">never released</span></#if>
      <span class="muted small">owner ${pipeline.owner}</span></p>
  </div>
  <div class="row">
    <#if pipeline.draft?? && can.release>
      <form class="inline-form" method="post" action="${self}/release" hx-confirm="Release v${pipeline.draft.version} of pipeline “${pipeline.name}”? The version becomes current and locked." hx-vals='{"confirmed": "yes"}'>
        <input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Release v${pipeline.draft.version} of pipeline “${pipeline.name}”? The version becomes current and locked."/><input type="hidden" name="body_hash" value="${pipeline.draft.body_hash}">
        <button type="submit" class="primary" data-verb="release">Release v${pipeline.draft.version}</button>
      </form>
    </#if>
    <#if pipeline.draft?? && can.author>
      <form class="inline-form" method="post" action="${self}/discard" hx-confirm="Discard the draft v${pipeline.draft.version} of pipeline “${pipeline.name}”? Its edits are lost." hx-vals='{"confirmed": "yes"}'>
        <input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Discard the draft v${pipeline.draft.version} of pipeline “${pipeline.name}”? Its edits are lost."/><input type="hidden" name="body_hash" value="${pipeline.draft.body_hash}">
        <button type="submit" class="danger" data-verb="discard">Discard draft</button>
      </form>
    </#if>
  </div>
</div>
<#if pipeline.description?has_content><p>${pipeline.description}</p></#if>
<#if pipeline.draft?? && !can.release><div class="alert warn">v${pipeline.draft.version} is a draft awaiting review. Releasing takes the promoter flag: a promoter or workspace admin can.</div></#if>

<section class="card">
  <h2>DAG</h2>
  <#if dag.nodes?has_content>
  <svg class="dag" role="img" aria-label="Pipeline DAG" width="${dag.width}" height="${dag.height}" viewBox="0 0 ${dag.width} ${dag.height}">
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#64748b"></path></marker></defs>
    <#list dag.edges as e><path d="${e.d}" data-edge="${e.from}->${e.to}"></path></#list>
    <#list dag.nodes as n><g data-node="${n.id}"><rect x="${n.x}" y="${n.y}" width="${n.w}" height="${n.h}" rx="6" class="${(n.id == (pipeline.caller_node_id!''))?then('caller','')}"></rect><text x="${n.tx}" y="${n.ty}">${n.id}</text><text class="sub" x="${n.tx}" y="${n.sy}">${n.type}</text></g></#list>
  </svg>
  <#else><@layout.empty title="No nodes"/></#if>
</section>

<div class="grid two">
  <div>
    <#if diff??>
    <section class="card">
      <h2>Draft v${diff_to} against release v${diff_from}</h2>
      <div class="diff" id="diff"><#list diff as d><div class="${(d.op == '+')?then('add', (d.op == '-')?then('del', ''))}">${d.op} ${d.text}</div></#list></div>
    </section>
    </#if>
    <section class="card">
      <h2>Body (v${pipeline.version})</h2>
      <pre class="code" id="body">${body_text}</pre>
    </section>
  </div>
  <div>
    <section class="card flush">
      <div class="card-head"><h2>Versions</h2></div>
      <table><tbody>
      <#list versions as v>
        <tr><td><a href="${v.href}">v${v.version}</a></td><td><@layout.status v.status/></td><td class="small muted">${v.created_by} · ${v.updated_at}</td></tr>
      </#list>
      </tbody></table>
    </section>
    <section class="card flush" id="checks">
      <div class="card-head"><h2>Release checks</h2>
        <#if checks?has_content && can.author><form class="inline-form" method="post" action="${self}/checks"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="version" value="${pipeline.version}"><button type="submit" data-verb="run-checks">Run checks</button></form></#if></div>
      <#if checks?has_content>
      <table><tbody>
      <#list checks as c>
        <tr><td><b>${c.name!c.check_id}</b><div class="small muted mono">${c.datasource}</div></td>
          <td><#if c.latest_run??><@layout.status c.latest_run.verdict!c.latest_run.status!'RAN'/><div class="small muted">${c.latest_run.ran_at!''}</div><#else><span class="badge muted">never run</span></#if></td></tr>
      </#list>
      </tbody></table>
      <#else><div class="empty small">No checks on this version.</div></#if>
    </section>
    <section class="card flush">
      <div class="card-head"><h2>Recent runs</h2><a href="/ui/executions?pipeline_id=${pipeline.id}">All →</a></div>
      <#if executions?has_content>
      <table><tbody><#list executions as e><tr><td><a href="${e.href}">${e.started_at!''}</a></td><td><@layout.status e.status/></td></tr></#list></tbody></table>
      <#else><div class="empty small">Never executed.</div></#if>
    </section>
    <#if can.author>
    <section class="card">
      <h2>Danger zone</h2>
      <#if pipeline.draft?? && checks?has_content && can.release>
      <form method="post" action="${self}/release" class="stack" hx-confirm="Release v${pipeline.draft.version} of pipeline “${pipeline.name}” past its failing checks?" hx-vals='{"confirmed": "yes"}'>
        <input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Release v${pipeline.draft.version} of pipeline “${pipeline.name}” past its failing checks?"/><input type="hidden" name="body_hash" value="${pipeline.draft.body_hash}">
        <label for="override">Release past failing checks — the reason is recorded on the audit event</label>
        <textarea id="override" name="override_checks_reason" rows="2" minlength="10" placeholder="At least 10 characters"></textarea>
        <button type="submit" data-verb="release-override">Release anyway</button>
      </form>
      </#if>
      <form method="post" action="${self}/delete" class="stack" data-confirm-typed="${pipeline.name}" hx-confirm="Delete pipeline “${pipeline.name}” and every version of it?" hx-vals='{"confirmed": "yes"}'>
        <input type="hidden" name="_csrf" value="${csrf}"><@layout.confirm question="Delete pipeline “${pipeline.name}” and every version of it?"/>
        <label for="confirm">Type the name to delete this pipeline and its versions</label>
        <input id="confirm" type="text" name="confirm" autocomplete="off">
        <button type="submit" class="danger" data-verb="delete">Delete pipeline</button>
      </form>
    </section>
    </#if>
  </div>
</div>
</@layout.page>
