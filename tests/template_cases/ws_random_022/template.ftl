<#assign v = 1><#if false><#-- c --><#rt>


<#else><#rt><#nt><#if true><#if true>a</#if>${1}  </#if><#-- c -->

</#if><#lt><#assign v = 1>x
