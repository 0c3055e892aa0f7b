#include "sim/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace mpisim::sim {

void JsonWriter::escape_into(std::string& out, std::string_view s) {
  out.push_back('"');
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  Level& l = stack_.back();
  if (!l.first) out_.push_back(',');
  l.first = false;
  if (static_cast<int>(stack_.size()) <= wrap_depth_) {
    out_.push_back('\n');
    out_.append(stack_.size(), ' ');
  }
}

void JsonWriter::open(char c) {
  before_value();
  out_.push_back(c);
  stack_.push_back(Level{});
}

void JsonWriter::close(char c) {
  bool wrapped = static_cast<int>(stack_.size()) <= wrap_depth_ && !stack_.back().first;
  stack_.pop_back();
  if (wrapped) {
    out_.push_back('\n');
    out_.append(stack_.size(), ' ');
  }
  out_.push_back(c);
  if (stack_.empty()) out_.push_back('\n');
}

JsonWriter& JsonWriter::begin_object() { open('{'); return *this; }
JsonWriter& JsonWriter::end_object() { close('}'); return *this; }
JsonWriter& JsonWriter::begin_array() { open('['); return *this; }
JsonWriter& JsonWriter::end_array() { close(']'); return *this; }

JsonWriter& JsonWriter::key(std::string_view k) {
  before_value();
  escape_into(out_, k);
  out_.push_back(':');
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  before_value();
  escape_into(out_, s);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t v) {
  before_value();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t v) {
  before_value();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::value(double v) {
  before_value();
  if (!std::isfinite(v)) {
    out_ += "null";
    return *this;
  }
  // Shortest round-trip form: identical on every machine with IEEE doubles.
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  before_value();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  before_value();
  out_.append(json);
  return *this;
}

}  // namespace mpisim::sim
