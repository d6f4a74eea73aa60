-- POST /mcp {"method":"ping"} with the key from DP_BENCH_KEY (bench/run sets it).
wrk.method = "POST"
wrk.path = "/mcp"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"ping"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["DP-API-Key"] = os.getenv("DP_BENCH_KEY")
