INSERT INTO audit(payload) VALUES ('{"table": "${table?json_string}", "note": "${"it's \"quoted\"\n"?json_string}"}')
