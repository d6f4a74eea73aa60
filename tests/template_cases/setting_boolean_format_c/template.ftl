<#setting boolean_format="c">${true} ${false?string}
