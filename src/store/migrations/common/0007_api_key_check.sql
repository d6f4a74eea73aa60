-- 0007_api_key_check: a fast pre-check of an API key's secret beside its Argon2id hash
-- (issue 9). HMAC-SHA256 under a fixed label of the whole token, hex: a key check answers an
-- unknown id, a revoked key and a wrong secret with the same work and no Argon2 for any of
-- them. '' = a key issued before this migration (verified by Argon2, then back-filled).
ALTER TABLE api_keys ADD COLUMN key_check TEXT NOT NULL DEFAULT '';
