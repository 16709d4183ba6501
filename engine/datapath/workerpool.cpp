// SPDX-License-Identifier: GPL-3.0-or-later
#include "datapath/workerpool.h"

#include "datapath/datastream.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <system_error>

namespace nb {

namespace {

// Events taken per wait: enough that thousands of busy flows cost few waits, small enough
// that a command (the interval's hand-over) waits at most one such batch.
constexpr int EventBatch = 256;
// How often streams get onTick (connect and exchange timeouts), and the longest a wait
// sleeps without one.
constexpr std::int64_t TickNs = 100'000'000;

} // namespace

std::int64_t Worker::nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void Worker::post(std::function<void(Worker &)> command)
{
    {
        std::lock_guard lock(m_commandMutex);
        m_commands.push_back(std::move(command));
        m_hasCommands.store(true, std::memory_order_release);
    }
    m_poller.wake();
}

void Worker::runCommands()
{
    std::vector<std::function<void(Worker &)>> commands;
    {
        std::lock_guard lock(m_commandMutex);
        commands.swap(m_commands);
        m_hasCommands.store(false, std::memory_order_relaxed);
    }
    for (auto &c : commands)
        c(*this);
}

void Worker::runBlocking(DataStream *stream)
{
    stream->begin(*this, true);
    while (!m_quit.load(std::memory_order_relaxed)) {
        if (m_hasCommands.load(std::memory_order_acquire))
            runCommands();
        if (stream->finished()) {
            net::PollEvent e;
            m_poller.wait(&e, 1, int(TickNs / 1'000'000)); // until a command or stop
            continue;
        }
        stream->onReady(*this, net::Readable | net::Writable);
    }
    runCommands();
}

int Worker::runTimers(std::int64_t now, std::int64_t nextTick)
{
    while (!m_timers.empty() && m_timers.top().atNs <= now) {
        DataStream *s = m_timers.top().stream;
        m_timers.pop();
        s->onTimer(*this);
    }
    std::int64_t until = nextTick;
    if (!m_timers.empty())
        until = std::min(until, m_timers.top().atNs);
    // Rounded up: a wait that ends before the wake-up is due would only spin.
    return int(std::clamp<std::int64_t>((until - now + 999'999) / 1'000'000, 0, TickNs / 1'000'000));
}

void Worker::run()
{
    if (m_streams.size() == 1 && m_streams.front()->canRunBlocking()) {
        runBlocking(m_streams.front());
        return;
    }
    for (DataStream *s : m_streams)
        s->begin(*this);
    net::PollEvent events[EventBatch];
    std::int64_t nextTick = nowNs() + TickNs;
    while (!m_quit.load(std::memory_order_relaxed)) {
        if (m_hasCommands.load(std::memory_order_acquire))
            runCommands();
        const int waitMs = runTimers(nowNs(), nextTick);
        const int n = m_poller.wait(events, EventBatch, waitMs);
        if (n < 0) {
            for (DataStream *s : m_streams)
                s->fail(*this, QStringLiteral("the event poller failed"));
            break;
        }
        for (int i = 0; i < n; ++i)
            static_cast<Pollable *>(events[i].token)->onReady(*this, events[i].ready);
        const std::int64_t now = nowNs();
        if (now >= nextTick) {
            nextTick = now + TickNs;
            for (DataStream *s : m_streams)
                s->onTick(*this, now);
        }
    }
    // Commands posted while quitting still run: their callers may be waiting.
    runCommands();
}

int WorkerPool::workersFor(int threads, int flows)
{
    if (threads <= 0)
        threads = int(std::max(1u, std::thread::hardware_concurrency()));
    return std::max(1, std::min(threads, flows));
}

bool WorkerPool::start(const std::vector<DataStream *> &streams, int threads, QString *error)
{
    stop();
    m_workers.clear();
    const int count = workersFor(threads, int(streams.size()));
    try {
        for (int i = 0; i < count; ++i) {
            auto w = std::make_unique<Worker>();
            if (!w->m_poller.valid(error)) {
                m_workers.clear();
                return false;
            }
            m_workers.push_back(std::move(w));
        }
        for (std::size_t i = 0; i < streams.size(); ++i)
            m_workers[i % m_workers.size()]->m_streams.push_back(streams[i]);
    } catch (const std::bad_alloc &) {
        m_workers.clear();
        *error = QStringLiteral("out of memory for %1 data workers").arg(count);
        return false;
    }
    // A thread the system refuses (task limit, memory) refuses this test, never the process.
    m_running = true;
    for (std::size_t i = 0; i < m_workers.size(); ++i) {
        try {
            m_workers[i]->m_thread = std::thread(&Worker::run, m_workers[i].get());
        } catch (const std::system_error &e) {
            stop();
            m_workers.clear();
            *error = QStringLiteral("cannot start data thread %1 of %2: %3 (a task or memory limit?)")
                         .arg(i + 1)
                         .arg(count)
                         .arg(QString::fromLocal8Bit(e.what()));
            return false;
        }
    }
    return true;
}

bool WorkerPool::onEachWorker(const std::function<void(Worker &)> &fn, int timeoutMs)
{
    if (!m_running) {
        for (auto &w : m_workers)
            fn(*w);
        return true;
    }
    struct Latch {
        std::mutex mutex;
        std::condition_variable done;
        std::size_t left = 0;
    };
    auto latch = std::make_shared<Latch>();
    latch->left = m_workers.size();
    for (auto &w : m_workers) {
        w->post([fn, latch](Worker &worker) {
            fn(worker);
            std::lock_guard lock(latch->mutex);
            --latch->left;
            latch->done.notify_all();
        });
    }
    std::unique_lock lock(latch->mutex);
    return latch->done.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return latch->left == 0; });
}

LatencyHistogram WorkerPool::mergeLatency(LatencyHistogram Worker::*which, bool reset)
{
    struct Merged {
        std::mutex mutex;
        LatencyHistogram histogram;
    };
    auto merged = std::make_shared<Merged>();
    onEachWorker([merged, which, reset](Worker &w) {
        std::lock_guard lock(merged->mutex);
        merged->histogram.merge(w.*which);
        if (reset)
            (w.*which).reset();
    });
    std::lock_guard lock(merged->mutex);
    return merged->histogram;
}

LatencyHistogram WorkerPool::takeIntervalLatency()
{
    return mergeLatency(&Worker::m_interval, true);
}

LatencyHistogram WorkerPool::totalLatency()
{
    return mergeLatency(&Worker::m_total, false);
}

void WorkerPool::resetTotalLatency()
{
    onEachWorker([](Worker &w) { w.m_total.reset(); });
}

void WorkerPool::setSendersPaused(bool paused)
{
    onEachWorker([paused](Worker &w) {
        for (DataStream *s : w.m_streams)
            s->setPaused(w, paused);
    });
}

void WorkerPool::stopSenders()
{
    onEachWorker([](Worker &w) {
        for (DataStream *s : w.m_streams)
            if (s->isSender())
                s->stop(w);
    });
}

void WorkerPool::stop()
{
    if (!m_running)
        return;
    for (auto &w : m_workers) {
        w->m_quit.store(true);
        w->m_poller.wake();
    }
    for (auto &w : m_workers)
        if (w->m_thread.joinable())
            w->m_thread.join();
    m_running = false;
}

} // namespace nb
