<#setting locale="en-US">${1.5}
