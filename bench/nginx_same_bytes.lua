-- The nginx baseline: the same POST as mcp_ping.lua / mcp_tools_list.lua (method, headers,
-- body), to a path where bench/run's nginx serves the bytes our server answers with.
-- NGINX_PATH (/ping or /tools_list) picks the answer; BENCH_BODY the request body.
wrk.method = "POST"
wrk.path = os.getenv("NGINX_PATH")
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["DP-API-Key"] = os.getenv("DP_BENCH_KEY")
