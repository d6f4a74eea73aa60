# Differential test of the template engine against Apache FreeMarker 2.3.31: every golden case
# of tests/template_cases is rendered by the real FreeMarker (Debian libfreemarker-java, run on
# the JDK) and must match its expected.txt / expected_error.txt. The oracle is compiled with
# javac into the build dir when the test runs. Include after enable_testing().
find_program(DP_JAVA java)
find_program(DP_JAVAC javac)
set(DP_FREEMARKER_JAR /usr/share/java/freemarker.jar CACHE FILEPATH "Apache FreeMarker jar for the oracle")
if(DP_JAVA AND DP_JAVAC AND EXISTS ${DP_FREEMARKER_JAR})
  add_test(NAME integration.template_oracle
           COMMAND sh ${PROJECT_SOURCE_DIR}/tests/integration/template_oracle/run_oracle.sh
                   ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/freemarker-oracle)
  set_tests_properties(integration.template_oracle PROPERTIES
                       LABELS integration TIMEOUT 300
                       ENVIRONMENT FREEMARKER_JAR=${DP_FREEMARKER_JAR})
else()
  message(WARNING "java/javac or ${DP_FREEMARKER_JAR} missing: template_oracle test disabled")
endif()
