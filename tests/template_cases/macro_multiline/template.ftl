<#macro col name>
  ${name} VARCHAR
</#macro>
CREATE TABLE t (
<@col name='a'/>
<@col name='b'/>
);
