#include "datapipelines/util/secret_box.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr std::string_view kVersionPrefix = "v1:";

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

CipherCtx NewContext() {
  CipherCtx ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  if (!ctx) throw SecretBoxError("cannot allocate a cipher context");
  return ctx;
}

const unsigned char* Bytes(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());
}

unsigned char* Bytes(std::string& text) { return reinterpret_cast<unsigned char*>(text.data()); }

std::string Trim(std::string text) {
  auto first = text.find_first_not_of(" \t\r\n");
  auto last = text.find_last_not_of(" \t\r\n");
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

// Writes a fresh key with O_EXCL so two processes starting at once never both win.
void WriteNewKeyFile(const std::string& path, const std::string& base64_key) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path().empty()
                                          ? std::filesystem::path(".")
                                          : std::filesystem::path(path).parent_path());
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return;
    throw SecretBoxError("cannot create the encryption key file " + path);
  }
  std::string line = base64_key + "\n";
  bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  ok = ::fsync(fd) == 0 && ok;
  ::close(fd);
  if (!ok) throw SecretBoxError("cannot write the encryption key file " + path);
}

}  // namespace

SecretBox::SecretBox(std::string raw_key) : key_(std::move(raw_key)) {
  if (key_.size() != kKeyBytes) {
    throw SecretBoxError("the encryption key must be exactly 32 bytes (got " +
                         std::to_string(key_.size()) + ")");
  }
}

SecretBox SecretBox::FromBase64(std::string_view base64_key) {
  std::string raw;
  try {
    raw = Base64Decode(Trim(std::string(base64_key)));
  } catch (const std::exception&) {
    throw SecretBoxError("the encryption key is not valid base64");
  }
  return SecretBox(std::move(raw));
}

SecretBox SecretBox::FromConfigOrKeyFile(std::string_view configured_base64,
                                         const std::string& key_file, bool may_generate) {
  if (!Trim(std::string(configured_base64)).empty()) return FromBase64(configured_base64);
  if (!may_generate) {
    throw SecretBoxError(
        "datapipelines.db.encryption-key (DATAPIPELINES_DB_ENCRYPTION_KEY) is required in "
        "production mode: set it to the base64 of 32 random bytes (openssl rand -base64 32)");
  }
  if (!std::filesystem::exists(key_file)) {
    WriteNewKeyFile(key_file, Base64Encode(RandomBytes(kKeyBytes)));
  }
  std::ifstream in(key_file);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw SecretBoxError("cannot read the encryption key file " + key_file);
  try {
    return FromBase64(text.str());
  } catch (const SecretBoxError& e) {
    throw SecretBoxError("the encryption key file " + key_file + " is invalid: " + e.what());
  }
}

std::string SecretBox::DeriveKey(std::string_view purpose) const {
  return HmacSha256(key_, std::string("datapipelines/derive/") + std::string(purpose));
}

std::string SecretBox::Seal(std::string_view plaintext, std::string_view associated_data) const {
  std::string nonce = RandomBytes(kNonceBytes);
  std::string out = nonce + std::string(plaintext.size(), '\0') + std::string(kTagBytes, '\0');
  CipherCtx ctx = NewContext();
  int len = 0;
  bool ok = EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) == 1 &&
            EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, Bytes(key_), Bytes(nonce)) == 1 &&
            EVP_EncryptUpdate(ctx.get(), nullptr, &len, Bytes(associated_data),
                              static_cast<int>(associated_data.size())) == 1 &&
            EVP_EncryptUpdate(ctx.get(), Bytes(out) + kNonceBytes, &len, Bytes(plaintext),
                              static_cast<int>(plaintext.size())) == 1 &&
            EVP_EncryptFinal_ex(ctx.get(), Bytes(out) + kNonceBytes + len, &len) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes,
                                Bytes(out) + kNonceBytes + plaintext.size()) == 1;
  if (!ok) throw SecretBoxError("encryption failed");
  return std::string(kVersionPrefix) + Base64Encode(out);
}

std::string SecretBox::Open(std::string_view envelope, std::string_view associated_data) const {
  if (envelope.substr(0, kVersionPrefix.size()) != kVersionPrefix) {
    throw SecretBoxError("unknown secret envelope version");
  }
  std::string raw;
  try {
    raw = Base64Decode(envelope.substr(kVersionPrefix.size()));
  } catch (const std::exception&) {
    throw SecretBoxError("malformed secret envelope");
  }
  if (raw.size() < kNonceBytes + kTagBytes) throw SecretBoxError("malformed secret envelope");
  std::size_t text_size = raw.size() - kNonceBytes - kTagBytes;
  std::string plain(text_size, '\0');
  std::string tag = raw.substr(kNonceBytes + text_size);
  CipherCtx ctx = NewContext();
  int len = 0;
  bool ok = EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) == 1 &&
            EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, Bytes(key_), Bytes(raw)) == 1 &&
            EVP_DecryptUpdate(ctx.get(), nullptr, &len, Bytes(associated_data),
                              static_cast<int>(associated_data.size())) == 1 &&
            EVP_DecryptUpdate(ctx.get(), Bytes(plain), &len, Bytes(raw) + kNonceBytes,
                              static_cast<int>(text_size)) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, Bytes(tag)) == 1 &&
            EVP_DecryptFinal_ex(ctx.get(), Bytes(plain) + len, &len) == 1;
  if (!ok) throw SecretBoxError("the secret does not open under this key and name");
  return plain;
}

}  // namespace dp
