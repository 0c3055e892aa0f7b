#pragma once
// The predefined datatypes as mpisim --list-types prints them: text for a person,
// Markdown for docs/types.md.
#include <ostream>
#include <string>

namespace mpisim::cli {

// `format` is "text" or "markdown"; false for another.
bool print_types(std::ostream& out, const std::string& format);

}  // namespace mpisim::cli
