<#compress>a		 b 	
	 c</#compress>