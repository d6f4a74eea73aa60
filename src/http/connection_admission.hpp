#pragma once
// Admission of connections and request bodies: what one server lets in at a time. A
// connection over the process-wide or per-address cap is refused before it is served, and a
// request body is reserved against the bytes-in-flight cap before a byte of it is read, so a
// flood of slow uploads cannot hold the server's memory. One object owns both counts. Beyond
// the caps a small reserve of connections is kept for the health and metrics probes.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace dp {

// Taken from HttpServerOptions, where each limit is explained.
struct ConnectionLimits {
  int max_connections;
  int max_connections_per_client;
  int reserved_probe_connections;
  int64_t max_body_bytes_in_flight;
};

class ConnectionAdmission {
 public:
  // Bytes reserved for one request's body, given back when the request is done.
  class BodyReservation {
   public:
    BodyReservation(ConnectionAdmission& owner, int64_t bytes) : owner_(owner), bytes_(bytes) {}
    BodyReservation(const BodyReservation&) = delete;
    BodyReservation& operator=(const BodyReservation&) = delete;
    ~BodyReservation() { owner_.body_bytes_in_flight_ -= bytes_; }

   private:
    ConnectionAdmission& owner_;
    int64_t bytes_;
  };

  explicit ConnectionAdmission(ConnectionLimits limits) : limits_(limits) {}

  enum class Admission {
    kAdmitted,   // within the caps
    kProbeOnly,  // over a cap, in the probes' reserve: one probe request, then close
    kRefused,    // over a cap and the reserve is in use
  };
  // Counts a new connection from `ip` (nothing is counted when refused).
  Admission AdmitConnection(const std::string& ip);
  // Gives back what AdmitConnection counted for this connection.
  void ReleaseConnection(const std::string& ip, Admission admitted);
  // Reserves `bytes` of body; false when that would pass the in-flight cap.
  bool ReserveBody(int64_t bytes);

 private:
  ConnectionLimits limits_;
  std::atomic<int64_t> body_bytes_in_flight_{0};
  std::mutex clients_mutex_;
  int connections_ = 0;                              // guarded by clients_mutex_
  int probe_connections_ = 0;                        // in the reserve, guarded likewise
  std::unordered_map<std::string, int> per_client_;  // open connections per client address
};

}  // namespace dp
