<ul>
  <#list [1,2] as i>
    <li>${i}</li>
  </#list>
</ul>
