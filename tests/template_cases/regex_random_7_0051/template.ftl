<#attempt>[${s1?ensure_starts_with(r"\n{1,2}0{0,}|😀", 'P', r"s")}]<#recover>E</#attempt>
<#attempt>[${s0?keep_before(r"(?>[.]\B[.\w])\A", r"rimf")}]<#recover>E</#attempt>
<#attempt>[${s0?matches(r"(,*?-)[\p{Lu}cA]|(?!\Z){2}(\b\-\-)", r"s")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"😀{2}")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"c", r"\$$0", r"rf")}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"(?s)\u00e9\Q.*\E")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"_\p{javaLowerCase}(\W+a*\-{1,2})", r"r")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"(?s)\-c++", r"s")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?keep_after(r"\B", r"rs")}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"([_Aé]+\1[\d\w]){1,3}|:?:", r"")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?replace(r"\P{Digit}b\Z", r"-<", r"rs")}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r", /")?join('|')}]<#recover>E</#attempt>
