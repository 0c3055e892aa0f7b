#pragma once
// The rows of the call table, one file per family of calls; calls.cpp joins them
// (in this order) into call_specs(). Internal to model/calls.
#include <vector>

#include "model/calls/table.hpp"

namespace mpisim::calls::rows {

// The parameter kinds and requiredness, spelled short in the rows.
using K = ParamKind;
inline constexpr bool req = true;
inline constexpr bool opt = false;

std::vector<CallSpec> point_to_point_rows();
std::vector<CallSpec> collective_rows();
std::vector<CallSpec> group_rows();
std::vector<CallSpec> topology_rows();
std::vector<CallSpec> datatype_rows();
std::vector<CallSpec> info_rows();
std::vector<CallSpec> attribute_rows();
std::vector<CallSpec> error_rows();

}  // namespace mpisim::calls::rows
