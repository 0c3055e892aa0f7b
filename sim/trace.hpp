#pragma once
// Trace recording: what happened, in a generic vocabulary (processes, calls,
// messages on channels, snapshots, diagnostics). The model fills it; the writer
// turns it into the versioned trace JSON. Nothing here knows MPI.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/json_writer.hpp"
#include "sim/time.hpp"

namespace mpisim::sim {

// How much a trace keeps. Summary counters are always kept.
enum class TraceLevel { full, calls, summary };

struct CallRecord {
  std::uint32_t process;
  std::int32_t step;           // index of the scenario step, -1 if none
  std::string name;
  SimTime start, end;
  std::string args_json;       // a JSON object, already serialized
  std::string detail;          // e.g. the algorithm a collective used
  // A call that starts an operation and returns (a nonblocking or persistent
  // collective): when that operation completed; -1 otherwise, or while it runs.
  std::int64_t completed_ps = -1;
};

struct MessageRecord {
  std::uint64_t id;
  std::uint32_t src, dst;
  std::int32_t tag;
  std::uint32_t channel;       // index into Trace::channel_names
  std::uint64_t bytes;
  SimTime sent, arrived;       // send start; when the receiver absorbed it
  std::int64_t instance;       // the collective instance that sent it, -1 for p2p
  std::vector<std::uint32_t> route = {};  // the links it crossed, when the network has links
};

struct Snapshot {
  std::uint32_t process;
  std::int32_t step;
  SimTime time;
  std::string name;
  std::string json;            // the snapshot's body, a serialized JSON object
  bool replay = false;         // a record for playing the run back, not one the program asked to show
};

struct Diagnostic {
  std::string severity;        // "error" or "warning"
  std::string code;            // e.g. MPI_ERR_TRUNCATE, DEADLOCK, EXPECT_FAILED
  std::int64_t process = -1;
  std::int32_t step = -1;
  std::string call, argument;
  std::string message;
  std::string rule;            // the rule of the standard, with its section
  SimTime time{};
  std::vector<std::string> detail;  // further lines (deadlock: each blocked rank)
};

struct CallStats {
  std::uint64_t count = 0;
  std::int64_t total_ps = 0;
  std::int64_t max_ps = 0;
};

class Trace {
 public:
  explicit Trace(TraceLevel level = TraceLevel::full) : level_(level) {}

  TraceLevel level() const { return level_; }
  void set_process_count(std::uint32_t n);

  std::uint32_t channel(const std::string& name);
  // Returns the record's index, for complete_call (-1 when the level keeps no calls).
  std::int64_t record_call(CallRecord r);
  // The operation the call `index` started completed at t (the latest of
  // several, for a call that started several).
  void complete_call(std::int64_t index, SimTime t);
  // The cheap form for the summary level: counts the call under `name` (a string
  // that outlives the trace) without building a record.
  void count_call(const char* name, SimTime start, SimTime end);
  void record_message(const MessageRecord& m);
  void record_snapshot(Snapshot s) { snapshots_.push_back(std::move(s)); }
  void record_diagnostic(Diagnostic d) { diagnostics_.push_back(std::move(d)); }

  const std::vector<CallRecord>& calls() const { return calls_; }
  const std::vector<MessageRecord>& messages() const { return messages_; }
  const std::vector<Snapshot>& snapshots() const { return snapshots_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const std::map<std::string, CallStats, std::less<>>& call_stats() const { return call_stats_; }
  std::uint64_t message_count() const { return message_count_; }
  std::uint64_t byte_count() const { return byte_count_; }
  const std::vector<std::string>& channel_names() const { return channel_names_; }
  struct Traffic {
    std::uint64_t sent_messages = 0, sent_bytes = 0, received_messages = 0, received_bytes = 0;
  };
  const std::vector<Traffic>& traffic() const { return traffic_; }

  // Writes the calls, messages, snapshots and diagnostics sections as members of
  // the object `w` is in.
  void write_records(JsonWriter& w) const;
  static void write_diagnostic(JsonWriter& w, const Diagnostic& d);

 private:
  TraceLevel level_;
  std::vector<CallRecord> calls_;
  std::vector<MessageRecord> messages_;
  std::vector<Snapshot> snapshots_;
  std::vector<Diagnostic> diagnostics_;
  std::map<std::string, CallStats, std::less<>> call_stats_;
  // count_call's memo: the stats entry of each name pointer seen (a lookup cache
  // only; output order comes from call_stats_, sorted by name).
  std::vector<std::pair<const char*, CallStats*>> stats_by_pointer_;
  std::vector<std::string> channel_names_;  // a channel's number is its index here
  // name -> number, so that finding a channel does not grow with how many were
  // made (a program may create and free hundreds of thousands of communicators);
  // a lookup only: the output walks channel_names_.
  std::unordered_map<std::string, std::uint32_t> channel_index_;
  std::vector<Traffic> traffic_;
  std::uint64_t message_count_ = 0, byte_count_ = 0;
};

}  // namespace mpisim::sim
