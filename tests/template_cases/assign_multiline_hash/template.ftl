<#assign cfg = {
  'a': 1,
  'b': [1, 2]
}>
${cfg.b?size}
