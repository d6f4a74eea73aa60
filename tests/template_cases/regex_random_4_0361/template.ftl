<#attempt>[${s2?keep_after_last(r"[b\t]|", r"rf")}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"(?=b[a-c\s]_{1,3})((?<=é){1,2}.*?é|(\u00e9-\r)A+?)?|[a-cA-Z](/?(?=\-/){2}\u00e9)", r"risf")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s2?ensure_starts_with(r"\D\r😀", 'P')}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"\.[^cA][\w\-_]", r"r")?c}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"\B1", r"x", r"rm")}]<#recover>E</#attempt>
<#attempt>[${s0?replace(r"\u00e9,", r"<", r"rims")}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"😀", r"-", r"rims")}]<#recover>E</#attempt>
<#attempt>[${s2?matches(r"é?\u00e9", r"i")?join('|')}]<#recover>E</#attempt>
<#attempt>[${s1?replace(r",\u00e9+\S", r"", r"ri")}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"\r{0,}?\A/*?", r"", r"rs")}]<#recover>E</#attempt>
<#attempt>[${s2?replace(r"\t$\s{0,}", r"x$0", r"ric")}]<#recover>E</#attempt>
<#attempt>[${s1?matches(r"[\p{Punct}b]")?c}]<#recover>E</#attempt>
