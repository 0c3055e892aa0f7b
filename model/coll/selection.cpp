#include "model/coll/selection.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

#include "model/coll/deploy.hpp"
#include "sim/input_error.hpp"

namespace mpisim::coll {
namespace {

using C = Collective;
using Json = nlohmann::ordered_json;

std::int64_t size_of(const TypeRef& t) { return t ? t->size() : 0; }

bool is_pof2(std::int64_t p) { return p > 0 && (p & (p - 1)) == 0; }

// "Allreduce" of MPI_Allreduce, lower case: MPICH's name of the collective.
std::string lower_name(C c) {
  std::string s(collective_name(c).substr(4));
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// --- MPICH's selection tree ---------------------------------------------------

enum class Test {
  leaf, collective, multi_threaded, comm_intra, comm_inter, comm_size_le, comm_size_lt, comm_size_pow2,
  comm_size_node, comm_size_any, hierarchy, node_consecutive, avg_ppn_le, avg_le, avg_lt, avg_any, total_le,
  total_lt, total_any, count_le, count_lt_pow2, count_any, in_place, block_regular, commutative, builtin_op
};

// A key of the tree: its test, and the keys of the object it leads to (tried when
// the test holds); the next key of its own object is tried when it fails.
struct Key {
  Test test = Test::leaf;
  std::int64_t value = 0;  // the number of a comparison
  bool yes = true;         // the value of a yes/no test
  enum class Hierarchy { any, parent, node_roots, node, flat } hierarchy = Hierarchy::any;
  C coll{};                // collective=
  bool nonblocking = false;
  std::string name;        // leaf: the algorithm (or composition)
  std::string pointer;     // where in the file
  std::vector<Key> then;
};

bool is_comm_test(Test t) {  // what MPICH decides once per communicator (csel's prune)
  switch (t) {
    case Test::comm_intra:
    case Test::comm_inter:
    case Test::comm_size_le:
    case Test::comm_size_lt:
    case Test::comm_size_pow2:
    case Test::comm_size_node:
    case Test::comm_size_any:
    case Test::hierarchy:
    case Test::node_consecutive:
    case Test::avg_ppn_le: return true;
    default: return false;
  }
}

bool is_any(Test t) { return t == Test::comm_size_any || t == Test::avg_any || t == Test::total_any || t == Test::count_any; }

bool is_yes_no(Test t) {
  switch (t) {
    case Test::multi_threaded:
    case Test::comm_intra:
    case Test::comm_inter:
    case Test::hierarchy:
    case Test::node_consecutive:
    case Test::in_place:
    case Test::block_regular:
    case Test::commutative:
    case Test::builtin_op:
    case Test::collective: return true;
    default: return false;
  }
}

std::string escape_pointer(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

class MpichParser {
 public:
  static constexpr int kMaxDepth = 64;  // MPICH's JSON reader stops at 32
  explicit MpichParser(std::string path) : path_(std::move(path)) {}
  bool uses_nodes = false;

  std::vector<Key> object(const Json& j, const std::string& at, int depth = 0) {
    if (!j.is_object()) fail(at, "expected an object (MPICH's selection is a tree of objects)");
    if (depth > kMaxDepth) fail(at, "the tree is nested deeper than " + std::to_string(kMaxDepth) + " levels");
    std::vector<Key> keys;
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string k;
      for (char c : it.key())
        if (c != ' ') k += c;  // MPICH drops the spaces of a key
      const std::string where = at + "/" + escape_pointer(it.key());
      if (k.rfind("algorithm=", 0) == 0 || k.rfind("composition=", 0) == 0) {
        // MPICH takes the object holding an algorithm as that algorithm, whatever
        // else it holds.
        Key leaf;
        leaf.name = k.substr(k.find('=') + 1);
        leaf.pointer = where;
        if (leaf.name.empty()) fail(where, "the key names no algorithm");
        return {leaf};
      }
      Key key = condition(k, where);
      key.then = object(it.value(), where, depth + 1);
      keys.push_back(std::move(key));
    }
    if (keys.empty()) fail(at, "an empty object: MPICH needs a key or an algorithm here");
    // MPICH's rules for a chain of keys: "any" only last; a comparison never last.
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const bool last = i + 1 == keys.size();
      if (keys[i].test == Test::leaf) continue;
      if (is_any(keys[i].test) && !last)
        fail(keys[i].pointer, "an \"=any\" key must be the last of its object (the keys after it are never tried)");
      if (!is_any(keys[i].test) && !is_yes_no(keys[i].test) && last)
        fail(keys[i].pointer, "a comparison must be followed by another key of its object, for the calls it does not "
                              "take (\"...=any\" last)");
    }
    return keys;
  }

  [[noreturn]] void fail(const std::string& at, const std::string& what) const {
    throw sim::InputError(path_ + ": " + (at.empty() ? "/" : at), what);
  }

 private:
  std::string path_;

  std::int64_t number(const std::string& k, std::size_t from, const std::string& where) const {
    const std::string n = k.substr(from);
    if (n.empty() || n.size() > 10 || !std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoll(n) > 2147483647)
      fail(where, "expected a whole number from 0 to 2147483647 (MPICH reads an int) after \"" + k.substr(0, from) +
                      "\"; got \"" + n + "\"");
    return std::stoll(n);
  }

  Key condition(const std::string& k, const std::string& where) {
    Key key;
    key.pointer = where;
    auto yes_no = [&](const char* prefix, Test t) {
      const std::string p(prefix);
      if (k.rfind(p, 0) != 0) return false;
      const std::string v = k.substr(p.size());
      if (v != "yes" && v != "no") fail(where, "expected \"" + p + "yes\" or \"" + p + "no\"");
      key.test = t;
      key.yes = v == "yes";
      return true;
    };
    auto compare = [&](const char* prefix, Test t) {
      const std::string p(prefix);
      if (k.rfind(p, 0) != 0) return false;
      key.test = t;
      key.value = number(k, p.size(), where);
      return true;
    };
    if (k.rfind("collective=", 0) == 0) {
      std::string name = k.substr(11);
      key.test = Test::collective;
      for (int i = 0; i < kCollectives; ++i) {
        const auto c = static_cast<C>(i);
        if (name == lower_name(c)) return key.coll = c, key;
        if (name == "i" + lower_name(c)) return key.coll = c, key.nonblocking = true, key;
      }
      fail(where, "\"" + name + "\" is not a collective MPICH's selection knows (allreduce, ibcast, ...)");
    }
    if (k == "comm_type=intra") return key.test = Test::comm_intra, key;
    if (k == "comm_type=inter") return key.test = Test::comm_inter, key;
    if (k == "comm_size=pow2") return key.test = Test::comm_size_pow2, key;
    if (k == "comm_size=node_comm_size") return uses_nodes = true, key.test = Test::comm_size_node, key;
    if (k == "comm_size=any") return key.test = Test::comm_size_any, key;
    if (compare("comm_size<=", Test::comm_size_le) || compare("comm_size<", Test::comm_size_lt)) return key;
    if (k == "count<pow2") return key.test = Test::count_lt_pow2, key;
    if (k == "count=any") return key.test = Test::count_any, key;
    if (compare("count<=", Test::count_le)) return key;
    if (k == "avg_msg_size=any") return key.test = Test::avg_any, key;
    if (compare("avg_msg_size<=", Test::avg_le) || compare("avg_msg_size<", Test::avg_lt)) return key;
    if (k == "total_msg_size=any") return key.test = Test::total_any, key;
    if (compare("total_msg_size<=", Test::total_le) || compare("total_msg_size<", Test::total_lt)) return key;
    if (yes_no("is_multi_threaded=", Test::multi_threaded) || yes_no("is_commutative=", Test::commutative) ||
        yes_no("is_sendbuf_inplace=", Test::in_place) || yes_no("is_op_built_in=", Test::builtin_op) ||
        yes_no("is_block_regular=", Test::block_regular))
      return key;
    if (yes_no("is_node_consecutive=", Test::node_consecutive)) return uses_nodes = true, key;
    if (compare("comm_avg_ppn<=", Test::avg_ppn_le)) return uses_nodes = true, key;
    if (k.rfind("comm_hierarchy=", 0) == 0) {
      static const std::map<std::string, Key::Hierarchy> kinds = {{"any", Key::Hierarchy::any},
                                                                  {"parent", Key::Hierarchy::parent},
                                                                  {"node_roots", Key::Hierarchy::node_roots},
                                                                  {"node", Key::Hierarchy::node},
                                                                  {"flat", Key::Hierarchy::flat}};
      auto it = kinds.find(k.substr(15));
      if (it == kinds.end()) fail(where, "expected comm_hierarchy=parent, node_roots, node, flat or any");
      uses_nodes = true;
      key.test = Test::hierarchy;
      key.hierarchy = it->second;
      return key;
    }
    fail(where, "\"" + k + "\" is not a key of MPICH 4.0's collective selection (collective=, comm_type=, "
                "comm_size, avg_msg_size, total_msg_size, count, is_commutative=, is_op_built_in=, "
                "is_sendbuf_inplace=, is_block_regular=, is_node_consecutive=, comm_avg_ppn<=, comm_hierarchy=, "
                "is_multi_threaded=, algorithm=)");
  }
};

bool holds(const Key& k, const CallFacts& f, const NodeFacts& n, bool pruning) {
  switch (k.test) {
    case Test::leaf: return true;
    case Test::collective: return k.coll == f.kind && k.nonblocking == f.nonblocking;
    case Test::multi_threaded: return !k.yes;  // a rank of mpisim is one thread
    case Test::comm_intra: return !f.inter;
    case Test::comm_inter: return f.inter;
    case Test::comm_size_le: return f.p <= k.value;
    // MPICH's search compares "<" as "<="; only where it decides once per
    // communicator (the keys right below the collective) is it "<".
    case Test::comm_size_lt: return pruning ? f.p < k.value : f.p <= k.value;
    case Test::comm_size_pow2: return is_pof2(f.p);
    case Test::comm_size_node: return !f.inter && n.one_node;
    case Test::comm_size_any:
    case Test::avg_any:
    case Test::total_any:
    case Test::count_any: return true;
    case Test::hierarchy: {
      using H = Key::Hierarchy;
      const bool parent = !f.inter && n.parent;
      return k.hierarchy == H::any || (k.hierarchy == H::parent && parent) || (k.hierarchy == H::flat && !parent);
    }
    // MPICH calls only a hierarchical ("parent") communicator node-consecutive.
    case Test::node_consecutive: return (!f.inter && n.parent && n.consecutive) == k.yes;
    case Test::avg_ppn_le: return f.p <= k.value * n.nodes;
    case Test::avg_le: return f.avg_msg_size <= k.value;
    case Test::avg_lt: return f.avg_msg_size < k.value;
    case Test::total_le: return f.total_msg_size <= k.value;
    case Test::total_lt: return f.total_msg_size < k.value;
    case Test::count_le: return f.count <= k.value;
    case Test::count_lt_pow2: return f.count < largest_pof2(f.p);
    case Test::in_place: return f.in_place == k.yes;
    case Test::block_regular: return f.block_regular == k.yes;
    case Test::commutative: return f.commutative == k.yes;
    case Test::builtin_op: return f.builtin_op == k.yes;
  }
  return false;
}

// The leaf a chain of keys leads to, or null when no key holds.
const Key* search(const std::vector<Key>& keys, const CallFacts& f, const NodeFacts& n, bool pruning) {
  for (const Key& k : keys) {
    if (k.test == Test::leaf) return &k;
    if (holds(k, f, n, pruning)) return search(k.then, f, n, pruning && is_comm_test(k.test));
  }
  return nullptr;
}

// mpisim's equivalent of an MPICH algorithm of a blocking collective, or null.
const Algorithm* mpich_equivalent(C c, std::string_view name) {
  for (const auto& a : algorithms())
    if (a.collective == c && a.library.mpich == name) return &a;
  return nullptr;
}

// "MPIR_Iallreduce_intra_sched_recursive_doubling" -> "MPIR_Allreduce_intra_recursive_doubling":
// the blocking algorithm of the same schedule.
std::string blocking_name(const std::string& name) {
  std::string s = name;
  if (s.rfind("MPIR_I", 0) == 0 && s.size() > 6) s = "MPIR_" + std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(s[6])))) + s.substr(7);
  for (const char* part : {"sched_", "tsp_", "gentran_"})
    if (auto at = s.find(part); at != std::string::npos) s.erase(at, std::string(part).size());
  return s;
}

// --- Open MPI's dynamic rules -----------------------------------------------------

struct MsgRule {
  std::int64_t size = 0;
  long algorithm = 0, faninout = 0;
  std::int64_t segsize = 0;
  int line = 0;
};
struct CommRule {
  std::int64_t size = 0;
  std::vector<MsgRule> msgs;
};

struct Token {
  std::int64_t value;
  int line;
};

class OmpiParser {
 public:
  OmpiParser(const std::string& text, std::string path) : path_(std::move(path)) {
    std::istringstream in(text);
    // Open MPI reads a version only from the file's very first characters.
    const std::string tag = "rule-file-version-";
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (n == 1 && line.rfind(tag, 0) == 0) {
        std::size_t end = tag.size();
        while (end < line.size() && line[end] >= '0' && line[end] <= '9') ++end;
        version_ = static_cast<int>(number(line.substr(tag.size(), end - tag.size()), n, "a version number after " + tag));
        line.erase(0, end);
      }
      if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
      std::istringstream words(line);
      std::string w;
      while (words >> w) tokens_.push_back({number(w, n, "a whole number"), n});
    }
  }

  std::array<std::vector<CommRule>, kCollectives> read() {
    std::array<std::vector<CommRule>, kCollectives> rules;
    const std::int64_t ncol = next("the number of collectives");
    if (ncol > kCollectives)
      fail(last_line_, std::to_string(ncol) + " collectives: Open MPI has " + std::to_string(kCollectives));
    std::set<long> seen;
    for (std::int64_t i = 0; i < ncol; ++i) {
      const std::int64_t id = next("a collective's number");
      C c{};
      if (!ompi_collective_of(static_cast<long>(id), &c))
        fail(last_line_, "collective " + std::to_string(id) + " is not one of Open MPI's (0 to " +
                             std::to_string(kCollectives - 1) + ")");
      if (!seen.insert(static_cast<long>(id)).second)
        fail(last_line_, "collective " + std::to_string(id) + " (" + std::string(collective_name(c)) + ") has rules already");
      std::vector<CommRule>& out = rules[static_cast<std::size_t>(id)];
      const std::int64_t ncomm = next("the number of communicator sizes");
      for (std::int64_t k = 0; k < ncomm; ++k) {
        CommRule cr;
        cr.size = next("a communicator size");
        const std::int64_t nmsg = next("the number of message sizes");
        for (std::int64_t m = 0; m < nmsg; ++m) {
          MsgRule r;
          r.size = next("a message size");
          r.line = last_line_;
          r.algorithm = static_cast<long>(next("an algorithm number"));
          r.faninout = static_cast<long>(next("a fan-in/out"));
          r.segsize = next("a segment size");
          // Version 2: a maximum of requests may follow on the segment size's line.
          if (version_ > 1 && pos_ < tokens_.size() && tokens_[pos_].line == last_line_) next("a maximum of requests");
          if (m == 0 && r.size != 0)
            fail(r.line, "the first message-size rule of a communicator size must be for size 0 (Open MPI refuses the "
                         "file otherwise)");
          // Rules for a collective the tuned component does not decide are read and unused.
          if (r.algorithm != 0 && !ompi_algorithm_name(c, 1).empty() && ompi_algorithm_name(c, r.algorithm).empty())
            fail(r.line, "Open MPI's tuned " + std::string(collective_name(c)) + " has no algorithm " +
                             std::to_string(r.algorithm));
          cr.msgs.push_back(r);
        }
        out.push_back(std::move(cr));
      }
    }
    if (pos_ < tokens_.size()) fail(tokens_[pos_].line, "more numbers than the rules announce");
    return rules;
  }

 private:
  std::string path_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int version_ = 1, last_line_ = 0;

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw sim::InputError(path_ + (line > 0 ? ":" + std::to_string(line) : ""), what);
  }
  std::int64_t number(const std::string& w, int line, const std::string& what) const {
    if (w.empty() || w.size() > 18 || !std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; }))
      fail(line, "expected " + what + "; got \"" + w + "\"");
    return std::stoll(w);
  }
  std::int64_t next(const std::string& what) {
    if (pos_ == tokens_.size())
      fail(tokens_.empty() ? 0 : tokens_.back().line, "the file ends where " + what + " was expected");
    last_line_ = tokens_[pos_].line;
    return tokens_[pos_++].value;
  }
};

}  // namespace

struct Selection::Impl {
  std::vector<Key> mpich;                                 // the root's keys
  std::array<std::vector<CommRule>, kCollectives> ompi;  // by Open MPI's collective number
};

Selection::Selection(Library library, std::string path, std::unique_ptr<Impl> impl, bool uses_nodes)
    : library_(library), path_(std::move(path)), impl_(std::move(impl)), uses_nodes_(uses_nodes) {}
Selection::~Selection() = default;

std::shared_ptr<const Selection> Selection::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw sim::InputError(path, "cannot read the selection file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path);
}

std::shared_ptr<const Selection> Selection::parse(const std::string& text, const std::string& path) {
  auto impl = std::make_unique<Impl>();
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    Json j;
    try {
      j = Json::parse(text);
    } catch (const Json::parse_error& e) {
      throw sim::InputError(path, std::string("not valid JSON (MPICH's selection file): ") + e.what());
    }
    MpichParser p(path);
    impl->mpich = p.object(j, "");
    for (const Key& k : impl->mpich)
      if (k.test != Test::collective)
        p.fail(k.pointer, "expected \"collective=...\" keys at the top of MPICH's selection");
    return std::make_shared<const Selection>(Library::mpich, path, std::move(impl), p.uses_nodes);
  }
  impl->ompi = OmpiParser(text, path).read();
  return std::make_shared<const Selection>(Library::ompi, path, std::move(impl), false);
}

Selection::Pick Selection::pick(const CallFacts& f, const NodeFacts& n) const {
  Pick out;
  if (library_ == Library::mpich) {
    const Key* top = nullptr;
    for (const Key& k : impl_->mpich)
      if (holds(k, f, n, true)) {
        top = &k;
        break;
      }
    if (!top) return out;  // the file names no such collective: the default selection
    const Key* leaf = search(top->then, f, n, true);
    if (!leaf)
      throw sim::InputError(path_ + ": " + top->pointer,
                            "no key matches a call of " + std::string(f.nonblocking ? "the nonblocking " : "") +
                                std::string(collective_name(f.kind)) + " on " + std::to_string(f.p) +
                                " processes (MPICH stops on such a call): end the object with an \"...=any\" key");
    out.name = leaf->name;
    out.rule = leaf->pointer;
    if (f.nonblocking || f.inter) {
      // mpisim runs these forms with the blocking intracommunicator algorithms:
      // the file's choice where it is one of them, else mpisim's default.
      out.algorithm = f.inter ? nullptr : mpich_equivalent(f.kind, blocking_name(leaf->name));
      out.decided = out.algorithm != nullptr;
      return out;
    }
    out.decided = true;
    out.algorithm = mpich_equivalent(f.kind, leaf->name);
    return out;
  }
  // Open MPI's tuned component decides the blocking collectives on intracommunicators.
  const int id = ompi_collective_id(f.kind);
  if (f.nonblocking || f.inter || id < 0 || ompi_algorithm_name(f.kind, 1).empty()) return out;
  const std::vector<CommRule>& comms = impl_->ompi[static_cast<std::size_t>(id)];
  if (comms.empty()) return out;
  const CommRule* cr = &comms.front();
  for (const CommRule& r : comms) {
    if (r.size > f.p) break;
    cr = &r;
  }
  if (cr->msgs.empty()) return out;
  const MsgRule* mr = &cr->msgs.front();
  for (const MsgRule& r : cr->msgs) {
    if (r.size > f.ompi_size) break;
    mr = &r;
  }
  if (mr->algorithm == 0) return out;  // the fixed decisions
  // What Open MPI runs for it: its own fallbacks, and segments only where they
  // cut the buffer.
  const OmpiRun run =
      ompi_run(f.kind, mr->algorithm, mr->faninout, mr->segsize, static_cast<std::uint64_t>(f.p), f.count, f.type_size,
               f.commutative);
  out.decided = true;
  out.algorithm = run.algorithm;
  out.segment_bytes = run.segment_bytes;
  out.name = run.name + " (algorithm " + std::to_string(mr->algorithm) + (run.note.empty() ? "" : "; " + run.note) + ")";
  out.rule = "line " + std::to_string(mr->line);
  return out;
}

const Algorithm* Selection::choose(CollArgs& a, std::string_view call, mpi::World& world, std::uint32_t caller) const {
  NodeFacts nodes;
  if (uses_nodes_ && !a.inter()) {
    const mpi::World::NodeHierarchy& h = world.node_hierarchy(*a.comm, caller);  // made once per communicator
    nodes.nodes = static_cast<int>(h.leader.size());
    nodes.parent = nodes.nodes < a.p;
    nodes.one_node = nodes.nodes == 1 && a.p > 1;
    nodes.consecutive = h.consecutive;
  }
  Pick pk;
  try {
    pk = pick(call_facts(a), nodes);
  } catch (const sim::InputError& e) {
    throw AlgorithmError(e.what());
  }
  if (!pk.decided) return nullptr;
  const std::string where = path_ + " (" + pk.rule + ")";
  if (!pk.algorithm)
    throw AlgorithmError("the selection " + where + " picks " + pk.name + " for " + std::string(call) +
                         ", which mpisim does not model (mpisim --list-algorithms lists the libraries' algorithms it has)");
  if (std::string no = ineligible(*pk.algorithm, a); !no.empty())
    throw AlgorithmError("the selection " + where + " picks " + std::string(pk.algorithm->name) + " for " +
                         std::string(call) + ", which cannot run this call: " + no);
  if (pk.segment_bytes > 0 && a.segment_bytes == 0) a.segment_bytes = pk.segment_bytes;
  return pk.algorithm;
}

CallFacts call_facts(const CollArgs& a) {
  CallFacts f;
  f.kind = a.kind;
  f.nonblocking = a.nonblocking();
  f.inter = a.inter();
  f.p = a.p;
  f.commutative = !a.op || a.op->commutative;
  f.builtin_op = !a.op || a.op->kind != mpi::OpKind::user;
  f.in_place = a.in_place();
  const std::int64_t p = a.p;
  // The send side's bytes of one block, or the receive side's where the send side
  // is not significant here (MPI_IN_PLACE; a scatter's non-root).
  const std::int64_t send_block = a.sendtype && !a.in_place() ? a.sendcount * size_of(a.sendtype) : 0;
  const std::int64_t recv_block = a.recvcount * size_of(a.recvtype);
  const std::int64_t own_block = send_block > 0 ? send_block : recv_block;
  auto sum = [](const std::vector<std::int64_t>& v) {
    std::int64_t s = 0;
    for (auto x : v) s += x;
    return s;
  };
  switch (a.kind) {
    case C::bcast:
    case C::reduce:
    case C::allreduce: {
      const TypeRef& t = a.recvtype ? a.recvtype : a.sendtype;
      f.count = a.recvcount;
      f.type_size = size_of(t);
      f.avg_msg_size = f.count * size_of(t);
      f.total_msg_size = f.avg_msg_size * p;
      f.ompi_size = f.avg_msg_size;
      break;
    }
    case C::scan:
    case C::exscan:
      f.count = a.recvcount;
      f.ompi_size = size_of(a.recvtype ? a.recvtype : a.sendtype) * p;  // Open MPI's measure of a scan
      break;
    case C::alltoall:
      f.avg_msg_size = own_block;
      f.total_msg_size = own_block * p;
      f.ompi_size = own_block * p;
      break;
    case C::alltoallv:
      f.total_msg_size = a.in_place() ? 0 : sum(a.sendcounts()) * size_of(a.sendtype);
      break;
    case C::alltoallw:
      if (!a.in_place())
        for (int i = 0; i < a.peers(); ++i) f.total_msg_size += a.send_count(i) * size_of(a.send_type(i));
      break;
    case C::allgather:
      f.count = a.recvcount;
      f.total_msg_size = recv_block * p;
      f.ompi_size = own_block * p;
      break;
    case C::allgatherv: {
      f.count = sum(a.recvcounts());
      f.total_msg_size = f.count * size_of(a.recvtype);
      const std::int64_t t = a.sendtype && !a.in_place() ? size_of(a.sendtype) : size_of(a.recvtype);
      f.ompi_size = p > 0 ? f.count * t / p : 0;
      break;
    }
    case C::gather:
    case C::scatter:
    case C::gatherv:
    case C::scatterv: {
      // MPICH counts elements here, not bytes: the count times the group's size.
      const bool send_side = (a.kind == C::gather || a.kind == C::gatherv) != (a.inter() && a.root == mpi::ROOT);
      std::int64_t n = send_side ? (a.sendtype && !a.in_place() ? a.sendcount : a.recvcount)
                                 : (a.recvtype && !a.in_place() ? a.recvcount : a.sendcount);
      // Open MPI's linear_sync gather cuts each block: its count and type size.
      f.count = a.is_root() ? a.recvcount : a.sendcount;
      f.type_size = size_of(a.is_root() ? a.recvtype : a.sendtype);
      f.total_msg_size = n * (a.inter() && a.root == mpi::ROOT ? a.remote_p : p);
      f.ompi_size = own_block * p;
      break;
    }
    case C::reduce_scatter: {
      f.count = sum(a.recvcounts());
      f.total_msg_size = f.count * size_of(a.recvtype);
      f.ompi_size = f.total_msg_size;
      const auto& rc = a.recvcounts();
      f.block_regular = std::adjacent_find(rc.begin(), rc.end(), std::not_equal_to<>()) == rc.end();
      break;
    }
    case C::reduce_scatter_block:
      f.count = a.recvcount;
      f.total_msg_size = a.recvcount * p * size_of(a.recvtype);
      f.ompi_size = f.total_msg_size;
      break;
    default: break;
  }
  return f;
}

CallFacts cost_facts(Collective c, std::uint64_t ranks, std::uint64_t bytes) {
  CallFacts f;
  f.kind = c;
  f.p = static_cast<int>(ranks);
  const auto p = static_cast<std::int64_t>(ranks);
  const std::int64_t ts = reduces(c) ? 8 : 1;  // mpisim cost reduces doubles, moves bytes otherwise
  const auto n = static_cast<std::int64_t>(reduces(c) ? (bytes + 7) / 8 : bytes);
  f.type_size = ts;
  switch (c) {
    case C::bcast:
    case C::reduce:
    case C::allreduce:
      f.count = n;
      f.avg_msg_size = n * ts;
      f.total_msg_size = n * ts * p;
      f.ompi_size = n * ts;
      break;
    case C::scan:
    case C::exscan:
      f.count = n;
      f.ompi_size = ts * p;
      break;
    case C::alltoall:
      f.avg_msg_size = n;
      f.total_msg_size = f.ompi_size = n * p;
      break;
    case C::alltoallv:
    case C::alltoallw: f.total_msg_size = n * p; break;
    case C::allgather:
      f.count = n;
      f.total_msg_size = f.ompi_size = n * p;
      break;
    case C::allgatherv:
      f.count = n * p;
      f.total_msg_size = n * p;
      f.ompi_size = n;
      break;
    case C::gather:
    case C::gatherv:
    case C::scatter:
    case C::scatterv:
      f.count = n;
      f.total_msg_size = f.ompi_size = n * p;
      break;
    case C::reduce_scatter:
      f.count = n * p;
      f.total_msg_size = f.ompi_size = n * p * ts;
      break;
    case C::reduce_scatter_block:
      f.count = n;
      f.total_msg_size = f.ompi_size = n * p * ts;
      break;
    default: break;
  }
  return f;
}

NodeFacts node_facts(std::span<const int> node_by_rank) {
  NodeFacts n;
  std::set<int> nodes, closed;
  for (std::size_t r = 0; r < node_by_rank.size(); ++r) {
    const int node = node_by_rank[r];
    nodes.insert(node);
    if (r > 0 && node_by_rank[r - 1] != node) {
      closed.insert(node_by_rank[r - 1]);
      if (closed.count(node)) n.consecutive = false;  // its members came before, with others between
    }
  }
  const auto p = static_cast<int>(node_by_rank.size());
  n.nodes = std::max<int>(1, static_cast<int>(nodes.size()));
  n.parent = n.nodes < p;
  n.one_node = nodes.size() == 1 && p > 1;
  return n;
}

}  // namespace mpisim::coll
