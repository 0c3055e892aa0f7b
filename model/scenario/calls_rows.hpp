#pragma once
// The rows of the call table, one file per family of calls; calls.cpp joins them
// (in this order) into call_specs(). Internal to model/scenario.
#include <vector>

#include "model/scenario/scenario.hpp"

namespace mpisim::scenario::rows {

// The parameter kinds and requiredness, spelled short in the rows.
using K = ParamKind;
inline constexpr bool req = true;
inline constexpr bool opt = false;

std::vector<CallSpec> point_to_point_rows();
std::vector<CallSpec> collective_rows();
std::vector<CallSpec> group_rows();
std::vector<CallSpec> topology_rows();
std::vector<CallSpec> datatype_rows();

}  // namespace mpisim::scenario::rows
