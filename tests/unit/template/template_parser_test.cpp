// Save-time behaviour of TemplateParser: syntax errors with positions, forbidden constructs
// found in the parse tree (never by text matching), the body cap and library validation.
#include <gtest/gtest.h>

#include <string>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/template/evaluation/template_renderer.hpp"
#include "datapipelines/template/syntax/template_parser.hpp"

namespace dp {
namespace {

DomainError ParseError(std::string_view body, const ParseOptions& options = {}) {
  try {
    TemplateParser::Parse(body, options);
  } catch (const DomainError& error) {
    return error;
  }
  ADD_FAILURE() << "expected a parse failure for: " << body;
  return DomainError(errc::kInternal, "no error");
}

TEST(TemplateParser, SyntaxErrorCarriesLineAndColumn) {
  DomainError error = ParseError("line one\nline two ${a +}\n");
  EXPECT_EQ(error.code(), errc::kTemplateSyntaxError);
  EXPECT_EQ(error.details()["line"], 2);
  EXPECT_GT(error.details()["column"].get<int>(), 9);
  EXPECT_NE(std::string(error.what()).find("line 2"), std::string::npos);
}

TEST(TemplateParser, UnclosedDirectiveIsSyntaxError) {
  DomainError error = ParseError("a\n<#if x>\nb");
  EXPECT_EQ(error.code(), errc::kTemplateSyntaxError);
  EXPECT_EQ(error.details()["line"], 3);
}

TEST(TemplateParser, ForbiddenBuiltInsAreRefusedWithTheirPosition) {
  for (const char* body : {"${x?eval}", "${x?interpret}", "${x?eval_json}", "${x?api}",
                           "${'Execute'?new()}", "${x?evalJson}"}) {
    DomainError error = ParseError(body);
    EXPECT_EQ(error.code(), errc::kTemplateDangerousConstruct) << body;
    EXPECT_EQ(error.details()["line"], 1) << body;
  }
}

TEST(TemplateParser, ForbiddenDirectivesAndSyntaxSwitchesAreRefused) {
  for (const char* body : {"<#include 'x'>", "<#import 'x' as y>", "<#ftl>", "[#ftl]",
                           "[#include 'y']", "a [=x] b", "[@m/]"}) {
    EXPECT_EQ(ParseError(body).code(), errc::kTemplateDangerousConstruct) << body;
  }
}

TEST(TemplateParser, PayloadHiddenBetweenCommentMarkersInLiteralsIsStillFound) {
  // A regex comment-stripper would delete the ?eval between "<#--" and "-->" literals.
  DomainError error = ParseError("<#assign a=\"<#--\">${x?eval}<#assign b=\"-->\">");
  EXPECT_EQ(error.code(), errc::kTemplateDangerousConstruct);
  EXPECT_EQ(error.details()["construct"], "?eval");
}

TEST(TemplateParser, ForbiddenWordsInsideDataAreNotConstructs) {
  EXPECT_NO_THROW(
      TemplateParser::Parse("SELECT '?eval' AS x, ${'<#include>'} ${'?api'} <#-- ?eval -->"));
}

TEST(TemplateParser, MiscasedBuiltInIsASyntaxError) {
  EXPECT_EQ(ParseError("${x?EVAL}").code(), errc::kTemplateSyntaxError);
}

TEST(TemplateParser, BodyOverTheCapIsRefusedBeforeParsing) {
  ParseOptions options;
  options.max_body_chars = 10;
  DomainError error = ParseError("0123456789A", options);
  EXPECT_EQ(error.code(), errc::kTemplateSyntaxError);
  EXPECT_EQ(error.details()["reason"], "body_too_long");
  EXPECT_NO_THROW(TemplateParser::Parse("0123456789", options));
}

TEST(TemplateParser, DeepNestingIsASyntaxErrorNotACrash) {
  std::string body = "${" + std::string(100000, '(') + "1" + std::string(100000, ')') + "}";
  EXPECT_EQ(ParseError(body).code(), errc::kTemplateSyntaxError);
  std::string ifs;
  for (int i = 0; i < 5000; ++i) ifs += "<#if true>";
  EXPECT_EQ(ParseError(ifs).code(), errc::kTemplateSyntaxError);
  // Left-deep chains are built iteratively but would be walked recursively.
  std::string chain = "${1";
  for (int i = 0; i < 100000; ++i) chain += "+1";
  EXPECT_EQ(ParseError(chain + "}").code(), errc::kTemplateSyntaxError);
  std::string dots = "${a";
  for (int i = 0; i < 100000; ++i) dots += ".b";
  EXPECT_EQ(ParseError(dots + "}").code(), errc::kTemplateSyntaxError);
}

TEST(TemplateParser, LibraryBodyMustHoldOnlyDefinitions) {
  ParseOptions library;
  library.library = true;
  EXPECT_NO_THROW(TemplateParser::Parse(
      "<#-- lib -->\n<#macro a>x</#macro>\n\n<#function f><#return 1></#function>\n", library));
  EXPECT_NO_THROW(TemplateParser::Parse("<#function f><#return 1></#function>", library));
  EXPECT_EQ(ParseError("text <#macro a>x</#macro>", library).code(),
            errc::kTemplateLibraryWithoutMacros);
  EXPECT_EQ(ParseError("<#macro a>x</#macro>${y}", library).code(),
            errc::kTemplateLibraryWithoutMacros);
  EXPECT_EQ(ParseError("<#-- only a comment -->", library).code(),
            errc::kTemplateLibraryWithoutMacros);
  EXPECT_TRUE(TemplateParser::Parse("<#macro a>x</#macro>").IsLibraryBody());
  EXPECT_FALSE(TemplateParser::Parse("SELECT 1").IsLibraryBody());
}

TEST(TemplateParser, ModeIsRecorded) {
  ParseOptions html;
  html.mode = TemplateMode::kHtml;
  EXPECT_EQ(TemplateParser::Parse("x", html).mode(), TemplateMode::kHtml);
  EXPECT_EQ(TemplateParser::Parse("x").mode(), TemplateMode::kSql);
}

}  // namespace
}  // namespace dp
