#include "sim/cli/calls.hpp"

#include <cctype>

#include "model/calls/table.hpp"

namespace mpisim::cli {
namespace {

using calls::ParamKind;

// What a parameter of each kind takes in a scenario.
const char* kind_text(ParamKind k) {
  switch (k) {
    case ParamKind::integer: return "integer expression";
    case ParamKind::int_array: return "integer array (expression or JSON array)";
    case ParamKind::buffer: return "buffer: a name, name+offset, MPI_IN_PLACE or MPI_BOTTOM";
    case ParamKind::datatype: return "datatype";
    case ParamKind::comm: return "communicator";
    case ParamKind::comm_out: return "name for the new communicator";
    case ParamKind::comm_inout: return "communicator, set to MPI_COMM_NULL";
    case ParamKind::datatype_out: return "name for the new datatype";
    case ParamKind::datatype_inout: return "datatype, committed or set to MPI_DATATYPE_NULL";
    case ParamKind::type_array: return "JSON array of datatypes";
    case ParamKind::int_inout: return "name of an integer it reads and updates";
    case ParamKind::op_in: return "operation";
    case ParamKind::op_out: return "name for the new operation";
    case ParamKind::op_inout: return "operation, set to MPI_OP_NULL";
    case ParamKind::function_name: return "user function";
    case ParamKind::out_int: return "name for the integer result";
    case ParamKind::request_out: return "name for the request";
    case ParamKind::request_in: return "request";
    case ParamKind::request_array: return "JSON array of requests";
    case ParamKind::status_out: return "name for the status, or MPI_STATUS_IGNORE";
    case ParamKind::statuses_out: return "name for the statuses, or MPI_STATUSES_IGNORE";
    case ParamKind::status_in: return "status";
    case ParamKind::group_in: return "group, or MPI_GROUP_EMPTY";
    case ParamKind::group_out: return "name for the new group";
    case ParamKind::group_inout: return "group, set to MPI_GROUP_NULL";
    case ParamKind::array_out: return "name for the integer array result";
    case ParamKind::array_inout: return "name of an integer array it reads and updates";
    case ParamKind::ranges: return "(first, last, stride) triplets";
    case ParamKind::message_out: return "name for the matched message";
    case ParamKind::message_inout: return "matched message, set to MPI_MESSAGE_NULL";
    case ParamKind::text: return "JSON string";
    case ParamKind::pointer: return "address (C only)";
    case ParamKind::info_in: return "info object (C only)";
    case ParamKind::info_out: return "where the info object's handle goes (C only)";
  }
  return "?";
}

// The anchor a Markdown renderer gives the heading "## MPI_Send": its lower case.
std::string anchor(const char* name) {
  std::string a = name;
  for (char& ch : a) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return a;
}

std::string signature(const calls::CallSpec& c) {
  std::string s = std::string(c.name) + "(";
  for (std::size_t i = 0; i < c.params.size(); ++i) s += (i ? ", " : "") + std::string(c.params[i].name);
  return s + ")";
}

std::string c_prototype(const char* result, const char* name, const char* params) {
  return std::string(result) + " " + name + "(" + params + ")";
}

void markdown(std::ostream& out) {
  const auto& specs = calls::call_specs();
  out << "# The MPI calls\n\n"
         "Every call of mpisim's MPI library: its parameters (the standard's names), where the standard\n"
         "defines it, what it does and its C prototype. A C program (docs/c-programs.md) can make every\n"
         "one; a scenario every one not marked *C only*. `mpisim explain` prints the definition of each\n"
         "step with the values of its run. This page is printed by `mpisim --list-calls markdown` from\n"
         "the call table (model/calls), which mpi.h's prototypes are written from too; a test checks\n"
         "that the two agree.\n\n"
         "Other names: ";
  bool first = true;
  for (const calls::CallAlias& a : calls::call_aliases()) {
    out << (first ? "" : ", ") << "`" << a.name << "` (`" << a.stands_for << "`)";
    first = false;
  }
  out << ": the MPI-1 names MPI-2 replaced, the `MPI_Count` forms (`_x`) and the large-count forms (`_c`, MPI-4.1 §19.2: "
         "counts are `MPI_Count`, displacements `MPI_Aint`); each does what its call does.\n\n"
         "| call | standard | what it does |\n|---|---|---|\n";
  for (const auto& c : specs)
    out << "| [" << c.name << "](#" << anchor(c.name) << ") | " << c.section << " | " << c.summary
        << (c.c_only ? " (C only)" : "") << " |\n";
  for (const auto& c : specs) {
    out << "\n## " << c.name << "\n\n`" << signature(c) << "` — " << c.section << "\n\n" << c.definition << "\n\n"
        << "C: `" << c_prototype(c.c_result, c.name, c.c_params) << "`\n\n";
    if (c.c_only) out << "*C only*: " << c.c_only << ".\n\n";
    if (c.params.empty()) continue;
    out << "| parameter | takes | |\n|---|---|---|\n";
    for (const auto& p : c.params)
      out << "| " << p.name << " | " << kind_text(p.kind) << " | " << (p.required ? "required" : "optional") << " |\n";
  }
}

}  // namespace

bool print_calls(std::ostream& out, const std::string& format) {
  if (format == "text") {
    for (const auto& c : calls::call_specs())
      out << signature(c) << "  " << c.summary << " (" << c.section << ")" << (c.c_only ? " [C only]" : "") << "\n";
    for (const calls::CallAlias& a : calls::call_aliases())
      out << a.name << ": another name of " << a.stands_for << "\n";
    return true;
  }
  if (format == "markdown") {
    markdown(out);
    return true;
  }
  if (format == "json") {  // the names a scenario's "call" may take
    out << "[";
    bool first = true;
    for (const auto& c : calls::call_specs())
      if (!c.c_only) out << (first ? "" : ", ") << "\"" << c.name << "\"", first = false;
    for (const calls::CallAlias& a : calls::call_aliases())
      if (!calls::find_call(a.name)->c_only) out << ", \"" << a.name << "\"";
    out << "]\n";
    return true;
  }
  return false;
}

}  // namespace mpisim::cli
