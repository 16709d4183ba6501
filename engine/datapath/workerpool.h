// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The data path's threads: a fixed pool of workers, each running an event loop over the
// sockets of the data streams it was given (net::Poller: epoll on Linux). Streams are
// spread over the workers round-robin and stay on theirs for the whole test.
//
// A worker given a single stream of a kind that allows it drives it with blocking calls
// instead (one system call less per wake-up than a wait and then the call; measured in
// the issue 12 note): the event loop is for sharing a thread.
//
// UDP streams share workers as TCP does (no thread per stream, issue 30): a paced sender
// ahead of its schedule stops waiting for a writable socket and asks for a wake-up at its
// next burst instead (Worker::wakeAt), so it never spins.
//
// Nothing on the hot path takes a lock shared between threads: a worker owns its streams'
// state and its latency histograms; per-stream counters are atomics with one writer. The
// control thread talks to a worker by posting a command that the worker runs between two
// batches of events (onEachWorker), e.g. to hand over the interval's latency histogram.

#include "core/latencyhistogram.h"
#include "net/poller.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace nb {

class DataStream;
class Worker;

// What a worker's poller reports readiness to: a data stream, or a CRR server's accepted
// connection. Called on the worker's thread only.
class Pollable {
public:
    virtual ~Pollable() = default;
    virtual void onReady(Worker &worker, unsigned ready) = 0;
};

class Worker {
public:
    net::Poller &poller() { return m_poller; }
    // A transaction's latency (client roles); the worker's thread only, no lock.
    void recordLatency(std::int64_t ns)
    {
        m_interval.record(ns);
        m_total.record(ns);
    }
    // Monotonic nanoseconds, as every transaction timestamp is taken.
    static std::int64_t nowNs();
    // A buffer for bytes that are read and dropped, shared by the worker's streams.
    char *scratch(std::size_t size)
    {
        if (m_scratch.size() < size)
            m_scratch.resize(size);
        return m_scratch.data();
    }
    // Calls stream->onTimer at (or soon after) atNs, on this worker's thread (the wait's
    // resolution is a millisecond). One pending wake-up per stream: the stream keeps track.
    void wakeAt(DataStream *stream, std::int64_t atNs) { m_timers.push({atNs, stream}); }

private:
    friend class WorkerPool;
    void run();
    void runBlocking(DataStream *stream);
    void runCommands();
    void post(std::function<void(Worker &)> command);
    // Fires the wake-ups that are due; returns how long the next wait may last (ms).
    int runTimers(std::int64_t now, std::int64_t nextTick);

    struct Timer {
        std::int64_t atNs;
        DataStream *stream;
        bool operator>(const Timer &o) const { return atNs > o.atNs; }
    };
    std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> m_timers;

    net::Poller m_poller;
    std::vector<DataStream *> m_streams;
    LatencyHistogram m_interval, m_total;
    std::vector<char> m_scratch;
    std::mutex m_commandMutex;
    std::vector<std::function<void(Worker &)>> m_commands;
    std::atomic<bool> m_hasCommands{false};
    std::atomic<bool> m_quit{false};
    std::thread m_thread;
};

class WorkerPool {
public:
    WorkerPool() = default;
    ~WorkerPool() { stop(); }
    WorkerPool(const WorkerPool &) = delete;
    WorkerPool &operator=(const WorkerPool &) = delete;

    // Workers a test with `flows` streams gets when asked for `threads` (0: one per core):
    // never more than the flows, at least one.
    static int workersFor(int threads, int flows);
    // Spreads the streams over workersFor(threads, streams.size()) workers, and starts them.
    // The streams must outlive stop(). False with *error when a poller or a thread cannot
    // be created (out of descriptors, tasks or memory): nothing is left running then.
    bool start(const std::vector<DataStream *> &streams, int threads, QString *error);
    int size() const { return int(m_workers.size()); }
    bool running() const { return m_running; }

    // Runs fn on every worker's thread between two batches of events and waits until all
    // have (at most timeoutMs); after stop() it runs on the caller's thread. False when a
    // worker did not answer in time (then fn may still run later: capture by value).
    bool onEachWorker(const std::function<void(Worker &)> &fn, int timeoutMs = 10000);
    // The workers' latencies merged: since the previous call (and resets them), or since
    // start or resetTotalLatency().
    LatencyHistogram takeIntervalLatency();
    LatencyHistogram totalLatency();
    void resetTotalLatency();
    // Pauses or resumes every gated sender (latency under load); done when this returns.
    void setSendersPaused(bool paused);
    // Stops every sender (and RR/CRR client) stream; they have when this returns.
    void stopSenders();
    // Ends the event loops and joins the threads. Idempotent.
    void stop();

private:
    // One of the workers' histograms, merged (and reset when asked) on their threads.
    LatencyHistogram mergeLatency(LatencyHistogram Worker::*which, bool reset);

    std::vector<std::unique_ptr<Worker>> m_workers;
    bool m_running = false;
};

} // namespace nb
