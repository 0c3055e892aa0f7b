#pragma once
// A small streaming JSON writer: deterministic output, no DOM, no heavy header.
//
// Layout: containers nested up to `wrap_depth` put each element on its own line,
// deeper ones stay on one line, so a trace is both compact and diffable.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::sim {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out, int wrap_depth = 2) : out_(out), wrap_depth_(wrap_depth) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(std::int64_t v);
  JsonWriter& value(std::uint64_t v);
  JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
  JsonWriter& value(unsigned v) { return value(static_cast<std::uint64_t>(v)); }
  JsonWriter& value(double v);
  JsonWriter& value(bool v);
  JsonWriter& null();
  // Inserts already-serialized JSON as one value.
  JsonWriter& raw(std::string_view json);

  template <typename T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

  static void escape_into(std::string& out, std::string_view s);

 private:
  void before_value();
  void open(char c);
  void close(char c);

  struct Level {
    bool first = true;
  };
  std::string& out_;
  int wrap_depth_;
  std::vector<Level> stack_;
  bool after_key_ = false;
};

}  // namespace mpisim::sim
