<#setting boolean_format="true,false">${true} ${"" + false}
