#pragma once
// Asynchronous point-to-point exchange with message coalescing, as the Graph500 reference's
// top-down BFS does it (paper 001): items for a rank are gathered into a buffer of
// `coalescing_size` items, sent with a non-blocking send as soon as it is full, and arrivals are
// handled while sending; a level ends with the partial buffers, one end-of-level signal to every
// peer, and polling until every peer's signal has come. One thread per rank drives it.
//
// Order: receives are posted in a ring and taken oldest first. MPI matches one sender's messages
// to receives in the order they were posted, so taking them in that order sees each sender's data
// before its end-of-level signal.
#include <cstdint>
#include <span>
#include <vector>

#include "core/timer.hpp"
#include "mpi/comm.hpp"

namespace g500::exchange {

// What one rank's messenger did during one level.
struct MessengerLevel {
  std::int64_t items_sent = 0;       // items to other ranks (queries)
  std::int64_t full_messages = 0;    // messages of exactly coalescing_size items
  std::int64_t partial_messages = 0; // the level's remainders
  std::int64_t end_signals = 0;      // end-of-level messages sent
  double send_wait_seconds = 0;      // waiting for a previous send to a rank to finish
  double poll_seconds = 0;           // after this rank's own sends: waiting for the others
};

template <class Item>
class CoalescedMessenger {
 public:
  // `comm` must be the messenger's own communicator: any message on it is taken for its own.
  CoalescedMessenger(const mpi::Comm& comm, std::int64_t coalescing_size, int receives = 4)
      : comm_(comm), size_(coalescing_size), filling_(comm.size()), in_flight_(comm.size()),
        send_req_(comm.size()), recv_buf_(receives), recv_req_(receives) {
    for (int d = 0; d < comm.size(); ++d) {
      filling_[d].reserve(size_);
      in_flight_[d].reserve(size_);
    }
    for (int r = 0; r < receives; ++r) {
      recv_buf_[r].resize(size_);
      comm_.irecv_any(std::span<Item>(recv_buf_[r]), recv_req_[r]);
    }
  }

  // Queues `item` for rank `dest` (not this rank); a full buffer goes out at once.
  // on_arrival(std::span<const Item>) is called for whatever arrives meanwhile.
  template <class OnArrival>
  void send(int dest, const Item& item, OnArrival&& on_arrival) {
    std::vector<Item>& buf = filling_[dest];
    buf.push_back(item);
    ++level_.items_sent;
    if (static_cast<std::int64_t>(buf.size()) == size_) {
      post(dest, on_arrival);
      ++level_.full_messages;
      poll(on_arrival);
    }
  }

  // Handles the messages that have arrived (taken oldest posted receive first). Non-blocking.
  template <class OnArrival>
  void poll(OnArrival&& on_arrival) {
    mpi::Arrival got;
    while (recv_req_[head_].test(&got)) {
      if (got.tag == kDataTag) {
        on_arrival(std::span<const Item>(recv_buf_[head_].data(), static_cast<std::size_t>(got.bytes) / sizeof(Item)));
      } else {
        ++ends_seen_;
      }
      comm_.irecv_any(std::span<Item>(recv_buf_[head_]), recv_req_[head_]);
      head_ = (head_ + 1) % static_cast<int>(recv_req_.size());
    }
  }

  // Ends the level (collectively in effect: every rank must call it): sends the partial buffers
  // and the end signals, then handles arrivals until every peer has ended and every send is done.
  // Returns what this rank did during the level and starts counting the next.
  template <class OnArrival>
  MessengerLevel end_level(OnArrival&& on_arrival) {
    const int p = comm_.size(), me = comm_.rank();
    for (int d = 0; d < p; ++d) {
      if (d == me || filling_[d].empty()) continue;
      post(d, on_arrival);
      ++level_.partial_messages;
    }
    for (int d = 0; d < p; ++d) {
      if (d == me) continue;
      wait_for_send(d, on_arrival);
      comm_.isend(std::span<const Item>(), d, kEndTag, send_req_[d]);
      ++level_.end_signals;
    }
    const Timer polling;
    bool sends_done = false;
    while (ends_seen_ < p - 1 || !sends_done) {
      poll(on_arrival);
      if (!sends_done) {
        sends_done = true;
        for (int d = 0; d < p; ++d) sends_done = send_req_[d].test() && sends_done;
      }
    }
    level_.poll_seconds = polling.seconds();
    ends_seen_ = 0;
    mpi::traffic().add_logical("coalesced.queries", level_.items_sent);
    mpi::traffic().add_logical("coalesced.messages", level_.full_messages + level_.partial_messages);
    mpi::traffic().add_logical("coalesced.partial_messages", level_.partial_messages);
    mpi::traffic().add_logical("coalesced.end_signals", level_.end_signals);
    const MessengerLevel done = level_;
    level_ = {};
    return done;
  }

 private:
  static constexpr int kDataTag = 1;
  static constexpr int kEndTag = 2;

  // Waits (handling arrivals, so that the peer's own sends can progress) for the send to `dest`.
  template <class OnArrival>
  void wait_for_send(int dest, OnArrival& on_arrival) {
    if (send_req_[dest].test()) return;
    const Timer waiting;
    while (!send_req_[dest].test()) poll(on_arrival);
    level_.send_wait_seconds += waiting.seconds();
  }

  template <class OnArrival>
  void post(int dest, OnArrival& on_arrival) {
    wait_for_send(dest, on_arrival);
    in_flight_[dest].swap(filling_[dest]);
    filling_[dest].clear();
    comm_.isend(std::span<const Item>(in_flight_[dest]), dest, kDataTag, send_req_[dest]);
  }

  const mpi::Comm& comm_;
  std::int64_t size_;
  std::vector<std::vector<Item>> filling_, in_flight_;  // per destination
  std::vector<mpi::Request> send_req_;                   // per destination: the send in flight
  std::vector<std::vector<Item>> recv_buf_;              // the ring of posted receives
  std::vector<mpi::Request> recv_req_;
  int head_ = 0;                                         // the oldest posted receive
  int ends_seen_ = 0;
  MessengerLevel level_;
};

}  // namespace g500::exchange
