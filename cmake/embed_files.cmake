# dp_embed_files(TARGET t FUNCTION Name BASE dir FILES a b ...): compiles the files' bytes into
# target t as `std::span<const dp::EmbeddedFile> dp::Name()` (paths relative to BASE).
# Regenerated whenever a file changes, so the binary always serves the committed bytes.
function(dp_embed_files)
  cmake_parse_arguments(ARG "" "TARGET;FUNCTION;BASE" "FILES" ${ARGN})
  set(output ${CMAKE_CURRENT_BINARY_DIR}/generated/${ARG_FUNCTION}.cpp)
  string(REPLACE ";" "|" file_list "${ARG_FILES}")
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DFUNCTION=${ARG_FUNCTION} -DBASE=${ARG_BASE}
            "-DFILES=${file_list}" -P ${PROJECT_SOURCE_DIR}/cmake/embed_script.cmake
    DEPENDS ${ARG_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed_script.cmake
    COMMENT "Embedding ${ARG_FUNCTION}"
    VERBATIM)
  target_sources(${ARG_TARGET} PRIVATE ${output})
endfunction()
