<#attempt>[${s0?replace(r"\s", r"", r"rmc")}]<#recover>E</#attempt>
<#attempt>[${s0?keep_before_last(r"\Z:B", r"im")}]<#recover>E</#attempt>
<#attempt>[${s0?matches(r"1", r"isc")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?ensure_starts_with(r"\t-1", 'P', r"rm")}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"_,")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?replace(r"\b", r">", r"rc")}]<#recover>E</#attempt>
<#attempt>[${s1?ensure_starts_with(r"B[\-\p{L}]{1,3}", 'P', r"rimsc")}]<#recover>E</#attempt>
<#attempt>[${s0?replace(r"\S[a-c](\u00e9(1\R){1,3})*", r"", r"rc")}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"\u00e9[\w\t0-9]{1,2}+", r"")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?ensure_starts_with(r"A+|\p{Nd}a", 'P', r"rc")}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"[a\p{Punct}A]*\n1{0,}", r"é", r"ms")}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"a\-", r"-", r"rim")}]<#recover>E</#attempt>
