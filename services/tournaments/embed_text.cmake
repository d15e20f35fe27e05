# gorank_embed_text(<out_cc> <namespace> <symbol> <input>)
# Writes <out_cc> defining `extern const char <symbol>[]` in <namespace>
# holding the text of <input>, so that shipped data (catalogues, rule tables)
# is part of the binary. CMake re-runs when <input> changes.
function(gorank_embed_text out_cc namespace symbol input)
  file(READ ${input} GORANK_EMBED_CONTENT)
  if(GORANK_EMBED_CONTENT MATCHES "\\)gorank_embed\"")
    message(FATAL_ERROR "${input} contains the raw-string delimiter")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${input})
  set(GORANK_EMBED_NAMESPACE ${namespace})
  set(GORANK_EMBED_SYMBOL ${symbol})
  file(CONFIGURE OUTPUT ${out_cc} CONTENT
"// Generated from ${input} by gorank_embed_text. Do not edit.
namespace @GORANK_EMBED_NAMESPACE@ {
extern const char @GORANK_EMBED_SYMBOL@[];
const char @GORANK_EMBED_SYMBOL@[] = R\"gorank_embed(@GORANK_EMBED_CONTENT@)gorank_embed\";
}  // namespace @GORANK_EMBED_NAMESPACE@
" @ONLY)
endfunction()
