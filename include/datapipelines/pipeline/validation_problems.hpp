#pragma once
// Every save-time verdict on a pipeline body, collected so an author gets the whole list in one
// round trip (pipeline-contract §12) instead of fixing one defect per save. The structure
// validator and the environment-dependent validator (datasources, templates, composition) add
// to the same object; the service throws once at the end.
#include <cstddef>
#include <string>
#include <vector>

#include "datapipelines/domain/error_code.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

struct ValidationProblem {
  ErrorCode code;
  std::string path;  // JSON path into the request body: "nodes[2].output.table"
  std::string message;
  Json details;  // always an object

  // {"code", "path", "message", ...details} — one entry of details.problems.
  Json ToJson() const;
};

class ValidationProblems {
 public:
  // Hostile input cannot grow the response past this many entries.
  static constexpr std::size_t kMaxProblems = 100;

  // One verdict per JSON path: a second problem at a path that already has one is dropped
  // (the first rule to fire names the defect; a pile of follow-on verdicts is noise).
  void Add(ErrorCode code, std::string path, std::string message, Json details = Json::object());

  bool empty() const { return problems_.empty(); }
  std::size_t size() const { return problems_.size(); }
  // Problems seen, including the ones dropped by the cap.
  std::size_t total() const { return total_; }
  const std::vector<ValidationProblem>& problems() const { return problems_; }
  bool HasProblemAt(const std::string& path) const;

  // DomainError with the FIRST problem's code and message; details = that problem's details
  // plus {"path", "problems": [every problem]} (and "problems_truncated" past the cap).
  [[noreturn]] void Throw() const;
  void ThrowIfAny() const;

 private:
  std::vector<ValidationProblem> problems_;
  std::size_t total_ = 0;
};

}  // namespace dp
