<#attempt>[${s2?split(r"[aa]", r"rcf")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"\W\r\w{1,3}", r"r")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?replace(r"(\1{2}|[\p{L}\p{Punct}\p{Punct}]?\Q.*\E*)[\w\p{Lu}\t]", r">$0", r"rsf")}]<#recover>E</#attempt>
<#attempt>[${s1?replace(r"(?!\x411{0,}\A)A", r">é", r"rf")}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r".")?c}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"\p{Nd}{1,3}\w(?<!\Q.*\E)+")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"😀{1,2}", r"\$", r"ri")}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"B{1,3}\z", r"é", r"rscf")}]<#recover>E</#attempt>
<#attempt>[${s1?split(r"\p{L}+[.],{1,3}", r"rs")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?replace(r"\p{javaLowerCase}c1{1,3}|^", r"$0xx", r"rimc")}]<#recover>E</#attempt>
<#attempt>[${s0?ensure_starts_with(r"$\p{Nd}", 'P')}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"\.{2}([a\-]){2}", r"msf")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
