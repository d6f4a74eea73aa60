<@layout.page title="API keys" crumb="API">
<div class="page-head"><div><h1>API keys</h1><p>Keys are for agents and programs. People sign in; agents present a key.</p></div><a class="button" href="/ui/connect">Connect an agent →</a></div>
<@layout.issued_key/>
<div class="grid two">
  <@layout.key_list/>
  <@layout.key_form action="/ui/keys"/>
</div>
</@layout.page>
