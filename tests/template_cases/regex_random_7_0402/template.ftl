<#attempt>[${s1?replace(r"\Z", r"x$0é", r"ri")}]<#recover>E</#attempt>
<#attempt>[${s2?ensure_starts_with(r"(\/{0,}\-(?<!/))\p{L}", 'P')}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"\D[\t\p{Lu}](\.{1,3})*")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"\t(é{1,2})\/")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?ensure_starts_with(r"/+", 'P')}]<#recover>E</#attempt>
<#attempt>[${s1?split(r"_{1,2}?(\p{javaLowerCase}\u00e9|\-{2}\/?)", r"r")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"\S*,[A_]*?", r"rms")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?split(r"[^\tb0-9]", r"rmf")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?replace(r"(?<g1>\R)", r"", r"rm")}]<#recover>E</#attempt>
<#attempt>[${s0?replace(r"\R\x41\S|-*", r"", r"r")}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"(?i)/\/,{0,}?")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?ensure_starts_with(r"1{1,3}-\x41", 'P')}]<#recover>E</#attempt>
