// semantics_record's validation order (spec §6.2.37, pipeline-contract §13.15), one case file
// (cases/record.json) on both metadata backends. A case is {"name", "as"?, "patch", "extra"?,
// "code", "details"?, "result"?, "result_absent"?}: "patch" is merged over the base arguments
// (or is "$seed_args" / "$seed_args_reversed", the seeded fact's own arguments); "$seed",
// "$olga_fact", "$olga_rule" and "$other_pipeline" stand for ids the fixture seeds. A refused
// record writes nothing.
#include <fstream>

#include "semantics_fixture.hpp"
#include "support/json_cases.hpp"

namespace dp::test {
namespace {

struct Case {
  Json spec;
  MetadataBackend backend;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.spec.value("name", "?") << " on " << BackendName(c.backend);
}

std::vector<Case> LoadCases() {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/integration/semantics/cases/record.json");
  std::vector<Case> cases;
  for (const Json& c : Json::parse(in)) {
    for (MetadataBackend backend : {MetadataBackend::kSqlite, MetadataBackend::kPostgres}) {
      cases.push_back({c, backend});
    }
  }
  return cases;
}

Json SeedArgs(bool reversed) {
  Json refs = Json::array(
      {{{"table", "weather"}, {"column", "unit"}}, {{"table", "weather"}, {"column", "temp_c"}}});
  if (reversed) std::swap(refs[0], refs[1]);
  return {{"scope", "DATASOURCE"},
          {"datasource", "lab"},
          {"kind", "unit"},
          {"fact", "temp_c is in the unit named by unit, never tenths"},
          {"refs", refs}};
}

class RecordCases : public SemanticsStack, public ::testing::WithParamInterface<Case> {
 protected:
  MetadataBackend Backend() const override { return GetParam().backend; }

  void SetUp() override {
    SemanticsStack::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ids_["$seed"] = ToolOk("alice", "semantics_record", SeedArgs(false))["id"];
    ids_["$olga_fact"] =
        ToolOk("olga", "semantics_record",
               {{"scope", "DATASOURCE"},
                {"datasource", "lab"},
                {"kind", "caveat"},
                {"fact", "ts is ISO-8601 text, not a timestamp"},
                {"refs", Json::array({{{"table", "weather"}, {"column", "ts"}}})}})["id"];
    ids_["$olga_rule"] = ToolOk("olga", "semantics_record",
                                {{"scope", "WORKSPACE"},
                                 {"datasource", "lab"},
                                 {"kind", "preference"},
                                 {"fact", "report temperatures rounded to whole degrees"}})["id"];
    ids_["$other_pipeline"] = SeedPipeline("other", "other/weather");
  }

  // Replaces every "$name" string the fixture seeded.
  Json Substitute(Json value) {
    if (value.is_string() && ids_.count(value.get<std::string>()))
      return ids_[value.get<std::string>()];
    if (value.is_object() || value.is_array()) {
      for (auto& member : value) member = Substitute(member);
    }
    return value;
  }

  // Every fact on `lab` alice's workspace can see, retired ones included.
  std::size_t CountAll() {
    ListFactsRequest all;
    all.datasource = "lab";
    all.include_retired = true;
    return semantics_->List(P("alice"), all)["count"].get<std::size_t>();
  }

  std::map<std::string, Json> ids_;
};

TEST_P(RecordCases, FollowsTheValidationOrder) {
  const Json& spec = GetParam().spec;
  Json args{{"scope", "DATASOURCE"},
            {"datasource", "lab"},
            {"kind", "unit"},
            {"fact", "value is in the unit named by unit"},
            {"refs", Json::array({{{"table", "weather"}, {"column", "unit"}}})}};
  const Json& patch = spec["patch"];
  if (patch == "$seed_args" || patch == "$seed_args_reversed") {
    args = SeedArgs(patch == "$seed_args_reversed");
  } else if (patch.is_object()) {
    args.merge_patch(Substitute(patch));
  }
  if (spec.contains("extra")) args.merge_patch(spec["extra"]);
  std::size_t before = CountAll();
  std::size_t audited = store_->Audit().ListAudit("semantics.recorded", 1000).size();

  ToolOutcome out = Tool(spec.value("as", "alice"), "semantics_record", args);

  ASSERT_EQ(out.Code(), spec["code"].get<std::string>()) << out.payload.dump();
  std::size_t after = CountAll();
  std::size_t audited_after = store_->Audit().ListAudit("semantics.recorded", 1000).size();
  if (out.Code() != "<none>") {
    EXPECT_EQ(after, before) << "a refused record wrote a fact";
    EXPECT_EQ(audited_after, audited);
    if (spec.contains("details")) {
      EXPECT_TRUE(ContainsMembers(out.Details(), Substitute(spec["details"])))
          << out.Details().dump();
    }
    return;
  }
  EXPECT_EQ(after, before + 1);
  EXPECT_EQ(audited_after, audited + 1);
  if (spec.contains("result")) {
    EXPECT_TRUE(ContainsMembers(out.payload, Substitute(spec["result"]))) << out.payload.dump();
  }
  for (const auto& key : spec.value("result_absent", Json::array())) {
    EXPECT_FALSE(out.payload.contains(key.get<std::string>())) << key << ": " << out.payload.dump();
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, RecordCases, ::testing::ValuesIn(LoadCases()),
                         [](const auto& info) {
                           return info.param.spec["name"].template get<std::string>() + "_" +
                                  BackendName(info.param.backend);
                         });

}  // namespace
}  // namespace dp::test
