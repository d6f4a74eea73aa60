#pragma once
// GET /metrics: the registry in the Prometheus text format. Its labels name the deployment's
// datasources, so it is not public: with no token configured only loopback clients are
// answered; with datapipelines.metrics.token set, every scrape must carry it as a bearer token
// (from any address).
#include <string>

#include "datapipelines/metrics/server_metrics.hpp"
#include "datapipelines/net/http_message.hpp"

namespace dp {

class MetricsEndpoint {
 public:
  MetricsEndpoint(ServerMetrics& metrics, std::string token)
      : metrics_(metrics), token_(std::move(token)) {}

  HttpResponse Handle(const HttpRequest& request) const;

 private:
  ServerMetrics& metrics_;
  std::string token_;
};

}  // namespace dp
