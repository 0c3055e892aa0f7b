#pragma once
// Reading the files a user names (scenarios, networks) safely: only regular files,
// at most a documented size, and JSON whose nesting is bounded and whose objects
// have no key twice. Each refusal is an InputError (exit status 2) naming the file.
#include <cstdint>
#include <string>
#include <string_view>

namespace mpisim::sim {

// The largest input file mpisim reads (scenarios and networks are small).
inline constexpr std::int64_t kMaxInputBytes = std::int64_t{64} << 20;
// The deepest nesting of JSON arrays and objects an input may have.
inline constexpr int kMaxJsonDepth = 128;

// The contents of `path`; `what` names it in errors ("the scenario file").
std::string read_input_file(const std::string& path, const std::string& what);

// Checks JSON text before it is parsed: arrays and objects nested at most
// kMaxJsonDepth deep (a deeper input would exhaust the stack of a recursive
// reader), and no object with the same key twice (JSON leaves that undefined;
// mpisim refuses it rather than keep one). Throws InputError naming `file`, the
// line and column, and, for a duplicate key, the key and the JSON pointer of its
// object. Text that is not JSON passes: the parser reports it.
void check_json_shape(const std::string& text, const std::string& file);

// "line L, column C" of the character at `index` (0-based) of `text`.
std::string line_and_column(const std::string& text, std::size_t index);
// A key as a token of a JSON pointer (RFC 6901: '~' as "~0", '/' as "~1").
std::string json_pointer_token(const std::string& key);

// Text of the input as an error message shows it: ASCII as it is, every other
// character escaped (\u041E; a byte that is not UTF-8 as \xFF), so that a
// look-alike (a Cyrillic О in MPI_COMM_WORLD) cannot pass for the letter it mimics.
std::string escape_non_ascii(std::string_view text);
// `text` in double quotes, escaped as above, and when anything was escaped the
// first such character named: "MPI_C\u041EMM_WORLD" (U+041E is not an ASCII character).
std::string shown(std::string_view text);

}  // namespace mpisim::sim
