// The C entry points of mpi.h: the environment, communicators and
// point-to-point (capi_types.cpp has the datatypes; the collectives are written from the call table, model/calls/c_binding.cpp). Each
// translates its C arguments (handles, host pointers) into a call of the MPI
// library and back. Nothing of the standard is checked here but what only the C
// binding has (a handle that names no object, a call before MPI_Init); the
// library checks the rest.
#include <limits>

#include "model/program/capi_support.hpp"

namespace mpisim::program::capi {

int outside_run(const char* name) {
  std::fprintf(stderr,
               "mpisim: %s was called outside the run (from the program's constructors or exit handlers, which run "
               "when mpisim loads and unloads it); it does nothing there\n",
               name);
  return MPI_ERR_OTHER;
}

void from_another_thread(const char* name) {
  std::fprintf(stderr,
               "mpisim: error: %s was called from a thread the program started; a rank of mpisim is one fiber and "
               "only its own thread may call MPI (MPI_Init_thread grants MPI_THREAD_SERIALIZED at most)\n",
               name);
  std::fflush(nullptr);
  std::_Exit(2);
}

int returned_error(ProgramRun& run, const char* name, const MpiError& e, bool to_handler) {
  CRank& c = run.current();
  sim::Diagnostic d;
  d.severity = "warning";
  d.code = mpi::error_class_name(e.error_class());
  d.process = run.current_rank();
  d.time = run.world().engine().now();
  d.call = name;
  d.argument = e.argument();
  const std::string where = source_line(c.site);
  d.message = std::string(to_handler ? "passed to the program's error handler, then returned: "
                                     : "returned to the program (MPI_ERRORS_RETURN): ") +
              e.what() +
              (where.empty() ? "" : " (" + where + ")");
  d.rule = e.rule();
  run.result().trace.record_diagnostic(std::move(d));
  return static_cast<int>(e.error_class());
}

}  // namespace mpisim::program::capi

using namespace mpisim;
using program::capi::call;
using program::capi::Ctx;
using program::capi::Param;
namespace capi = program::capi;
using mpi::Request;
using sim::SimTime;
namespace coll = mpisim::coll;

extern "C" {

// A program built by mpisim cc calls this instead of exit() (the linker's --wrap).
[[noreturn]] void __wrap_exit(int status) {  // NOLINT: the name --wrap=exit gives
  if (!program::g_run) {  // from an exit handler, after the run
    std::fflush(nullptr);
    std::_Exit(status);
  }
  program::g_run->end_rank(program::Ending::exited, status);
}

// ---- the environment
int MPI_Init(int* argc, char*** argv) {
  (void)argc, (void)argv;
  return call(__builtin_return_address(0), "MPI_Init", [](Ctx& x) {
    if (x.c.initialized)
      throw mpi::MpiError(mpi::ErrorClass::other, "", "MPI_Init was called twice",
                          "MPI-4.1 §11.2.1: MPI may be initialized once per process");
    x.c.initialized = true;
  });
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  (void)argc, (void)argv;
  return call(__builtin_return_address(0), "MPI_Init_thread", [&](Ctx& x) {
    if (x.c.initialized)
      throw mpi::MpiError(mpi::ErrorClass::other, "", "MPI_Init_thread was called after MPI was initialized",
                          "MPI-4.1 §11.2.1: MPI may be initialized once per process");
    capi::need(provided, "provided");
    // Each rank is one fiber: any level up to serialized holds; multiple is
    // granted as serialized, as an MPI without thread support does.
    *provided = std::min(required, MPI_THREAD_SERIALIZED);
    x.c.initialized = true;
  });
}

int MPI_Finalize(void) {
  return call(__builtin_return_address(0), "MPI_Finalize", [](Ctx& x) {
    // First the equivalent of freeing MPI_COMM_SELF: the delete callbacks of its
    // attributes, the last set first (MPI-4.1 §11.2.2), while MPI still works.
    x.c.handles.attributes().erase_all(mpi::AttrObject::comm, MPI_COMM_SELF);
    // Then MPI_COMM_WORLD's, as MPICH does (the standard leaves them).
    x.c.handles.attributes().erase_all(mpi::AttrObject::comm, MPI_COMM_WORLD);
    x.c.finalized = true;
  });
}

int MPI_Initialized(int* flag) {
  return call(__builtin_return_address(0), "MPI_Initialized", [&](Ctx& x) {
    capi::need(flag, "flag");
    *flag = x.c.initialized ? 1 : 0;
  });
}

int MPI_Finalized(int* flag) {
  return call(__builtin_return_address(0), "MPI_Finalized", [&](Ctx& x) {
    capi::need(flag, "flag");
    *flag = x.c.finalized ? 1 : 0;
  });
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  return call(__builtin_return_address(0), "MPI_Abort", [&](Ctx& x) {
    const char* name = comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : comm == MPI_COMM_SELF ? "MPI_COMM_SELF" : "comm";
    throw program::ProgramStop{x.r, errorcode, true,
                               "called MPI_Abort(" + std::string(name) + ", " + std::to_string(errorcode) + ")"};
  });
}

int MPI_Query_thread(int* provided) {
  return call(__builtin_return_address(0), "MPI_Query_thread", [&](Ctx&) {
    capi::need(provided, "provided");
    *provided = MPI_THREAD_SERIALIZED;
  });
}

int MPI_Is_thread_main(int* flag) {
  return call(__builtin_return_address(0), "MPI_Is_thread_main", [&](Ctx&) {
    capi::need(flag, "flag");
    *flag = 1;
  });
}

double MPI_Wtime(void) {
  if (!program::g_run) return 0.0;
  program::ProgramRun& run = *program::g_run;
  if (!run.on_its_thread() || !run.on_fiber()) return static_cast<double>(run.world().engine().now().ps) * 1e-12;
  program::CRank& c = run.current();
  if (run.host_compute()) {
    run.catch_up();  // the time the code took so far is the rank's now
  } else if (run.world().engine().now().ps == c.last_wtime_ps) {
    // A second reading with no time passed: a loop that waits for the clock to
    // advance (the program's code costs no time), which would never end. The
    // reading costs what a failed poll does, so time runs on.
    run.block(capi::compute(run.world().rank(run.current_rank()), capi::kPollCost));
  }
  c.last_wtime_ps = run.world().engine().now().ps;
  return static_cast<double>(c.last_wtime_ps) * 1e-12;
}
double MPI_Wtick(void) { return 1e-12; }

int MPI_Get_processor_name(char* name, int* resultlen) {
  return call(__builtin_return_address(0), "MPI_Get_processor_name", [&](Ctx& x) {
    capi::need(name, "name");
    capi::need(resultlen, "resultlen");
    const std::string n = "node" + std::to_string(x.run.world().node_of(x.r));
    std::memcpy(name, n.c_str(), n.size() + 1);
    *resultlen = static_cast<int>(n.size());
  });
}

int MPI_Get_version(int* version, int* subversion) {
  return call(__builtin_return_address(0), "MPI_Get_version", [&](Ctx&) {
    capi::need(version, "version");
    capi::need(subversion, "subversion");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
  });
}

int MPI_Error_class(int errorcode, int* errorclass) {
  return call(__builtin_return_address(0), "MPI_Error_class", [&](Ctx& x) {
    capi::need(errorclass, "errorclass");
    *errorclass = x.c.handles.error_codes().class_of(errorcode, "errorcode");
  });
}

int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  return call(__builtin_return_address(0), "MPI_Error_string", [&](Ctx& x) {
    capi::need(string, "string");
    capi::need(resultlen, "resultlen");
    const std::string s = x.c.handles.error_codes().string_of(errorcode, "errorcode");
    const std::size_t n = std::min<std::size_t>(s.size(), MPI_MAX_ERROR_STRING - 1);
    std::memcpy(string, s.data(), n);
    string[n] = '\0';
    *resultlen = static_cast<int>(n);
  });
}

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  return call(__builtin_return_address(0), "MPI_Comm_rank", [&](Ctx& x) {
    const auto& c = x.run.comm(comm, "comm");
    capi::need(rank, "rank");
    *rank = c.rank_of(x.r, x.r);
  });
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
  return call(__builtin_return_address(0), "MPI_Comm_size", [&](Ctx& x) {
    const auto& c = x.run.comm(comm, "comm");
    capi::need(size, "size");
    *size = static_cast<int>(c.size());
  });
}

// ---- communicators

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return call(__builtin_return_address(0), "MPI_Comm_dup", [&](Ctx& x) {
    capi::construct(x, comm, newcomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::dup(x.rk, c, seq, std::move(label));
    });
    // The new communicator has the hints of comm (MPI-4.1 §7.4.2) and the
    // attributes its keys' copy callbacks give it (§7.7.2).
    if (const mpi::Info* hints = x.c.handles.hints(comm)) x.c.handles.set_hints(*newcomm, *hints);
    x.returnable = true;  // the collective part is over: a callback's error is this process's own
    x.c.handles.attributes().copy(mpi::AttrObject::comm, comm, *newcomm);
  });
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Comm_idup", [&](Ctx& x) {
    capi::construct_nonblocking(x, comm, newcomm, request, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::dup(x.rk, c, seq, std::move(label));
    });
    // The hints and the attributes are copied at the call, as MPI_Comm_dup's
    // (MPI-4.1 §7.4.2, §7.7.2).
    if (const mpi::Info* hints = x.c.handles.hints(comm)) x.c.handles.set_hints(*newcomm, *hints);
    x.c.handles.attributes().copy(mpi::AttrObject::comm, comm, *newcomm);
  });
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return call(__builtin_return_address(0), "MPI_Comm_split", [&](Ctx& x) {
    capi::construct(x, comm, newcomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::split(x.rk, c, seq, color, key, std::move(label));
    });
  });
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  return call(__builtin_return_address(0), "MPI_Comm_split_type", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    mpi::Info* hints = info == MPI_INFO_NULL ? nullptr : &x.c.handles.info(info, "info");
    const mpi::World& w = x.run.world();
    const int color = mpi::split_type_color(split_type, hints, x.run.comm(comm, "comm"), x.r,
                                            [&](std::uint32_t r) { return w.node_of(r); })
                          .color;
    capi::construct(x, comm, newcomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::split(x.rk, c, seq, color, key, std::move(label));
    });
  });
}

int MPI_Comm_free(MPI_Comm* comm) {
  return call(__builtin_return_address(0), "MPI_Comm_free", [&](Ctx& x) {
    capi::need(comm, "comm");
    x.run.world().record_free(x.run.comm(*comm, "comm"), x.r);  // collective: every process must free it
    x.c.handles.attributes().erase_all(mpi::AttrObject::comm, *comm);  // the delete callbacks (§7.7.2)
    x.c.handles.free_comm(*comm);  // pending operations still complete
    *comm = MPI_COMM_NULL;
  });
}

int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  return call(__builtin_return_address(0), "MPI_Comm_compare", [&](Ctx& x) {
    capi::need(result, "result");
    *result = static_cast<int>(mpi::compare(x.run.comm(comm1, "comm1"), x.run.comm(comm2, "comm2"), x.r));
  });
}

int MPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  return call(__builtin_return_address(0), "MPI_Comm_test_inter", [&](Ctx& x) {
    capi::need(flag, "flag");
    *flag = x.run.comm(comm, "comm").is_inter() ? 1 : 0;
  });
}

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                         MPI_Comm* newintercomm) {
  return call(__builtin_return_address(0), "MPI_Intercomm_create", [&](Ctx& x) {
    capi::need(newintercomm, "newintercomm");
    const mpi::Communicator& local = x.run.comm(local_comm, "local_comm");
    // peer_comm and remote_leader are significant only at the local leader (MPI-4.1 §7.6.2).
    const mpi::Communicator* peer =
        local.rank_of(x.r, x.r) == local_leader ? &x.run.comm(peer_comm, "peer_comm") : nullptr;
    capi::construct(x, local_comm, newintercomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::intercomm_create(x.rk, c, seq, local_leader, peer, peer ? remote_leader : -1, tag,
                                          std::move(label));
    });
  });
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  return call(__builtin_return_address(0), "MPI_Intercomm_merge", [&](Ctx& x) {
    capi::construct(x, intercomm, newintracomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::intercomm_merge(x.rk, c, seq, high != 0, std::move(label));
    });
  });
}

int MPI_Comm_remote_size(MPI_Comm comm, int* size) {
  return call(__builtin_return_address(0), "MPI_Comm_remote_size", [&](Ctx& x) {
    capi::need(size, "size");
    *size = static_cast<int>(mpi::remote_group(x.run.comm(comm, "comm"))->size());
  });
}

}  // extern "C"

// ---- process topologies (MPI-4.1 §8): the grids and graphs are the library's
// (model/mpi/topology), carried by the communicators the constructors make.
namespace mpisim::program::capi {
namespace {
using Kind = mpi::Topology::Kind;
const mpi::Topology& need_topology(Ctx& x, MPI_Comm comm, Kind kind) {
  return mpi::topology_of(x.run.comm(comm, "comm"), kind, "comm");
}
const mpi::CartTopology& need_cart(Ctx& x, MPI_Comm comm) { return need_topology(x, comm, Kind::cart).cart; }
int my_rank(Ctx& x, MPI_Comm comm) { return x.run.comm(comm, "comm").rank_of(x.r, x.r); }
template <typename T>
std::vector<T> values(const int* a, int n, const char* argument) {
  if (n > 0) need(a, argument);
  std::vector<T> out;
  for (int i = 0; i < n; ++i) out.push_back(static_cast<T>(a[i]));
  return out;
}
void count_not_negative(int n, const char* argument, const char* section) {
  if (n < 0)
    throw mpi::MpiError(mpi::ErrorClass::arg, argument, std::string(argument) + " = " + std::to_string(n) + " is negative",
                        std::string("MPI-4.1 ") + section + ": " + argument + " is a number of entries");
}
// Copies up to `max` values into `out` (MPI_Graph_get, the neighbour queries).
void put_values(const std::vector<int>& v, int max, int* out, const char* argument) {
  const int n = std::min(max, static_cast<int>(v.size()));
  if (n > 0) need(out, argument);
  for (int i = 0; i < n; ++i) out[i] = v[static_cast<std::size_t>(i)];
}
bool unweighted(const int* w) { return w == MPI_UNWEIGHTED; }
// The weights of `n` edges: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY give 1 each.
std::vector<int> weights(const int* w, int n, const char* argument) {
  if (w == MPI_UNWEIGHTED || w == MPI_WEIGHTS_EMPTY || n == 0) return std::vector<int>(static_cast<std::size_t>(std::max(n, 0)), 1);
  return values<int>(w, n, argument);
}
}  // namespace
}  // namespace mpisim::program::capi

extern "C" {

int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  return call(__builtin_return_address(0), "MPI_Dims_create", [&](Ctx&) {
    if (ndims < 0)
      throw mpi::MpiError(mpi::ErrorClass::dims, "ndims", "ndims = " + std::to_string(ndims) + " is negative",
                          "MPI-4.1 §8.5.2: ndims is the number of dimensions");
    std::vector<int> d = capi::values<int>(dims, ndims, "dims");
    mpi::dims_create(nnodes, d);
    for (int i = 0; i < ndims; ++i) dims[i] = d[static_cast<std::size_t>(i)];
  });
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm* comm_cart) {
  (void)reorder;  // ranks keep their order: a choice the standard allows
  return call(__builtin_return_address(0), "MPI_Cart_create", [&](Ctx& x) {
    const std::vector<int> d = capi::values<int>(dims, ndims, "dims");
    const std::vector<bool> p = capi::values<bool>(periods, ndims, "periods");
    capi::construct(x, comm_old, comm_cart, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::cart_create(x.rk, c, seq, ndims, d, p, std::move(label));
    });
  });
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  return call(__builtin_return_address(0), "MPI_Cart_sub", [&](Ctx& x) {
    const auto n = static_cast<int>(capi::need_cart(x, comm).dims.size());
    const std::vector<bool> remain = capi::values<bool>(remain_dims, n, "remain_dims");
    capi::construct(x, comm, newcomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::cart_sub(x.rk, c, seq, remain, std::move(label));
    });
  });
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  return call(__builtin_return_address(0), "MPI_Cart_map", [&](Ctx& x) {
    capi::need(newrank, "newrank");
    *newrank = coll::comm::cart_map(x.rk, x.run.comm(comm, "comm"), ndims, capi::values<int>(dims, ndims, "dims"),
                                    capi::values<bool>(periods, ndims, "periods"));
  });
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm* comm_graph) {
  (void)reorder;  // ranks keep their order
  return call(__builtin_return_address(0), "MPI_Graph_create", [&](Ctx& x) {
    const std::vector<int> idx = capi::values<int>(index, nnodes, "index");
    const std::vector<int> e = capi::values<int>(edges, nnodes > 0 ? std::max(idx.back(), 0) : 0, "edges");
    capi::construct(x, comm_old, comm_graph, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::graph_create(x.rk, c, seq, nnodes, idx, e, std::move(label));
    });
  });
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  return call(__builtin_return_address(0), "MPI_Graph_map", [&](Ctx& x) {
    capi::need(newrank, "newrank");
    const std::vector<int> idx = capi::values<int>(index, nnodes, "index");
    *newrank = coll::comm::graph_map(x.rk, x.run.comm(comm, "comm"), nnodes, idx,
                                     capi::values<int>(edges, nnodes > 0 ? std::max(idx.back(), 0) : 0, "edges"));
  });
}

int MPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  return call(__builtin_return_address(0), "MPI_Graphdims_get", [&](Ctx& x) {
    const mpi::GraphTopology& g = capi::need_topology(x, comm, capi::Kind::graph).graph;
    capi::need(nnodes, "nnodes");
    capi::need(nedges, "nedges");
    *nnodes = g.nnodes();
    *nedges = static_cast<int>(g.edges.size());
  });
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  return call(__builtin_return_address(0), "MPI_Graph_get", [&](Ctx& x) {
    const mpi::GraphTopology& g = capi::need_topology(x, comm, capi::Kind::graph).graph;
    capi::put_values(g.index, maxindex, index, "index");
    capi::put_values(g.edges, maxedges, edges, "edges");
  });
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  return call(__builtin_return_address(0), "MPI_Graph_neighbors_count", [&](Ctx& x) {
    const mpi::GraphTopology& g = capi::need_topology(x, comm, capi::Kind::graph).graph;
    capi::need(nneighbors, "nneighbors");
    *nneighbors = static_cast<int>(g.neighbors(mpi::graph_node(g, rank)).size());
  });
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  return call(__builtin_return_address(0), "MPI_Graph_neighbors", [&](Ctx& x) {
    const mpi::GraphTopology& g = capi::need_topology(x, comm, capi::Kind::graph).graph;
    capi::put_values(g.neighbors(mpi::graph_node(g, rank)), maxneighbors, neighbors, "neighbors");
  });
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* comm_dist_graph) {
  (void)reorder;  // ranks keep their order
  return call(__builtin_return_address(0), "MPI_Dist_graph_create_adjacent", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::count_not_negative(indegree, "indegree", "§8.5.4");
    capi::count_not_negative(outdegree, "outdegree", "§8.5.4");
    const int me = capi::my_rank(x, comm_old);
    const std::vector<int> from = capi::values<int>(sources, indegree, "sources");
    const std::vector<int> to = capi::values<int>(destinations, outdegree, "destinations");
    const std::vector<int> sw = capi::weights(sourceweights, indegree, "sourceweights");
    const std::vector<int> dw = capi::weights(destweights, outdegree, "destweights");
    std::vector<int> edges;
    for (int i = 0; i < indegree; ++i) edges.insert(edges.end(), {from[static_cast<std::size_t>(i)], me, sw[static_cast<std::size_t>(i)]});
    for (int i = 0; i < outdegree; ++i) edges.insert(edges.end(), {me, to[static_cast<std::size_t>(i)], dw[static_cast<std::size_t>(i)]});
    const bool weighted = !capi::unweighted(sourceweights) || !capi::unweighted(destweights);
    capi::construct(x, comm_old, comm_dist_graph, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::dist_graph(x.rk, c, seq, true, std::move(edges), indegree, weighted, std::move(label));
    });
  });
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int reorder, MPI_Comm* comm_dist_graph) {
  (void)reorder;  // ranks keep their order
  return call(__builtin_return_address(0), "MPI_Dist_graph_create", [&](Ctx& x) {
    x.c.handles.check_info(info, "info");
    capi::count_not_negative(n, "n", "§8.5.4");
    const std::vector<int> from = capi::values<int>(sources, n, "sources");
    const std::vector<int> degree = capi::values<int>(degrees, n, "degrees");
    long long total = 0;
    for (int i = 0; i < n; ++i) {
      capi::count_not_negative(degree[static_cast<std::size_t>(i)], "degrees", "§8.5.4");
      total += degree[static_cast<std::size_t>(i)];
    }
    const int m = static_cast<int>(std::min<long long>(total, INT32_MAX));
    const std::vector<int> to = capi::values<int>(destinations, m, "destinations");
    const std::vector<int> w = capi::weights(weights, m, "weights");
    std::vector<int> edges;
    for (int i = 0, k = 0; i < n; ++i)
      for (int j = 0; j < degree[static_cast<std::size_t>(i)]; ++j, ++k)
        edges.insert(edges.end(), {from[static_cast<std::size_t>(i)], to[static_cast<std::size_t>(k)], w[static_cast<std::size_t>(k)]});
    const bool weighted = !capi::unweighted(weights);
    capi::construct(x, comm_old, comm_dist_graph, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::dist_graph(x.rk, c, seq, false, std::move(edges), 0, weighted, std::move(label));
    });
  });
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  return call(__builtin_return_address(0), "MPI_Dist_graph_neighbors_count", [&](Ctx& x) {
    const mpi::Topology& t = capi::need_topology(x, comm, capi::Kind::dist_graph);
    capi::need(indegree, "indegree");
    capi::need(outdegree, "outdegree");
    capi::need(weighted, "weighted");
    const mpi::Adjacency& a = t.nodes[static_cast<std::size_t>(capi::my_rank(x, comm))];
    *indegree = static_cast<int>(a.sources.size());
    *outdegree = static_cast<int>(a.destinations.size());
    *weighted = t.weighted ? 1 : 0;
  });
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                             int destinations[], int destweights[]) {
  return call(__builtin_return_address(0), "MPI_Dist_graph_neighbors", [&](Ctx& x) {
    const mpi::Topology& t = capi::need_topology(x, comm, capi::Kind::dist_graph);
    const mpi::Adjacency& a = t.nodes[static_cast<std::size_t>(capi::my_rank(x, comm))];
    capi::put_values(a.sources, maxindegree, sources, "sources");
    capi::put_values(a.destinations, maxoutdegree, destinations, "destinations");
    if (t.weighted && sourceweights != MPI_UNWEIGHTED) capi::put_values(a.sourceweights, maxindegree, sourceweights, "sourceweights");
    if (t.weighted && destweights != MPI_UNWEIGHTED) capi::put_values(a.destweights, maxoutdegree, destweights, "destweights");
  });
}

int MPI_Topo_test(MPI_Comm comm, int* status) {
  return call(__builtin_return_address(0), "MPI_Topo_test", [&](Ctx& x) {
    const mpi::Communicator& c = x.run.comm(comm, "comm");
    capi::need(status, "status");
    *status = c.topology() ? c.topology()->status() : MPI_UNDEFINED;
  });
}

int MPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  return call(__builtin_return_address(0), "MPI_Cartdim_get", [&](Ctx& x) {
    capi::need(ndims, "ndims");
    *ndims = static_cast<int>(capi::need_cart(x, comm).dims.size());
  });
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  return call(__builtin_return_address(0), "MPI_Cart_get", [&](Ctx& x) {
    const mpi::CartTopology& t = capi::need_cart(x, comm);
    const std::vector<int> c = t.coords(capi::my_rank(x, comm));
    const int n = std::min(maxdims, static_cast<int>(t.dims.size()));
    if (n > 0) capi::need(dims, "dims"), capi::need(periods, "periods"), capi::need(coords, "coords");
    for (int i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      dims[i] = t.dims[k], periods[i] = t.periods[k] ? 1 : 0, coords[i] = c[k];
    }
  });
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  return call(__builtin_return_address(0), "MPI_Cart_rank", [&](Ctx& x) {
    const mpi::CartTopology& t = capi::need_cart(x, comm);
    capi::need(rank, "rank");
    *rank = t.rank(capi::values<int>(coords, static_cast<int>(t.dims.size()), "coords"), "coords");
  });
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  return call(__builtin_return_address(0), "MPI_Cart_coords", [&](Ctx& x) {
    const mpi::CartTopology& t = capi::need_cart(x, comm);
    const std::vector<int> c = t.coords(rank);
    const int n = std::min(maxdims, static_cast<int>(c.size()));
    if (n > 0) capi::need(coords, "coords");
    for (int i = 0; i < n; ++i) coords[i] = c[static_cast<std::size_t>(i)];
  });
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  return call(__builtin_return_address(0), "MPI_Cart_shift", [&](Ctx& x) {
    const mpi::CartTopology& t = capi::need_cart(x, comm);
    capi::need(rank_source, "rank_source");
    capi::need(rank_dest, "rank_dest");
    t.shift(capi::my_rank(x, comm), direction, disp, rank_source, rank_dest);
  });
}

}  // extern "C"

// ---- names, attributes, the library's version
namespace mpisim::program::capi {
namespace {
void put_name(const std::string& name, char* out, int* resultlen) {
  need(out, "name");
  need(resultlen, "resultlen");
  const std::size_t n = std::min<std::size_t>(name.size(), MPI_MAX_OBJECT_NAME - 1);
  std::memcpy(out, name.data(), n);
  out[n] = '\0';
  *resultlen = static_cast<int>(n);
}
void set_name(CRank& c, int handle, const char* name) {
  need(name, "name");
  c.handles.set_name(handle, name);
}
}  // namespace
}  // namespace mpisim::program::capi

extern "C" {

int MPI_Comm_set_name(MPI_Comm comm, const char* comm_name) {
  return call(__builtin_return_address(0), "MPI_Comm_set_name", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    capi::set_name(x.c, comm, comm_name);
  });
}

int MPI_Comm_get_name(MPI_Comm comm, char* comm_name, int* resultlen) {
  return call(__builtin_return_address(0), "MPI_Comm_get_name", [&](Ctx& x) {
    if (comm == MPI_COMM_NULL) return capi::put_name("MPI_COMM_NULL", comm_name, resultlen);  // MPI-4.1 §7.8
    x.run.comm(comm, "comm");
    const std::string* n = x.c.handles.name(comm);
    capi::put_name(n ? *n : comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : comm == MPI_COMM_SELF ? "MPI_COMM_SELF" : "",
                   comm_name, resultlen);
  });
}

int MPI_Get_library_version(char* version, int* resultlen) {
  return call(__builtin_return_address(0), "MPI_Get_library_version", [&](Ctx&) {
    capi::need(version, "version");
    capi::need(resultlen, "resultlen");
    const std::string v = "mpisim (a simulator of MPI 4.1)";
    std::memcpy(version, v.c_str(), v.size() + 1);
    *resultlen = static_cast<int>(v.size());
  });
}

// The predefined attributes (MPI-4.1 §11.1.2), attached to MPI_COMM_WORLD and,
// as in MPICH, given on every communicator; attribute_val receives a pointer to
// the value, as MPI_Comm_get_attr gives it.
int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  return call(__builtin_return_address(0), "MPI_Comm_get_attr", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    capi::need(attribute_val, "attribute_val");
    capi::need(flag, "flag");
    if (mpi::Attributes::made(comm_keyval)) {  // a key the program made
      const auto v = x.c.handles.attributes().get(mpi::AttrObject::comm, comm, comm_keyval);
      if (v) *static_cast<void**>(attribute_val) = *v;
      *flag = v ? 1 : 0;
      return;
    }
    static int tag_ub = mpi::TAG_UB, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE, wtime_is_global = 1, appnum = 0;
    static int universe = 0;
    universe = static_cast<int>(x.run.world().size());
    int* value = nullptr;
    switch (comm_keyval) {
      case MPI_TAG_UB: value = &tag_ub; break;
      case MPI_HOST: value = &host; break;
      case MPI_IO: value = &io; break;
      case MPI_WTIME_IS_GLOBAL: value = &wtime_is_global; break;
      case MPI_UNIVERSE_SIZE: value = &universe; break;
      case MPI_APPNUM: value = &appnum; break;
      case MPI_LASTUSEDCODE: value = const_cast<int*>(x.c.handles.error_codes().last_used()); break;
      default:
        throw mpi::MpiError(mpi::ErrorClass::keyval, "comm_keyval",
                            comm_keyval == MPI_KEYVAL_INVALID
                                ? std::string("comm_keyval is MPI_KEYVAL_INVALID")
                                : capi::hex(comm_keyval) + " is neither a predefined attribute's key nor one the "
                                                           "program made",
                            "MPI-4.1 §7.7.2: comm_keyval is a key MPI_Comm_create_keyval made, or a predefined "
                            "attribute's (§9.1.2)");
    }
    *flag = 1;  // on every communicator, as MPICH gives them
    *static_cast<int**>(attribute_val) = value;
  });
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  return MPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}

int MPI_Test_cancelled(const MPI_Status* status, int* flag) {
  return call(__builtin_return_address(0), "MPI_Test_cancelled", [&](Ctx&) {
    capi::need(status, "status");
    capi::need(flag, "flag");
    *flag = status->count_hi_and_cancelled & 1;
  });
}

int MPI_Status_set_cancelled(MPI_Status* status, int flag) {
  return call(__builtin_return_address(0), "MPI_Status_set_cancelled", [&](Ctx&) {
    capi::need(status, "status");
    status->count_hi_and_cancelled = (status->count_hi_and_cancelled & ~1) | (flag ? 1 : 0);
  });
}

}  // extern "C"

namespace {
// MPI_Status_set_elements and _x: the status keeps its source, tag and
// cancellation; it reports the bytes of `count` basic elements of datatype.
int set_elements(const void* site, const char* name, MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return call(site, name, [&](Ctx& x) {
    capi::need(status, "status");
    auto t = capi::type_of(x.c, datatype, "datatype");
    const std::int64_t bytes = mpi::status_bytes_of_elements(count, *t);
    const bool cancelled = (status->count_hi_and_cancelled & 1) != 0;
    const int error = status->MPI_ERROR;
    capi::put_status(status, mpi::Status{status->MPI_SOURCE, status->MPI_TAG, mpi::ErrorClass::success, cancelled, bytes});
    status->MPI_ERROR = error;
  });
}
}  // namespace

extern "C" {

int MPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  return set_elements(__builtin_return_address(0), "MPI_Status_set_elements", status, datatype, count);
}
int MPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return set_elements(__builtin_return_address(0), "MPI_Status_set_elements_x", status, datatype, count);
}
int MPI_Status_set_elements_c(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return set_elements(__builtin_return_address(0), "MPI_Status_set_elements_c", status, datatype, count);
}

// ---- error handlers: MPI_ERRORS_ARE_FATAL (the default), MPI_ERRORS_ABORT, MPI_ERRORS_RETURN
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  return call(__builtin_return_address(0), "MPI_Comm_set_errhandler", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    x.c.handles.check_errhandler(errhandler, "errhandler");
    x.run.set_errhandler(comm, errhandler);
  });
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return call(__builtin_return_address(0), "MPI_Comm_get_errhandler", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    capi::need(errhandler, "errhandler");
    *errhandler = x.run.errhandler(comm);
    x.c.handles.add_errhandler_reference(*errhandler);  // a handle to free, as MPI-4.1 §9.3.1 says
  });
}

int MPI_Errhandler_free(MPI_Errhandler* errhandler) {
  return call(__builtin_return_address(0), "MPI_Errhandler_free", [&](Ctx& x) {
    capi::need(errhandler, "errhandler");
    x.c.handles.free_errhandler(*errhandler);  // the predefined handlers stay; communicators keep theirs
  });
}

// ---- point-to-point
int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Send", buf, count, datatype, dest, tag, comm, mpi::SendMode::standard, nullptr, false);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Ssend", buf, count, datatype, dest, tag, comm, mpi::SendMode::synchronous,
                               nullptr, false);
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Rsend", buf, count, datatype, dest, tag, comm, mpi::SendMode::ready, nullptr, false);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Isend", buf, count, datatype, dest, tag, comm, mpi::SendMode::standard, request, true);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Issend", buf, count, datatype, dest, tag, comm, mpi::SendMode::synchronous,
                               request, true);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Irsend", buf, count, datatype, dest, tag, comm, mpi::SendMode::ready, request, true);
}

}  // extern "C"

namespace {
// MPI_Recv and MPI_Irecv (`nonblocking`: the request is the caller's), in both their forms.
int receive(const void* site, const char* name, void* buf, std::int64_t count, MPI_Datatype datatype, int source,
            int tag, MPI_Comm comm, MPI_Status* status, MPI_Request* request, bool nonblocking) {
  return call(site, name, [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto t = capi::type_of(x.c, datatype, "datatype");
    if (nonblocking) {
      capi::need(request, "request");
      *request = capi::add_request(x.c, x.rk.irecv_held(capi::typed(x, buf, count, t), t, source, tag, cm));
      return;
    }
    Request* r = x.rk.irecv(capi::typed(x, buf, count, t), t, source, tag, cm);
    mpi::Status st;
    x.run.block(capi::wait_one(x.rk, r, &st));
    capi::put_status(status, st);
  });
}
}  // namespace

extern "C" {

int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return receive(__builtin_return_address(0), "MPI_Recv", buf, count, datatype, source, tag, comm, status, nullptr, false);
}
int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return receive(__builtin_return_address(0), "MPI_Irecv", buf, count, datatype, source, tag, comm, nullptr,
                 request, true);
}

// ---- the large-count forms (MPI-4.1 §19.2): counts are MPI_Count
int MPI_Send_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Send_c", buf, count, datatype, dest, tag, comm,
                            mpi::SendMode::standard, nullptr, false);
}
int MPI_Ssend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Ssend_c", buf, count, datatype, dest, tag, comm,
                            mpi::SendMode::synchronous, nullptr, false);
}
int MPI_Rsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Rsend_c", buf, count, datatype, dest, tag, comm,
                            mpi::SendMode::ready, nullptr, false);
}
int MPI_Bsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Bsend_c", buf, count, datatype, dest, tag, comm,
                            mpi::SendMode::buffered, nullptr, false);
}
int MPI_Isend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Isend_c", buf, count, datatype, dest, tag, comm,
                            mpi::SendMode::standard, request, true);
}
int MPI_Issend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Issend_c", buf, count, datatype, dest, tag, comm,
                            mpi::SendMode::synchronous, request, true);
}
int MPI_Irsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Irsend_c", buf, count, datatype, dest, tag, comm,
                            mpi::SendMode::ready, request, true);
}
int MPI_Ibsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Ibsend_c", buf, count, datatype, dest, tag, comm,
                            mpi::SendMode::buffered, request, true);
}
int MPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Status* status) {
  return receive(__builtin_return_address(0), "MPI_Recv_c", buf, count, datatype, source, tag, comm, status, nullptr, false);
}
int MPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return receive(__builtin_return_address(0), "MPI_Irecv_c", buf, count, datatype, source, tag, comm, nullptr,
                 request, true);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Sendrecv", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto st_t = capi::type_of(x.c, sendtype, "sendtype");
    auto rt_t = capi::type_of(x.c, recvtype, "recvtype");
    auto [recv, send] = x.rk.isendrecv(capi::typed(x, sendbuf, sendcount, st_t), st_t, dest, sendtag,
                                       capi::typed(x, recvbuf, recvcount, rt_t), rt_t, source, recvtag, cm);
    mpi::Status st;
    x.run.block(capi::wait_two(x.rk, recv, send, &st));
    capi::put_status(status, st);
  });
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                         int recvtag, MPI_Comm comm, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Sendrecv_replace", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto t = capi::type_of(x.c, datatype, "datatype");
    mpi::Status st;
    auto task = x.rk.sendrecv_replace(capi::typed(x, buf, count, t), t, dest, sendtag, source, recvtag, cm);
    x.run.block(capi::status_of(std::move(task), &st));
    capi::put_status(status, st);
  });
}

int MPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Isendrecv", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto st_t = capi::type_of(x.c, sendtype, "sendtype");
    auto rt_t = capi::type_of(x.c, recvtype, "recvtype");
    capi::need(request, "request");
    const auto sb = capi::typed(x, sendbuf, sendcount, st_t);
    const auto rb = capi::typed(x, recvbuf, recvcount, rt_t);
    *request = capi::add_request(
        x.c, x.rk.isendrecv_request(sb, std::move(st_t), dest, sendtag, rb, std::move(rt_t), source, recvtag, cm));
  });
}

int MPI_Isendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                          int recvtag, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Isendrecv_replace", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto t = capi::type_of(x.c, datatype, "datatype");
    capi::need(request, "request");
    const auto b = capi::typed(x, buf, count, t);
    *request = capi::add_request(x.c, x.rk.isendrecv_replace_request(b, std::move(t), dest, sendtag, source, recvtag, cm));
  });
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Wait", [&](Ctx& x) {
    capi::need(request, "request");
    Request* r = std::exchange(capi::request_of(x.c, *request, "request"), nullptr);
    capi::completed(x.c, *request);
    mpi::Status st;
    x.run.block(capi::wait_one(x.rk, r, &st));
    capi::put_status(status, st);
  });
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  return call(__builtin_return_address(0), "MPI_Waitall", [&](Ctx& x) {
    if (count < 0)
      throw mpi::MpiError(mpi::ErrorClass::count, "count", "count = " + std::to_string(count) + " is negative",
                          "MPI-4.1 §3.7.5: count is the number of requests");
    if (count > 0) capi::need(array_of_requests, "array_of_requests");
    auto& reqs = x.c.scratch_requests;
    auto& sts = x.c.scratch_statuses;
    reqs.assign(static_cast<std::size_t>(count), nullptr);
    sts.assign(static_cast<std::size_t>(count), mpi::Status{});
    for (int i = 0; i < count; ++i)
      reqs[static_cast<std::size_t>(i)] = capi::request_of(x.c, array_of_requests[i], "array_of_requests");
    for (int i = 0; i < count; ++i) capi::release(x.c, array_of_requests[i]);
    try {
      x.run.block(capi::wait_all(x.rk, reqs, sts));
    } catch (const mpi::MpiError& e) {
      capi::failed_in_status(e, array_of_statuses, sts);
    }
    if (array_of_statuses != MPI_STATUSES_IGNORE && array_of_statuses != nullptr)
      for (int i = 0; i < count; ++i)
        capi::put_status(&array_of_statuses[i], sts[static_cast<std::size_t>(i)], true);
  });
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int* index, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Waitany", [&](Ctx& x) {
    capi::need(index, "index");
    auto& reqs = capi::gather(x.c, count, array_of_requests);
    mpi::Status st;
    try {
      x.run.block(capi::wait_any(x.rk, reqs, &st, index));
    } catch (...) {
      capi::released_on_error(x.c, reqs, array_of_requests);
      throw;
    }
    if (*index != MPI_UNDEFINED) capi::release(x.c, array_of_requests[*index]);
    capi::put_status(status, st);
  });
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Test", [&](Ctx& x) {
    capi::need(request, "request");
    capi::need(flag, "flag");
    Request*& slot = capi::request_of(x.c, *request, "request");
    mpi::Status st;
    bool done = false;
    try {
      done = x.rk.test(slot, &st);
    } catch (...) {  // completed with an error: released, as on success
      capi::completed(x.c, *request);
      throw;
    }
    *flag = done ? 1 : 0;
    if (!done) return capi::poll_failed(x);
    capi::completed(x.c, *request);
    capi::put_status(status, st);
  });
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int* flag, MPI_Status array_of_statuses[]) {
  return call(__builtin_return_address(0), "MPI_Testall", [&](Ctx& x) {
    capi::need(flag, "flag");
    auto& reqs = capi::gather(x.c, count, array_of_requests);
    auto& sts = x.c.scratch_statuses;
    sts.assign(reqs.size(), mpi::Status{});
    bool done = false;
    try {
      done = x.rk.test_all(reqs, sts);
    } catch (const mpi::MpiError& e) {
      capi::released_on_error(x.c, reqs, array_of_requests);
      *flag = 1;
      capi::failed_in_status(e, array_of_statuses, sts);
    }
    *flag = done ? 1 : 0;
    if (!done) return capi::poll_failed(x);
    for (int i = 0; i < count; ++i) {
      capi::release(x.c, array_of_requests[i]);
      if (array_of_statuses != MPI_STATUSES_IGNORE && array_of_statuses != nullptr)
        capi::put_status(&array_of_statuses[i], sts[static_cast<std::size_t>(i)], true);
    }
  });
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Bsend", buf, count, datatype, dest, tag, comm,
                            mpi::SendMode::buffered, nullptr, false);
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return capi::send_in_mode(__builtin_return_address(0), "MPI_Ibsend", buf, count, datatype, dest, tag, comm,
                            mpi::SendMode::buffered, request, true);
}

int MPI_Buffer_attach(void* buffer, int size) {
  return call(__builtin_return_address(0), "MPI_Buffer_attach",
              [&](Ctx& x) { x.rk.buffer_attach(capi::address(buffer), size); });
}

int MPI_Buffer_detach(void* buffer_addr, int* size) {
  return call(__builtin_return_address(0), "MPI_Buffer_detach", [&](Ctx& x) {
    capi::need(buffer_addr, "buffer_addr");
    capi::need(size, "size");
    const auto [at, bytes] = x.rk.buffer_detach();
    // buffer_addr is a void** in disguise (MPI-4.1 §3.6.1)
    *static_cast<void**>(buffer_addr) = reinterpret_cast<void*>(static_cast<std::intptr_t>(at));
    *size = static_cast<int>(bytes);
  });
}

int MPI_Testany(int count, MPI_Request array_of_requests[], int* index, int* flag, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Testany", [&](Ctx& x) {
    capi::need(index, "index");
    capi::need(flag, "flag");
    auto& reqs = capi::gather(x.c, count, array_of_requests);
    mpi::Status st;
    int i = MPI_UNDEFINED;
    bool done = false;
    try {
      done = x.rk.test_any(reqs, &i, &st);
    } catch (...) {
      capi::released_on_error(x.c, reqs, array_of_requests);
      throw;
    }
    *index = i;
    *flag = done ? 1 : 0;
    if (!done) return capi::poll_failed(x);
    if (i != MPI_UNDEFINED) capi::release(x.c, array_of_requests[i]);
    capi::put_status(status, st);
  });
}

int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int* outcount, int array_of_indices[],
                 MPI_Status array_of_statuses[]) {
  return call(__builtin_return_address(0), "MPI_Waitsome", [&](Ctx& x) {
    capi::need(outcount, "outcount");
    auto& reqs = capi::gather(x.c, incount, array_of_requests);
    std::vector<int>& indices = x.c.scratch_indices;
    indices.clear();
    x.c.scratch_statuses.clear();
    int n = 0;
    try {
      x.run.block(capi::wait_some(x.rk, reqs, &indices, &x.c.scratch_statuses, &n));
    } catch (const mpi::MpiError& e) {
      capi::released_on_error(x.c, reqs, array_of_requests);
      capi::some_failed(x.c, e, outcount, array_of_indices, array_of_statuses);
    }
    capi::some_done(x.c, n, indices, array_of_requests, outcount, array_of_indices, array_of_statuses);
  });
}

int MPI_Testsome(int incount, MPI_Request array_of_requests[], int* outcount, int array_of_indices[],
                 MPI_Status array_of_statuses[]) {
  return call(__builtin_return_address(0), "MPI_Testsome", [&](Ctx& x) {
    capi::need(outcount, "outcount");
    auto& reqs = capi::gather(x.c, incount, array_of_requests);
    std::vector<int>& indices = x.c.scratch_indices;
    indices.clear();
    x.c.scratch_statuses.clear();
    int n = 0;
    try {
      n = x.rk.test_some(reqs, &indices, &x.c.scratch_statuses);
    } catch (const mpi::MpiError& e) {
      capi::released_on_error(x.c, reqs, array_of_requests);
      capi::some_failed(x.c, e, outcount, array_of_indices, array_of_statuses);
    }
    capi::some_done(x.c, n, indices, array_of_requests, outcount, array_of_indices, array_of_statuses);
    if (n == 0) capi::poll_failed(x);
  });
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Request_get_status", [&](Ctx& x) {
    capi::need(flag, "flag");
    const Request* r = capi::request_of(x.c, request, "request");
    mpi::Status st;
    const bool done = x.rk.request_get_status(r, &st);
    *flag = done ? 1 : 0;
    if (!done) return capi::poll_failed(x);
    capi::put_status(status, st);
  });
}

int MPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int* index, int* flag,
                               MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Request_get_status_any", [&](Ctx& x) {
    capi::need(index, "index");
    capi::need(flag, "flag");
    const auto& reqs = capi::gather(x.c, count, array_of_requests);
    mpi::Status st;
    const bool done = x.rk.request_get_status_any(reqs, index, &st);
    *flag = done ? 1 : 0;
    if (!done) return capi::poll_failed(x);
    capi::put_status(status, st);
  });
}

int MPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int* flag,
                               MPI_Status array_of_statuses[]) {
  return call(__builtin_return_address(0), "MPI_Request_get_status_all", [&](Ctx& x) {
    capi::need(flag, "flag");
    const auto& reqs = capi::gather(x.c, count, array_of_requests);
    std::vector<mpi::Status>& sts = x.c.scratch_statuses;
    sts.assign(reqs.size(), mpi::Status{});
    const bool done = x.rk.request_get_status_all(reqs, sts);
    *flag = done ? 1 : 0;
    if (!done) return capi::poll_failed(x);
    if (array_of_statuses != MPI_STATUSES_IGNORE && array_of_statuses != nullptr)
      for (std::size_t i = 0; i < sts.size(); ++i) capi::put_status(&array_of_statuses[i], sts[i], true);
  });
}

int MPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int* outcount,
                                int array_of_indices[], MPI_Status array_of_statuses[]) {
  return call(__builtin_return_address(0), "MPI_Request_get_status_some", [&](Ctx& x) {
    capi::need(outcount, "outcount");
    const auto& reqs = capi::gather(x.c, incount, array_of_requests);
    std::vector<int>& indices = x.c.scratch_indices;
    const int n = x.rk.request_get_status_some(reqs, &indices, &x.c.scratch_statuses);
    *outcount = n;
    if (n == MPI_UNDEFINED) return;
    if (n == 0) return capi::poll_failed(x);
    capi::need(array_of_indices, "array_of_indices");
    for (int k = 0; k < n; ++k) {
      array_of_indices[k] = indices[static_cast<std::size_t>(k)];
      if (array_of_statuses != MPI_STATUSES_IGNORE && array_of_statuses != nullptr)
        capi::put_status(&array_of_statuses[k], x.c.scratch_statuses[static_cast<std::size_t>(k)], true);
    }
  });
}

int MPI_Request_free(MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Request_free", [&](Ctx& x) {
    capi::need(request, "request");
    Request*& r = capi::request_of(x.c, *request, "request");
    if (const coll::Persistent* p = x.c.handles.persistent_of(*request)) {
      coll::check_free(*p, r != nullptr, "request " + capi::hex(*request));
      if (r) x.rk.free_request(r);
      x.c.handles.free_persistent(*request);
    } else {
      x.rk.free_request(r);
    }
    *request = MPI_REQUEST_NULL;
  });
}

int MPI_Cancel(MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Cancel", [&](Ctx& x) {
    capi::need(request, "request");
    Request* r = capi::request_of(x.c, *request, "request");
    if (const coll::Persistent* p = x.c.handles.persistent_of(*request))
      coll::check_cancel(*p, r != nullptr, "request " + capi::hex(*request));
    x.rk.cancel(r);
  });
}

int MPI_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  return capi::p2p_init(__builtin_return_address(0), "MPI_Send_init", true, mpi::SendMode::standard, buf, count,
                        datatype, dest, tag, comm, request);
}
int MPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return capi::p2p_init(__builtin_return_address(0), "MPI_Ssend_init", true, mpi::SendMode::synchronous, buf, count,
                        datatype, dest, tag, comm, request);
}
int MPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return capi::p2p_init(__builtin_return_address(0), "MPI_Bsend_init", true, mpi::SendMode::buffered, buf, count,
                        datatype, dest, tag, comm, request);
}
int MPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return capi::p2p_init(__builtin_return_address(0), "MPI_Rsend_init", true, mpi::SendMode::ready, buf, count,
                        datatype, dest, tag, comm, request);
}
int MPI_Recv_init(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  return capi::p2p_init(__builtin_return_address(0), "MPI_Recv_init", false, mpi::SendMode::standard, buf, count,
                        datatype, source, tag, comm, request);
}

int MPI_Start(MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Start", [&](Ctx& x) {
    capi::need(request, "request");
    capi::start(x, *request, "request");
  });
}

int MPI_Startall(int count, MPI_Request array_of_requests[]) {
  return call(__builtin_return_address(0), "MPI_Startall", [&](Ctx& x) {
    if (count > 0) capi::need(array_of_requests, "array_of_requests");
    for (int i = 0; i < count; ++i) capi::start(x, array_of_requests[i], "array_of_requests");  // in order (§3.9)
  });
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Probe", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    mpi::Status st;
    x.run.block(capi::probe(x.rk, source, tag, cm, &st));
    capi::put_status(status, st);
  });
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Iprobe", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    capi::need(flag, "flag");
    auto st = x.rk.iprobe(source, tag, cm);
    *flag = st ? 1 : 0;
    if (!st) return capi::poll_failed(x);
    capi::put_status(status, *st);
  });
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Mprobe", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    capi::need(message, "message");
    mpi::Status st;
    mpi::MatchedMessage m;
    x.run.block(capi::mprobe(x.rk, source, tag, cm, &st, &m));
    *message = capi::add_message(x.c, m);
    capi::put_status(status, st);
  });
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Improbe", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    capi::need(flag, "flag");
    capi::need(message, "message");
    mpi::MatchedMessage m;
    auto st = x.rk.improbe(source, tag, cm, &m);
    *flag = st ? 1 : 0;
    if (!st) return capi::poll_failed(x);
    *message = capi::add_message(x.c, m);
    capi::put_status(status, *st);
  });
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Mrecv", [&](Ctx& x) {
    capi::need(message, "message");
    auto t = capi::type_of(x.c, datatype, "datatype");
    mpi::MatchedMessage& m = capi::message_of(x.c, *message);
    Request* r = x.rk.imrecv(capi::typed(x, buf, count, t), t, m, false);
    *message = MPI_MESSAGE_NULL;
    mpi::Status st;
    x.run.block(capi::wait_one(x.rk, r, &st));
    capi::put_status(status, st);
  });
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Imrecv", [&](Ctx& x) {
    capi::need(message, "message");
    capi::need(request, "request");
    auto t = capi::type_of(x.c, datatype, "datatype");
    mpi::MatchedMessage& m = capi::message_of(x.c, *message);
    Request* r = x.rk.imrecv(capi::typed(x, buf, count, t), t, m, true);
    *message = MPI_MESSAGE_NULL;
    *request = capi::add_request(x.c, r);
  });
}

}  // extern "C"

namespace {
// MPI_Get_count and MPI_Get_count_c: the count, or MPI_UNDEFINED when it is too
// large for the result (MPI-4.1 §3.2.5).
template <typename Count>
int get_count(const void* site, const char* name, const MPI_Status* status, MPI_Datatype datatype, Count* count) {
  return call(site, name, [&](Ctx& x) {
    capi::need(status, "status");
    capi::need(count, "count");
    auto t = capi::type_of(x.c, datatype, "datatype");
    mpi::check_not_cancelled(status->count_hi_and_cancelled & 1, name);
    const std::int64_t n = mpi::get_count(capi::status_bytes(status), *t);
    *count = n > std::numeric_limits<Count>::max() ? MPI_UNDEFINED : static_cast<Count>(n);
  });
}
}  // namespace

extern "C" {

int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return get_count(__builtin_return_address(0), "MPI_Get_count", status, datatype, count);
}
int MPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return get_count(__builtin_return_address(0), "MPI_Get_count_c", status, datatype, count);
}

// ---- mpisim.h
void mpisim_compute(double seconds) {
  call(__builtin_return_address(0), "mpisim_compute", [&](Ctx& x) {
    if (!(seconds >= 0) || seconds > 4.6e6)
      throw mpi::MpiError(mpi::ErrorClass::arg, "seconds",
                          "mpisim_compute(" + std::to_string(seconds) + "): expected a time from 0 to 4.6e6 s",
                          "mpisim.h: a computation lasts a nonnegative time");
    x.run.block(capi::compute(x.rk, SimTime::from_ps(static_cast<std::int64_t>(seconds * 1e12))));
  });
}

}  // extern "C"
