a
	y <#t>x
