  <#if true>
x
</#if>
