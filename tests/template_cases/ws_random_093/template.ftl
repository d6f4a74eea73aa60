<#if true>a
  	</#if>