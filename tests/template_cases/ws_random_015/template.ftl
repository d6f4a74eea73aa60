 y z <#if true><#if false>${1}<#else><#list 1..2 as i>






</#list><#nt><#noparse>b </#noparse></#if>${1}</#if>${1}<#noparse>b </#noparse>