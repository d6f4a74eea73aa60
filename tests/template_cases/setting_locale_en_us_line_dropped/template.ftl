a
<#setting locale="en_US">
b ${1234.5?string("#,##0.0")}
