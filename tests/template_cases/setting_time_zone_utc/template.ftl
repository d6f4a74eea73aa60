<#setting time_zone="UTC">x
