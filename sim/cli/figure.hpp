#pragma once
// `mpisim figure`: one collective call of a run drawn as the standard draws
// collective data movement — a row per process, a cell per block of data, before
// and after the call — from the run's own buffers (docs/figures.md).
#include <string>
#include <vector>

namespace mpisim::cli {

// The figure as an SVG document: `rows` are Result::figure's objects (one per rank
// that made the call); `title` names the call and its step, `definition` says what
// it does.
std::string figure_svg(const std::string& title, const std::string& definition, const std::vector<std::string>& rows);

}  // namespace mpisim::cli
