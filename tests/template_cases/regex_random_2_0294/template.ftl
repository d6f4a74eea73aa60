<#attempt>[${s0?keep_before_last(r"\.1", r"ri")}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"\/(\z[b]{0,}+_|)-{1,2}", r"", r"rif")}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"\r\Z", r"rcf")?c}]<#recover>E</#attempt>
<#attempt>[${s0?matches(r"\A", r"rf")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"\B\x41\n{0,}", r"x", r"m")}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"((\1{2})\x410{2})\dé", r"m")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"(?-i)((\-\u00e9|)\x41{2}){1,2}", r"r")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?keep_after_last(r"\r\p{javaLowerCase}(\n)", r"rc")}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r":", r"rs")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"\b")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"[A\w0-9]?b*(0)+", r"f")?c}]<#recover>E</#attempt>
<#attempt>[${s1?ensure_starts_with(r"\p{javaLowerCase}", 'P')}]<#recover>E</#attempt>
