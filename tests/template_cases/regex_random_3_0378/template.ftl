<#attempt>[${s0?split(r"(?!\u00e9\B[0-9A-Zb])\s +", r"r")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"^\p{Lower} {1,2}", r"")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?replace(r"\/(?<!\Q.*\E){2}\p{L}", r"éx<", r"rf")}]<#recover>E</#attempt>
<#attempt>[${s1?replace(r"-", r"", r"rim")}]<#recover>E</#attempt>
<#attempt>[${s0?ensure_starts_with(r"c", 'P', r"rs")}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"\n{2}(?<g1>[.a]{2}?){0,}\p{javaLowerCase}", r"r")?c}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"\P{Digit}\-{1,2}")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"\R{2}:{0,}?\r", r"ms")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"$(\s{0,}+.){1,2}\Q.*\E+", r"ic")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?matches(r"/\p{Nd}")?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?split(r"\n+", r"rcf")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s0?ensure_starts_with(r"(?<!\x41)-*[_]", 'P')}]<#recover>E</#attempt>
