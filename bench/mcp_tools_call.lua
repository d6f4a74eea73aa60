-- POST /mcp tools/call with the JSON-RPC body from DP_BENCH_BODY and the key from DP_BENCH_KEY
-- (bench/datasource-tools sets both).
wrk.method = "POST"
wrk.path = "/mcp"
wrk.body = os.getenv("DP_BENCH_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["DP-API-Key"] = os.getenv("DP_BENCH_KEY")
