#include "http/connection_admission.hpp"

namespace dp {

ConnectionAdmission::Admission ConnectionAdmission::AdmitConnection(const std::string& ip) {
  std::lock_guard lock(clients_mutex_);
  bool within = connections_ < limits_.max_connections;
  if (within) {
    int& mine = per_client_[ip];
    within = mine < limits_.max_connections_per_client;
    if (within) {
      ++mine;
      ++connections_;
      return Admission::kAdmitted;
    }
    if (mine == 0) per_client_.erase(ip);
  }
  if (probe_connections_ >= limits_.reserved_probe_connections) return Admission::kRefused;
  ++probe_connections_;
  return Admission::kProbeOnly;
}

void ConnectionAdmission::ReleaseConnection(const std::string& ip, Admission admitted) {
  std::lock_guard lock(clients_mutex_);
  if (admitted == Admission::kProbeOnly) {
    --probe_connections_;
    return;
  }
  if (admitted != Admission::kAdmitted) return;
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
