#pragma once
// The web UI's files compiled into the binary (cmake/ui_assets.cmake).
#include <span>

#include "datapipelines/util/embedded_file.hpp"

namespace dp {

// ui/templates/*.ftl: the page templates, rendered by the template engine in html mode.
std::span<const EmbeddedFile> EmbeddedUiTemplates();
// ui/static/*: the stylesheet and the UI's one script (no inline script anywhere).
std::span<const EmbeddedFile> EmbeddedUiStatic();
// htmx.min.js from the pinned, integrity-checked htmx.org npm package.
std::span<const EmbeddedFile> EmbeddedHtmx();

}  // namespace dp
