#include "http/connection_admission.hpp"

namespace dp {

bool ConnectionAdmission::AdmitConnection(const std::string& ip) {
  std::lock_guard lock(clients_mutex_);
  if (connections_ >= limits_.max_connections) return false;
  int& mine = per_client_[ip];
  if (mine >= limits_.max_connections_per_client) {
    if (mine == 0) per_client_.erase(ip);
    return false;
  }
  ++mine;
  ++connections_;
  return true;
}

void ConnectionAdmission::ReleaseConnection(const std::string& ip) {
  std::lock_guard lock(clients_mutex_);
  --connections_;
  if (auto it = per_client_.find(ip); it != per_client_.end() && --it->second <= 0) {
    per_client_.erase(it);
  }
}

bool ConnectionAdmission::ReserveBody(int64_t bytes) {
  int64_t now = body_bytes_in_flight_.fetch_add(bytes) + bytes;
  if (now <= limits_.max_body_bytes_in_flight) return true;
  body_bytes_in_flight_ -= bytes;
  return false;
}

}  // namespace dp
