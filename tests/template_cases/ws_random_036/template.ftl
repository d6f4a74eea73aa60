<#noparse>
</#noparse><#noparse>
</#noparse><#compress> c

b </#compress><#t>	