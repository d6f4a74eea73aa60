#include "datapipelines/pipeline/validation_problems.hpp"

#include <algorithm>
#include <stdexcept>

#include "datapipelines/domain/domain_error.hpp"

namespace dp {

Json ValidationProblem::ToJson() const {
  Json entry = {{"code", std::string(code.code)}, {"path", path}, {"message", message}};
  for (const auto& [key, value] : details.items()) {
    if (!entry.contains(key)) entry[key] = value;
  }
  return entry;
}

void ValidationProblems::Add(ErrorCode code, std::string path, std::string message, Json details) {
  if (HasProblemAt(path)) return;
  ++total_;
  if (problems_.size() >= kMaxProblems) return;
  if (!details.is_object()) details = Json::object();
  problems_.push_back({code, std::move(path), std::move(message), std::move(details)});
}

bool ValidationProblems::HasProblemAt(const std::string& path) const {
  return std::any_of(problems_.begin(), problems_.end(),
                     [&](const ValidationProblem& problem) { return problem.path == path; });
}

void ValidationProblems::Throw() const {
  if (problems_.empty()) throw std::logic_error("ValidationProblems::Throw with no problems");
  const ValidationProblem& first = problems_.front();
  Json details = first.details;
  details["path"] = first.path;
  Json list = Json::array();
  for (const auto& problem : problems_) list.push_back(problem.ToJson());
  details["problems"] = std::move(list);
  if (total_ > problems_.size()) details["problems_truncated"] = total_ - problems_.size();
  throw DomainError(first.code, first.message, std::move(details));
}

void ValidationProblems::ThrowIfAny() const {
  if (!problems_.empty()) Throw();
}

}  // namespace dp
