#include <algorithm>
#include <cctype>
#include <memory>
#include <string>

#include "model/calls/rows.hpp"

namespace mpisim::calls {

using rows::K;
using rows::opt;
using rows::req;

namespace {
// Each blocking collective, its nonblocking form (MPI-4.1 §6.12: the same
// parameters and a request) and its persistent form (§6.13: the same, an info
// and a request).
struct CollectiveForms {
  CallId blocking, nonblocking, persistent;
};
constexpr CollectiveForms kForms[] = {
    {CallId::barrier, CallId::ibarrier, CallId::barrier_init},
    {CallId::bcast, CallId::ibcast, CallId::bcast_init},
    {CallId::gather, CallId::igather, CallId::gather_init},
    {CallId::gatherv, CallId::igatherv, CallId::gatherv_init},
    {CallId::scatter, CallId::iscatter, CallId::scatter_init},
    {CallId::scatterv, CallId::iscatterv, CallId::scatterv_init},
    {CallId::allgather, CallId::iallgather, CallId::allgather_init},
    {CallId::allgatherv, CallId::iallgatherv, CallId::allgatherv_init},
    {CallId::alltoall, CallId::ialltoall, CallId::alltoall_init},
    {CallId::alltoallv, CallId::ialltoallv, CallId::alltoallv_init},
    {CallId::alltoallw, CallId::ialltoallw, CallId::alltoallw_init},
    {CallId::reduce, CallId::ireduce, CallId::reduce_init},
    {CallId::allreduce, CallId::iallreduce, CallId::allreduce_init},
    {CallId::reduce_scatter_block, CallId::ireduce_scatter_block, CallId::reduce_scatter_block_init},
    {CallId::reduce_scatter, CallId::ireduce_scatter, CallId::reduce_scatter_init},
    {CallId::scan, CallId::iscan, CallId::scan_init},
    {CallId::exscan, CallId::iexscan, CallId::exscan_init},
    {CallId::neighbor_allgather, CallId::ineighbor_allgather, CallId::neighbor_allgather_init},
    {CallId::neighbor_allgatherv, CallId::ineighbor_allgatherv, CallId::neighbor_allgatherv_init},
    {CallId::neighbor_alltoall, CallId::ineighbor_alltoall, CallId::neighbor_alltoall_init},
    {CallId::neighbor_alltoallv, CallId::ineighbor_alltoallv, CallId::neighbor_alltoallv_init},
    {CallId::neighbor_alltoallw, CallId::ineighbor_alltoallw, CallId::neighbor_alltoallw_init},
};

// The rows of the blocking collectives, then one for each nonblocking form (named
// as the standard names it: MPI_Bcast, MPI_Ibcast) and one for each persistent
// form (MPI_Bcast_init).
std::vector<CallSpec> with_nonblocking(std::vector<CallSpec> rows) {
  static std::vector<std::unique_ptr<std::string>> texts;  // the new rows' names and summaries
  auto keep = [](std::string t) {
    texts.push_back(std::make_unique<std::string>(std::move(t)));
    return texts.back()->c_str();
  };
  const std::size_t n = rows.size();
  for (bool persistent : {false, true})
    for (const CollectiveForms& forms : kForms)
      for (std::size_t i = 0; i < n; ++i) {
        if (rows[i].id != forms.blocking) continue;
        CallSpec row = rows[i];
        const std::string name = row.name;
        const std::string definition = name + " (" + row.section + "): " + row.definition;
        if (persistent) {
          row.id = forms.persistent;
          row.name = keep(name + "_init");
          row.summary = keep("make a persistent request for " + name + ", started by MPI_Start: " + row.summary);
          row.section = "MPI-4.1 §6.13";
          row.definition = keep("make {request}, an inactive persistent request for " + name +
                                " with these arguments (checked now); each MPI_Start runs it anew, on the buffers' "
                                "contents then, until a wait or test completes it. " + definition);
          row.params.push_back({P::info, "info", K::integer, opt});
          row.c_params = keep(std::string(row.c_params) + ", MPI_Info info, MPI_Request *request");
          row.family = "persistent collectives";
        } else {
          row.id = forms.nonblocking;
          row.name = keep("MPI_I" + std::string(1, static_cast<char>(std::tolower(static_cast<unsigned char>(name[4])))) +
                          name.substr(5));
          row.summary = keep("start " + name + " and return at once: " + row.summary);
          row.section = "MPI-4.1 §6.12";
          row.definition = keep("start " + name + " and return {request} at once; the buffers are the operation's "
                                "until a wait or test completes it. " + definition);
          row.c_params = keep(std::string(row.c_params) + ", MPI_Request *request");
          row.family = "nonblocking collectives";
        }
        row.params.push_back({P::request, "request", K::request_out, req});
        rows.push_back(std::move(row));
      }
  return rows;
}
}  // namespace

std::optional<CallId> blocking_form(CallId id, bool* persistent) {
  for (const CollectiveForms& forms : kForms)
    if (forms.nonblocking == id || forms.persistent == id) {
      if (persistent) *persistent = forms.persistent == id;
      return forms.blocking;
    }
  return std::nullopt;
}

namespace {

// The constants an output parameter's value may stand for, by call and name.
Naming naming_of(CallId call, std::string_view param) {
  if (param == "errhandler") return Naming::errhandler;
  if (param == "errorclass" || (call == CallId::error_class && param == "errorcode")) return Naming::error_class;
  if ((call == CallId::comm_compare || call == CallId::group_compare) && param == "result") return Naming::comparison;
  if (call == CallId::topo_test && param == "status") return Naming::topology;
  if (param == "ranks2") return Naming::undefined_or_proc_null;
  if (param == "rank" || param == "count" || param == "index" || param == "outcount" || param == "array_of_indices" ||
      param == "newrank")
    return Naming::undefined;
  if (param == "rank_source" || param == "rank_dest" || param == "sources" || param == "destinations")
    return Naming::proc_null;
  return Naming::plain;
}

}  // namespace

// The MPI calls a scenario can make, with the standard's parameter names.
const std::vector<CallSpec>& call_specs() {
  static const std::vector<CallSpec> specs = [] {
    std::vector<CallSpec> all;
    const std::pair<const char*, std::vector<CallSpec> (*)()> families[] = {
        {"the environment and point-to-point", rows::point_to_point_rows},
        {"collectives", rows::collective_rows},
        {"groups and communicators", rows::group_rows},
        {"process topologies", rows::topology_rows},
        {"datatypes and operations", rows::datatype_rows},
        {"info objects", rows::info_rows},
        {"attributes", rows::attribute_rows},
        {"error handling", rows::error_rows}};
    for (const auto& [family, rows_of] : families)
      for (CallSpec& c : rows_of()) {
        c.family = family;
        all.push_back(std::move(c));
      }
    all = with_nonblocking(std::move(all));
    for (CallSpec& c : all)
      for (ParamSpec& p : c.params)
        if (p.kind == ParamKind::out_int || p.kind == ParamKind::array_out || p.kind == ParamKind::array_inout ||
            p.kind == ParamKind::int_inout) {
          p.naming = naming_of(c.id, p.name);
          c.names_outputs = c.names_outputs || p.naming != Naming::plain;
        }
    return all;
  }();
  return specs;
}

const char* param_name(P p) {
  static const char* const names[] = {
      "array_of_requests", "array_of_statuses", "buf", "comm", "count", "datatype", "dest", "displs",
      "flag", "index", "rank", "recvbuf", "recvcount", "recvtag", "recvtype", "request", "result", "root",
      "sendbuf", "sendcount", "sendcounts", "sendtag", "sendtype", "size", "source", "status", "tag",
      "group", "group1", "group2", "newgroup", "n", "ranks", "ranks1", "ranks2", "ranges",
      "newcomm", "color", "key", "comm1", "comm2", "local_comm", "local_leader", "peer_comm", "remote_leader",
      "newintercomm", "intercomm", "high", "newintracomm",
      "oldtype", "newtype", "blocklength", "stride", "array_of_blocklengths", "array_of_displacements",
      "array_of_types", "ndims", "array_of_sizes", "array_of_subsizes", "array_of_starts", "order", "lb", "extent",
      "true_lb", "true_extent", "displacement", "location", "address", "inbuf", "incount", "outbuf", "outsize",
      "position", "insize", "outcount", "user_fn", "commute", "op", "inoutbuf",
      "array_of_gsizes", "array_of_distribs", "array_of_dargs", "array_of_psizes", "num_integers", "num_addresses",
      "num_datatypes", "combiner", "max_integers", "max_addresses", "max_datatypes", "array_of_integers",
      "array_of_addresses", "array_of_datatypes", "buffer", "recvcounts", "sdispls", "rdispls", "sendtypes",
      "recvtypes", "array_of_indices", "info", "buffer_addr", "version", "subversion", "base", "disp", "addr1", "addr2", "split_type",
      "message", "dims", "periods", "reorder", "comm_cart", "coords", "maxdims", "direction", "rank_source", "rank_dest", "remain_dims", "nnodes", "edges", "comm_graph", "nneighbors", "maxneighbors", "neighbors", "nedges", "maxindex", "maxedges", "indegree", "outdegree", "sources", "sourceweights", "destinations", "destweights", "degrees", "weights", "comm_dist_graph", "weighted", "maxindegree", "maxoutdegree", "newrank", "comm_old", "errorcode",
      "errhandler", "errorclass", "string", "resultlen", "datarep", "comm_name", "type_name",
      "local_group", "remote_group", "stringtag", "argc", "argv", "required", "provided", "name", "comm_keyval",
      "attribute_val", "value", "valuelen", "buflen", "nkeys", "newinfo", "info_used",
      "comm_copy_attr_fn", "comm_delete_attr_fn", "extra_state", "type_copy_attr_fn", "type_delete_attr_fn",
      "type_keyval", "comm_errhandler_fn", "typeclass"};
  static_assert(std::size(names) == static_cast<std::size_t>(P::count_));
  return names[static_cast<std::size_t>(p)];
}

bool collective_row(const CallSpec& c) {
  const std::string_view f = c.family;
  return f == "collectives" || f == "nonblocking collectives" || f == "persistent collectives";
}

std::string large_count_params(std::string_view c_params) {
  std::string out;
  while (!c_params.empty()) {
    const std::size_t comma = c_params.find(", ");
    std::string_view one = c_params.substr(0, comma);
    c_params = comma == std::string_view::npos ? std::string_view{} : c_params.substr(comma + 2);
    const bool array = one.ends_with("[]");
    const std::string_view name = one.substr(one.rfind(' ') + 1);
    std::string decl(one);
    const auto retype = [&](std::string_view from, std::string_view to) {
      if (decl.starts_with(from)) decl = std::string(to) + decl.substr(from.size());
    };
    if (!array && name.ends_with("count")) retype("int ", "MPI_Count ");
    if (array && name.ends_with("counts[]")) retype("const int ", "const MPI_Count ");
    if (array && name.ends_with("displs[]")) retype("const int ", "const MPI_Aint ");
    out += (out.empty() ? "" : ", ") + decl;
  }
  return out;
}

const std::vector<CallAlias>& call_aliases() {
  // The MPI-1 names (the seed material uses them; MPICH's mpi.h still declares
  // them), the _x forms of MPI-3, which give MPI_Count results, and the
  // large-count forms of MPI-4 (MPI_Bcast_c): every count here is 64-bit already.
  static const std::vector<CallAlias> aliases = [] {
    std::vector<CallAlias> all = {
        {"MPI_Type_hvector", "MPI_Type_create_hvector",
         "int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype"},
        {"MPI_Type_hindexed", "MPI_Type_create_hindexed",
         "int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, "
         "MPI_Datatype *newtype"},
        {"MPI_Type_struct", "MPI_Type_create_struct",
         "int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], "
         "const MPI_Datatype array_of_types[], MPI_Datatype *newtype"},
        {"MPI_Address", "MPI_Get_address", "const void *location, MPI_Aint *address"},
        {"MPI_Attr_get", "MPI_Comm_get_attr", "MPI_Comm comm, int keyval, void *attribute_val, int *flag"},
        {"MPI_Attr_put", "MPI_Comm_set_attr", "MPI_Comm comm, int keyval, void *attribute_val"},
        {"MPI_Attr_delete", "MPI_Comm_delete_attr", "MPI_Comm comm, int keyval"},
        {"MPI_Keyval_create", "MPI_Comm_create_keyval",
         "MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state"},
        {"MPI_Keyval_free", "MPI_Comm_free_keyval", "int *keyval"},
        {"MPI_Errhandler_create", "MPI_Comm_create_errhandler",
         "MPI_Handler_function *function, MPI_Errhandler *errhandler"},
        {"MPI_Errhandler_set", "MPI_Comm_set_errhandler", "MPI_Comm comm, MPI_Errhandler errhandler"},
        {"MPI_Errhandler_get", "MPI_Comm_get_errhandler", "MPI_Comm comm, MPI_Errhandler *errhandler"},
        {"MPI_Type_size_x", "MPI_Type_size", "MPI_Datatype datatype, MPI_Count *size"},
        {"MPI_Type_get_extent_x", "MPI_Type_get_extent", "MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent"},
        {"MPI_Type_get_true_extent_x", "MPI_Type_get_true_extent",
         "MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent"},
        {"MPI_Get_elements_x", "MPI_Get_elements", "const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count"},
        {"MPI_Status_set_elements_x", "MPI_Status_set_elements",
         "MPI_Status *status, MPI_Datatype datatype, MPI_Count count"},
        {"MPI_Type_size_c", "MPI_Type_size", "MPI_Datatype datatype, MPI_Count *size"},
        {"MPI_Type_get_extent_c", "MPI_Type_get_extent", "MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent"},
        {"MPI_Type_get_true_extent_c", "MPI_Type_get_true_extent",
         "MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent"},
        {"MPI_Get_elements_c", "MPI_Get_elements", "const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count"},
        {"MPI_Get_count_c", "MPI_Get_count", "const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count"},
        {"MPI_Status_set_elements_c", "MPI_Status_set_elements",
         "MPI_Status *status, MPI_Datatype datatype, MPI_Count count"},
        {"MPI_Type_contiguous_c", "MPI_Type_contiguous", "MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype"},
        {"MPI_Type_vector_c", "MPI_Type_vector",
         "MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype"},
        {"MPI_Type_create_hvector_c", "MPI_Type_create_hvector",
         "MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype"},
        {"MPI_Type_indexed_c", "MPI_Type_indexed",
         "MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], "
         "MPI_Datatype oldtype, MPI_Datatype *newtype"},
        {"MPI_Type_create_hindexed_c", "MPI_Type_create_hindexed",
         "MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], "
         "MPI_Datatype oldtype, MPI_Datatype *newtype"},
        {"MPI_Type_create_indexed_block_c", "MPI_Type_create_indexed_block",
         "MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, "
         "MPI_Datatype *newtype"},
        {"MPI_Type_create_hindexed_block_c", "MPI_Type_create_hindexed_block",
         "MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, "
         "MPI_Datatype *newtype"},
        {"MPI_Type_create_struct_c", "MPI_Type_create_struct",
         "MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], "
         "const MPI_Datatype array_of_types[], MPI_Datatype *newtype"},
        {"MPI_Type_create_resized_c", "MPI_Type_create_resized",
         "MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype"},
        {"MPI_Reduce_local_c", "MPI_Reduce_local",
         "const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op"},
        {"MPI_Op_create_c", "MPI_Op_create", "MPI_User_function_c *user_fn, int commute, MPI_Op *op"}};
    // The large-count point-to-point calls: their rows' parameters, counts MPI_Count.
    for (const char* name : {"MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend", "MPI_Isend", "MPI_Issend", "MPI_Irsend",
                             "MPI_Ibsend", "MPI_Recv", "MPI_Irecv"})
      all.push_back({nullptr, name, nullptr});
    static std::vector<std::unique_ptr<std::string>> texts;  // the large-count forms' names and parameters
    const auto keep = [](std::string t) {
      texts.push_back(std::make_unique<std::string>(std::move(t)));
      return texts.back()->c_str();
    };
    for (CallAlias& a : all)
      if (a.name == nullptr) {
        const auto& s = call_specs();
        const auto row = std::find_if(s.begin(), s.end(), [&](const CallSpec& c) { return a.stands_for == std::string_view(c.name); });
        a.c_params = keep(large_count_params(row->c_params));
        a.name = keep(std::string(a.stands_for) + "_c");
      }
    for (const CallSpec& c : call_specs()) {
      if (!collective_row(c)) continue;
      std::string params = large_count_params(c.c_params);
      if (params == c.c_params) continue;
      all.push_back({keep(std::string(c.name) + "_c"), c.name, keep(std::move(params))});
    }
    return all;
  }();
  return aliases;
}

const CallSpec* find_call(std::string_view name) {
  for (const CallAlias& a : call_aliases())
    if (name == a.name) name = a.stands_for;
  const auto& s = call_specs();
  auto it = std::find_if(s.begin(), s.end(), [&](const CallSpec& c) { return name == c.name; });
  return it == s.end() ? nullptr : &*it;
}

bool c_declares(std::string_view name) {
  if (name.starts_with("PMPI_")) name.remove_prefix(1);  // the profiling names (MPI-4.1 §15.2)
  const auto& a = call_aliases();
  if (std::any_of(a.begin(), a.end(), [&](const CallAlias& x) { return name == x.name; })) return true;
  const auto& s = call_specs();
  return std::any_of(s.begin(), s.end(), [&](const CallSpec& c) { return name == c.name; });
}

}  // namespace mpisim::calls
