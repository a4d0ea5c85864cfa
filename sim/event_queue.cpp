#include "sim/event_queue.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace ll::sim {

void Simulator::push(Time t, EventHandler* target, uint32_t kind, uint64_t arg) {
  if (t < now_) {
    throw std::logic_error("event scheduled in the past: at " + std::to_string(t) +
                           " ps, now " + std::to_string(now_) + " ps");
  }
  if (t == kNever) throw std::overflow_error("event scheduled at the end of time");
  if (kind > 0xFF) throw std::logic_error("event kind above 255");
  const Slot ev{t, (seq_++ << 8) | kind, target, arg};
  // sift up
  size_t i = queue_.size();
  queue_.push_back(ev);
  while (i > 0) {
    const size_t parent = (i - 1) / 4;
    if (!before(ev, queue_[parent])) break;
    queue_[i] = queue_[parent];
    i = parent;
  }
  queue_[i] = ev;
}

void Simulator::pop_top() {
  const Slot last = queue_.back();
  queue_.pop_back();
  const size_t n = queue_.size();
  if (n == 0) return;
  // sift the former last element down from the root
  size_t i = 0;
  for (;;) {
    const size_t c = 4 * i + 1;
    if (c >= n) break;
    size_t best = c;
    const size_t end = c + 4 < n ? c + 4 : n;
    for (size_t k = c + 1; k < end; ++k)
      if (before(queue_[k], queue_[best])) best = k;
    if (!before(queue_[best], last)) break;
    queue_[i] = queue_[best];
    i = best;
  }
  queue_[i] = last;
}

void Simulator::at(Time t, EventHandler& target, uint32_t kind, uint64_t arg) {
  push(t, &target, kind, arg);
}

void Simulator::after(Time dt, EventHandler& target, uint32_t kind, uint64_t arg) {
  if (dt >= kNever - now_) throw std::overflow_error("event delay runs past the end of time");
  push(now_ + dt, &target, kind, arg);
}

void Simulator::at(Time t, std::function<void()> fn) {
  if (t < now_) push(t, &closures_, 0, 0);  // throws with the standard message
  push(t, &closures_, 0, closures_.add(std::move(fn)));
}

void Simulator::after(Time dt, std::function<void()> fn) {
  if (dt >= kNever - now_) throw std::overflow_error("event delay runs past the end of time");
  at(now_ + dt, std::move(fn));
}

uint64_t Simulator::run(Time until) {
  stop_ = false;
  uint64_t n = 0;
  if (until < now_) return 0;  // time never runs backwards
  while (!queue_.empty() && !stop_) {
    if (queue_.front().time > until) {
      now_ = until;
      return n;
    }
    const Slot sl = queue_.front();
    pop_top();
    Event ev;
    ev.time = sl.time;
    ev.seq = sl.key >> 8;
    ev.target = sl.target;
    ev.kind = static_cast<uint32_t>(sl.key & 0xFF);
    ev.arg = sl.arg;
    now_ = ev.time;
    ++n;
    ++executed_;
    ev.target->handle(ev);
  }
  return n;
}

uint64_t Simulator::Closures::add(std::function<void()> fn) {
  if (!free_.empty()) {
    const uint64_t slot = free_.back();
    free_.pop_back();
    slots_[slot] = std::move(fn);
    return slot;
  }
  slots_.push_back(std::move(fn));
  return slots_.size() - 1;
}

void Simulator::Closures::handle(const Event& ev) {
  std::function<void()> fn = std::move(slots_[ev.arg]);
  slots_[ev.arg] = nullptr;
  free_.push_back(ev.arg);
  fn();
}

}  // namespace ll::sim
