line1
  <#if true>
  line2
  </#if>
line3
