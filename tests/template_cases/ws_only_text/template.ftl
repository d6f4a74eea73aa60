  just text  

