<#setting numberFormat="computer">${1.5}
