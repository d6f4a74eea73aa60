#pragma once
// A real SMTP server for the mail tests: nodemailer's smtp-server (support/smtp_sink.mjs, its
// npm dependency installed by `npm ci` in support/) started on a loopback port in 57000-57999,
// with STARTTLS under a certificate of a throwaway CA this helper makes with openssl, AUTH
// required, and each accepted message written as a JSON file the test reads back.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp::mail_test {

namespace fs = std::filesystem;

inline fs::path SinkDirectory() {
  return fs::path(DP_SOURCE_DIR) / "tests/integration/mail/support";
}

// Why the sink cannot run here, or "" when it can.
inline std::string SinkUnavailableReason() {
  if (std::system("command -v node >/dev/null 2>&1") != 0) return "node is not installed";
  if (std::system("command -v openssl >/dev/null 2>&1") != 0) return "openssl is not installed";
  if (!fs::exists(SinkDirectory() / "node_modules/smtp-server")) {
    return "smtp-server is not installed (cd tests/integration/mail/support && npm ci)";
  }
  return "";
}

// A CA and a server certificate for localhost / 127.0.0.1 signed by it, in `dir`.
inline bool MakeThrowawayCa(const fs::path& dir, const std::string& ca_name) {
  const std::string d = dir.string();
  const std::string ec = " -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes ";
  const std::string script =
      "cd '" + d + "' && openssl req -x509" + ec + "-keyout " + ca_name + ".key -out " + ca_name +
      ".pem -days 1 -subj /CN=" + ca_name +
      " -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign "
      ">/dev/null 2>&1 && openssl req" +
      ec +
      "-keyout server.key -out server.csr "
      "-subj /CN=localhost >/dev/null 2>&1 && printf 'subjectAltName=DNS:localhost,IP:127.0.0.1"
      "\\nbasicConstraints=CA:FALSE\\nextendedKeyUsage=serverAuth\\n' > ext.cnf && "
      "openssl x509 -req -in server.csr -CA " +
      ca_name + ".pem -CAkey " + ca_name +
      ".key -CAcreateserial -out server.pem -days 1 -extfile ext.cnf >/dev/null 2>&1";
  return std::system(script.c_str()) == 0;
}

class SmtpSink {
 public:
  struct Options {
    std::string user = "dp-mailer";
    std::string password = "sink-Password-1";
    bool starttls = true;
    fs::path cert_dir{};                       // server.pem and server.key
    std::string auth_methods = "PLAIN,LOGIN";  // what the sink offers
  };

  explicit SmtpSink(const fs::path& out_dir, const Options& options) : out_(out_dir) {
    fs::create_directories(out_);
    std::vector<std::string> args = {"node",        (SinkDirectory() / "smtp_sink.mjs").string(),
                                     "--out",       out_.string(),
                                     "--user",      options.user,
                                     "--password",  options.password,
                                     "--port-from", "57000",
                                     "--port-to",   "57999"};
    if (options.starttls) {
      args.insert(args.end(), {"--cert", (options.cert_dir / "server.pem").string(), "--key",
                               (options.cert_dir / "server.key").string()});
    } else {
      args.push_back("--no-starttls");
    }
    Spawn(args);
  }
  ~SmtpSink() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
    if (stdin_ >= 0) ::close(stdin_);
    if (stdout_ >= 0) ::close(stdout_);
  }
  SmtpSink(const SmtpSink&) = delete;
  SmtpSink& operator=(const SmtpSink&) = delete;

  int port() const { return port_; }

  // The messages received so far, oldest first.
  std::vector<Json> Messages() const {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(out_)) {
      const std::string name = entry.path().filename().string();
      if (!name.starts_with(".") && name.ends_with(".json")) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<Json> messages;
    for (const auto& file : files) {
      std::ifstream in(file);
      messages.push_back(Json::parse(std::string(std::istreambuf_iterator<char>(in), {})));
    }
    return messages;
  }

 private:
  void Spawn(const std::vector<std::string>& args) {
    int to_child[2];
    int from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) return;
    // Everything the child needs is made before fork: only async-signal-safe calls after it.
    std::vector<char*> argv;
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    const std::string directory = SinkDirectory().string();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(to_child[0], STDIN_FILENO);
      ::dup2(from_child[1], STDOUT_FILENO);
      if (::chdir(directory.c_str()) != 0) ::_exit(126);
      ::execvp("node", argv.data());
      ::_exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    stdin_ = to_child[1];  // held open: the sink exits when it closes
    stdout_ = from_child[0];
    ReadPort();
  }

  void ReadPort() {
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd ready{stdout_, POLLIN, 0};
      if (::poll(&ready, 1, 200) <= 0) continue;
      char piece[256];
      const ssize_t n = ::read(stdout_, piece, sizeof piece);
      if (n <= 0) break;
      line.append(piece, static_cast<std::size_t>(n));
    }
    try {
      port_ = Json::parse(line.substr(0, line.find('\n'))).value("port", 0);
    } catch (const std::exception&) {
      port_ = 0;
    }
  }

  fs::path out_;
  pid_t pid_ = -1;
  int stdin_ = -1;
  int stdout_ = -1;
  int port_ = 0;
};

// A TCP listener on a loopback port in 57000-57999 that accepts and never says a word: what
// an SMTP server that hangs looks like to a client.
class SilentListener {
 public:
  SilentListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int port = 57000 + ::getpid() % 500; port < 58000 && port_ == 0; ++port) {
      address.sin_port = htons(static_cast<uint16_t>(port));
      if (::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
          ::listen(fd_, 4) == 0) {
        port_ = port;
      }
    }
  }
  ~SilentListener() { ::close(fd_); }
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// Quoted-printable back to text: soft line breaks removed, =XX decoded, anything else kept.
inline std::string DecodeQuotedPrintable(std::string_view text) {
  auto hex = [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'A' && c <= 'F');
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '=' && text.substr(i + 1, 2) == "\r\n") {
      i += 2;
    } else if (text[i] == '=' && i + 2 < text.size() && hex(text[i + 1]) && hex(text[i + 2])) {
      out.push_back(static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

}  // namespace dp::mail_test
