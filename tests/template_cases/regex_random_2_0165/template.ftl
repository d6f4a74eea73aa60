<#attempt>[${s1?split(r"\b", r"rcf")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?matches(r"\B^b", r"i")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?matches(r"_")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"_é{1,2}", r"f")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?matches(r"/|\w", r"")?c}]<#recover>E</#attempt>
<#attempt>[${s2?keep_before_last(r":*B", r"rif")}]<#recover>E</#attempt>
<#attempt>[${s0?matches(r"\.", r"sc")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?matches(r"\D+_?\Q.*\E|Bé", r"m")?c}]<#recover>E</#attempt>
<#attempt>[${s2?keep_after(r"Ac", r"ricf")}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"[\-]$", r"rc")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?matches(r":", r"")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?replace(r"\b", r"-$0<", r"rscf")}]<#recover>E</#attempt>
