#pragma once
// Which pipeline versions pin a template (the reverse arrow of a node's {id, version} pin,
// spec §6.2.21/§6.2.32). Pipelines are served by another service; until one is wired there
// are no pins, and TemplateService answers every pin question with "none".
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace dp {

struct TemplatePin {
  std::string pipeline;     // pipeline name (folder path)
  std::string pipeline_id;  // uuid
  std::string node_id;
  int pipeline_version = 0;
  std::string pipeline_version_status;  // "DRAFT" | "RELEASED"
  int template_version = 0;
};

class TemplatePinSource {
 public:
  virtual ~TemplatePinSource() = default;
  // One row per pinning node of each pipeline's WORKING version (templates_used_by).
  virtual std::vector<TemplatePin> WorkingVersionPins(const std::string& workspace_id,
                                                      const std::string& template_id,
                                                      int template_version) = 0;
  // Every pin of ANY version of the template in ANY pipeline version ever (the delete guard).
  virtual std::vector<TemplatePin> AllPins(const std::string& workspace_id,
                                           const std::string& template_id) = 0;
};

// A pin source reached through a function. The pipeline service pins templates but is built
// after the template service (it renders through it): the composition root gives the template
// service this, bound to the pipeline service, which exists once start-up is done. While the
// function answers null nothing pins anything.
class PinSourcePort final : public TemplatePinSource {
 public:
  explicit PinSourcePort(std::function<TemplatePinSource*()> target) : target_(std::move(target)) {}

  std::vector<TemplatePin> WorkingVersionPins(const std::string& workspace_id,
                                              const std::string& template_id,
                                              int template_version) override {
    TemplatePinSource* target = target_();
    if (!target) return {};
    return target->WorkingVersionPins(workspace_id, template_id, template_version);
  }
  std::vector<TemplatePin> AllPins(const std::string& workspace_id,
                                   const std::string& template_id) override {
    TemplatePinSource* target = target_();
    return target ? target->AllPins(workspace_id, template_id) : std::vector<TemplatePin>{};
  }

 private:
  std::function<TemplatePinSource*()> target_;
};

}  // namespace dp
