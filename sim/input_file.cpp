#include "sim/input_file.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>
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
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      // A number: one a double cannot hold (1e400) is named here, with its place.
      std::size_t j = i;
      while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '-' ||
                                 text[j] == '+' || text[j] == '.' || text[j] == 'e' || text[j] == 'E'))
        ++j;
      const std::string number = text.substr(i, j - i);
      errno = 0;
      const double v = std::strtod(number.c_str(), nullptr);
      if (errno == ERANGE && std::isinf(v)) {
        const std::string at = child_pointer();
        throw InputError(file, "not valid JSON at " + line_and_column(text, i) + ": the number " +
                                   (number.size() > 40 ? number.substr(0, 40) + "..." : number) + " at " +
                                   (at.empty() ? "/" : escape_non_ascii(at)) +
                                   " is beyond the range of a double (about 1.8e308)");
      }
      i = j - 1;
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

namespace {

// The code point of the UTF-8 sequence at text[i] and its length, or -1 and 1 for
// a byte that does not start a valid sequence.
std::pair<std::int32_t, std::size_t> decode_utf8(std::string_view text, std::size_t i) {
  const auto b = static_cast<unsigned char>(text[i]);
  std::size_t n = b >= 0xF0 && b < 0xF8 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 && b < 0xE0 ? 2 : 0;
  if (n == 0 || i + n > text.size()) return {-1, 1};
  std::int32_t cp = b & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(text[i + k]);
    if ((c & 0xC0) != 0x80) return {-1, 1};
    cp = (cp << 6) | (c & 0x3F);
  }
  return {cp, n};
}

std::string hex(std::uint32_t v, int digits) {
  static const char* kDigits = "0123456789ABCDEF";
  std::string out(static_cast<std::size_t>(digits), '0');
  for (int k = digits - 1; k >= 0; --k, v >>= 4) out[static_cast<std::size_t>(k)] = kDigits[v & 0xF];
  return out;
}

}  // namespace

std::string escape_non_ascii(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7F) {
      out += text[i++];
      continue;
    }
    if (b < 0x80) {  // a control character
      out += "\\x" + hex(b, 2);
      ++i;
      continue;
    }
    const auto [cp, n] = decode_utf8(text, i);
    out += cp < 0 ? "\\x" + hex(b, 2) : "\\u" + hex(static_cast<std::uint32_t>(cp), cp > 0xFFFF ? 6 : 4);
    i += n;
  }
  return out;
}

std::string shown(std::string_view text) {
  std::string out = "\"" + escape_non_ascii(text) + "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7F) continue;
    const auto [cp, n] = b < 0x80 ? std::pair<std::int32_t, std::size_t>{b, 1} : decode_utf8(text, i);
    out += cp < 0 ? " (the byte 0x" + hex(b, 2) + " is not UTF-8)"
                  : " (U+" + hex(static_cast<std::uint32_t>(cp), cp > 0xFFFF ? 6 : 4) +
                        (b < 0x80 ? " is a control character)" : " is not an ASCII character)");
    break;
  }
  return out;
}

}  // namespace mpisim::sim
