	y <#t>x
