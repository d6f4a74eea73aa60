a
<#-- comment
spanning -->
b
