#include "sim/input_file.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <vector>

#include "sim/input_error.hpp"

namespace mpisim::sim {


std::string line_and_column(const std::string& text, std::size_t index) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < index && i < text.size(); ++i) {
    if (text[i] == '\n') ++line, col = 1;
    else ++col;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

std::string json_pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string read_input_file(const std::string& path, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(path, "cannot open " + what);
  if (!S_ISREG(st.st_mode))
    throw InputError(path, what + " must be a regular file, not a device, a pipe or a folder");
  if (st.st_size > kMaxInputBytes)
    throw InputError(path, what + " is " + std::to_string(st.st_size) + " bytes; mpisim reads at most " +
                               std::to_string(kMaxInputBytes >> 20) + " MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open " + what);
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  in.read(text.data(), st.st_size);
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

void check_json_shape(const std::string& text, const std::string& file) {
  // One frame per open array or object: its pointer, and for an object the keys
  // seen and whether the next string is a key; for an array the next index.
  struct Frame {
    bool object;
    std::string pointer;
    std::set<std::string> keys;
    bool expect_key = true;
    std::string last_key;
    std::size_t index = 0;
  };
  std::vector<Frame> stack;
  auto child_pointer = [&]() -> std::string {
    if (stack.empty()) return "";
    const Frame& f = stack.back();
    return f.pointer + "/" + (f.object ? json_pointer_token(f.last_key) : std::to_string(f.index));
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      // A string: read it whole (escapes included).
      std::string s;
      std::size_t j = i + 1;
      for (; j < text.size() && text[j] != '"'; ++j) {
        if (text[j] == '\\' && j + 1 < text.size()) ++j;
        s += text[j];
      }
      if (!stack.empty() && stack.back().object && stack.back().expect_key) {
        Frame& f = stack.back();
        if (!f.keys.insert(s).second)
          throw InputError(file, "the key \"" + s + "\" appears twice in the object at \"" +
                                     (f.pointer.empty() ? "/" : f.pointer) + "\" (" + line_and_column(text, i) +
                                     "); each key may be given once");
        f.last_key = s;
        f.expect_key = false;
      }
      i = j;
    } else if (c == '{' || c == '[') {
      if (stack.size() >= static_cast<std::size_t>(kMaxJsonDepth))
        throw InputError(file, "arrays and objects are nested more than " + std::to_string(kMaxJsonDepth) +
                                   " deep (" + line_and_column(text, i) + ")");
      Frame f{c == '{', child_pointer(), {}, true, {}, 0};
      stack.push_back(std::move(f));
    } else if (c == '}' || c == ']') {
      if (!stack.empty()) stack.pop_back();
    } else if (c == ',') {
      if (!stack.empty()) {
        Frame& f = stack.back();
        if (f.object) f.expect_key = true;
        else ++f.index;
      }
    }
  }
}

}  // namespace mpisim::sim
