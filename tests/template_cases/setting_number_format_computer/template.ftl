<#setting number_format="computer">
${1.5} ${1000000}
