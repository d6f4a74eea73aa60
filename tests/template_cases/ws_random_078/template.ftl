<#noparse>
</#noparse>