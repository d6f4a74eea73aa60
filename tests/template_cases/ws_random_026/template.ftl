<#compress><#if true><#assign v = 1></#if><#noparse>  
</#noparse><#lt> c${1}</#compress><#lt>${1}<#nt><#-- c -->