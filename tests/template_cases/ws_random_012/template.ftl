
<#if true>
 y z <#noparse> c</#noparse>

</#if><#-- c --><#noparse>

</#noparse>  
