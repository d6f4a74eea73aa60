#pragma once
// The server's TLS context (private to src/http): TLS 1.2 or newer, forward-secret AEAD
// suites for 1.2 (1.3's own suites as OpenSSL ships them), the certificate chain and key from
// PEM files, checked to match.
#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <string>

namespace dp {

// Throws std::runtime_error naming the file and what is wrong with it.
std::shared_ptr<boost::asio::ssl::context> LoadServerTlsContext(
    const std::string& certificate_file, const std::string& private_key_file);

}  // namespace dp
