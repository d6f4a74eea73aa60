-- 0010_api_key_minted_by: which credential minted each API key (issue 13). 'session' = a
-- signed-in person, 'operator' = the operator CLI or bootstrap, otherwise the minting key's id
-- ('dpk_…', its public half). No foreign key: a key minted by a key belongs to the USER and
-- outlives its parent, so revoking or losing the parent leaves this row as it was. '' = a key
-- issued before this migration (the minting credential was not recorded).
ALTER TABLE api_keys ADD COLUMN minted_by TEXT NOT NULL DEFAULT '';
