<@layout.page title="Connect an agent" crumb="API">
<div class="page-head"><div><h1>Connect an agent</h1><p>Point Claude Code, Claude Desktop, Cursor or any MCP client at this server.</p></div></div>
<section class="card">
  <h2>MCP endpoint</h2>
  <div class="copy-row"><code id="mcp-url" class="secret">${mcp_url}</code><button type="button" data-copy="mcp-url">Copy</button></div>
  <p class="small muted">Streamable HTTP. Send the key as <code>DP-API-Key: dpk_…</code> or <code>Authorization: Bearer dpk_…</code> — every client below uses one of the two.</p>
</section>
<@layout.issued_key/>
<div class="grid two">
  <section class="card tabs-snippets" id="snippets">
    <h2>Configuration<#if issued??> — with your new key filled in<#else> — create a key to fill it in</#if></h2>
    <h3>Claude Code</h3>
    <div class="copy-row"><span class="small muted">Run in a terminal</span><button type="button" data-copy="snippet-claude-code">Copy</button></div>
    <pre class="code" id="snippet-claude-code">${snippets.claude_code}</pre>
    <h3>Claude Desktop <span class="small muted">claude_desktop_config.json</span></h3>
    <div class="copy-row"><span class="small muted">Bridged through mcp-remote</span><button type="button" data-copy="snippet-claude-desktop">Copy</button></div>
    <pre class="code" id="snippet-claude-desktop">${snippets.claude_desktop}</pre>
    <h3>Cursor <span class="small muted">.cursor/mcp.json</span></h3>
    <div class="copy-row"><span class="small muted">Settings JSON</span><button type="button" data-copy="snippet-cursor">Copy</button></div>
    <pre class="code" id="snippet-cursor">${snippets.cursor}</pre>
    <h3>Generic HTTP MCP client</h3>
    <div class="copy-row"><span class="small muted">Both header forms</span><button type="button" data-copy="snippet-generic">Copy</button></div>
    <pre class="code" id="snippet-generic">${snippets.generic}</pre>
  </section>
  <div>
    <@layout.key_form action="/ui/connect"/>
  </div>
</div>
<@layout.key_list/>
</@layout.page>
