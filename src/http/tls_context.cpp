#include "tls_context.hpp"

#include <openssl/ssl.h>

#include <stdexcept>

namespace dp {

namespace ssl = boost::asio::ssl;

namespace {

constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

}  // namespace

std::shared_ptr<ssl::context> LoadServerTlsContext(const std::string& certificate_file,
                                                   const std::string& private_key_file) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                       ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                       ssl::context::single_dh_use);
  SSL_CTX* native = context->native_handle();
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  SSL_CTX_set_cipher_list(native, kTls12Ciphers);
  SSL_CTX_set_options(native, SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_RENEGOTIATION);
  boost::system::error_code ec;
  context->use_certificate_chain_file(certificate_file, ec);
  if (ec) {
    throw std::runtime_error("cannot load server.tls.certificate-file " + certificate_file + ": " +
                             ec.message());
  }
  context->use_private_key_file(private_key_file, ssl::context::pem, ec);
  if (ec) {
    throw std::runtime_error("cannot load server.tls.private-key-file " + private_key_file + ": " +
                             ec.message());
  }
  if (SSL_CTX_check_private_key(native) != 1) {
    throw std::runtime_error("server.tls.private-key-file " + private_key_file +
                             " does not match the certificate " + certificate_file);
  }
  return context;
}

}  // namespace dp
