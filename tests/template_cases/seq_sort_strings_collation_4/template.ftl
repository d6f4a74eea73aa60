<#list words?sort as w>[${w}]
</#list>