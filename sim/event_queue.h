// Discrete-event core. Events are ordered by (time, insertion sequence): two events at the
// same picosecond run in the order they were scheduled, so a run depends only on its
// inputs and seed. An event is a small value (no allocation): the handler it is sent to,
// a handler-defined kind (0..255; std::logic_error above) and a 64-bit argument. Closures are accepted too, for tests and
// rare control events (they are stored in a slot table and cost one std::function).
//
// Events cannot be cancelled; a handler that may have to ignore a stale event keeps a
// generation number and passes it in `arg` (the usual timer-wheel idiom).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/time.h"

namespace ll::sim {

struct Event;

class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void handle(const Event& ev) = 0;
};

struct Event {
  Time time = 0;
  uint64_t seq = 0;  // insertion order; the tie-breaker at equal time
  EventHandler* target = nullptr;
  uint32_t kind = 0;
  uint64_t arg = 0;
};

class Simulator {
 public:
  Simulator() = default;
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  Time now() const { return now_; }

  // Schedules an event at absolute time `t` (>= now(); std::logic_error otherwise).
  void at(Time t, EventHandler& target, uint32_t kind = 0, uint64_t arg = 0);
  // Schedules an event `dt` after now() (std::overflow_error past the end of time).
  void after(Time dt, EventHandler& target, uint32_t kind = 0, uint64_t arg = 0);
  void at(Time t, std::function<void()> fn);
  void after(Time dt, std::function<void()> fn);

  // Runs events in order while their time is <= `until` (default: until none is left
  // or stop() is called). now() ends at the last event run, or at `until` when it is
  // finite and the queue still holds later events. Returns the number of events run.
  uint64_t run(Time until = kNever);
  // Makes run() return after the event being handled.
  void stop() { stop_ = true; }

  bool empty() const { return queue_.empty(); }
  size_t pending() const { return queue_.size(); }
  uint64_t executed() const { return executed_; }
  // Time of the next event, kNever if none.
  Time next_time() const { return queue_.empty() ? kNever : queue_.front().time; }
  // Closure slots ever allocated (a slot is reused once its closure has run).
  size_t closure_slots() const { return closures_.slots(); }

 private:
  // What the heap holds: 32 bytes (the kind rides in the low 8 bits of the order key,
  // below the insertion sequence, so (time, key) orders exactly as (time, seq)).
  struct Slot {
    Time time;
    uint64_t key;  // seq << 8 | kind
    EventHandler* target;
    uint64_t arg;
  };
  static bool before(const Slot& a, const Slot& b) {
    return a.time != b.time ? a.time < b.time : a.key < b.key;
  }
  class Closures : public EventHandler {
   public:
    uint64_t add(std::function<void()> fn);
    void handle(const Event& ev) override;
    size_t slots() const { return slots_.size(); }
   private:
    std::vector<std::function<void()>> slots_;
    std::vector<uint64_t> free_;
  };

  void push(Time t, EventHandler* target, uint32_t kind, uint64_t arg);
  void pop_top();

  // A 4-ary min-heap: half the depth of a binary heap and children on one cache line
  // pair, which is what the event loop spends its time on.
  std::vector<Slot> queue_;
  Closures closures_;
  Time now_ = 0;
  uint64_t seq_ = 0;
  uint64_t executed_ = 0;
  bool stop_ = false;
};

}  // namespace ll::sim
