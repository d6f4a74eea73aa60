		y <#t>x
