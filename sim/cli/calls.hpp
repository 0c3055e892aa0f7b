#pragma once
// The call table as mpisim --list-calls prints it: text for a person, Markdown
// for docs/calls.md, JSON (the names a scenario may use) for the schema.
#include <ostream>
#include <string>

namespace mpisim::cli {

// `format` is "text", "markdown" or "json"; false for another.
bool print_calls(std::ostream& out, const std::string& format);

}  // namespace mpisim::cli
