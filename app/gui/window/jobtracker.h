// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One way for the GUI to run work off its thread: a job runs on a thread of its own, has an
// id, and hands results back to a context object (a QObject living on the GUI thread) with
// queued calls. A result arrives only if, when its turn comes on the GUI thread, its job is
// still the current one and the context still exists: starting a new job or abandon()
// makes the old one stale, and whatever it still sends is dropped. Batch<T> gathers many
// small reports (intervals) into one delivery per event-loop turn, in the order they came.
//
// Lifetime: the tracker waits for its thread when destroyed, so it must not outlive the
// engine objects the job uses; owners ask the engine to stop first. Deliveries go through
// a small relay object the tracker owns, never straight to the context, so a context
// deleted while the worker still runs is never posted to.

#include <QList>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace nb::gui {

class JobTracker {
    struct State {
        std::atomic<quint64> current{0};
    };

public:
    using Id = quint64;

    // `context` receives the results (on its thread); it usually owns the tracker.
    explicit JobTracker(QObject *context);
    // Marks the job stale and waits for its thread.
    ~JobTracker();
    JobTracker(const JobTracker &) = delete;
    JobTracker &operator=(const JobTracker &) = delete;

    // Waits for the previous job's thread (the owner has asked it to end), then runs
    // `work(id)` on a new thread. The previous job is stale from here on.
    template <typename Work> Id start(Work work)
    {
        const Id id = prepare();
        run(std::move(work));
        return id;
    }
    // start() in two steps, for owners that build the job's objects (a listener knowing
    // the id) before its thread runs: prepare() waits for the previous thread and makes a
    // new id current; run() starts `work(id)` for it.
    Id prepare()
    {
        wait();
        return ++m_state->current;
    }
    template <typename Work> void run(Work work)
    {
        wait();
        m_busy->store(true);
        m_thread = std::thread([work = std::move(work), id = current(), busy = m_busy]() mutable {
            work(id);
            busy->store(false);
        });
    }

    // The current job becomes stale without waiting: nothing it sends arrives any more.
    void abandon() { ++m_state->current; }
    // Joins the last job's thread (returns at once when there is none).
    void wait();
    // True while the last job's work has not returned.
    bool isBusy() const { return m_busy->load(); }
    Id current() const { return m_state->current.load(); }
    bool isCurrent(Id id) const { return id == current(); }

    // From any thread: runs `f()` on the context's thread later, if `id` is still the
    // current job then and the context still exists.
    template <typename F> void deliver(Id id, F f) const
    {
        post([state = m_state, context = m_context, id, f = std::move(f)]() mutable {
            if (context && state->current.load() == id)
                f();
        });
    }

    // Reports of one job gathered into lists: append() from the worker; `onBatch(list)`
    // runs on the context's thread once per event-loop turn with everything appended since
    // the last one, in order. Reports of a stale job are dropped.
    template <typename T> class Batch {
    public:
        void append(T item)
        {
            std::lock_guard lock(m_mutex);
            m_pending.append(std::move(item));
            if (m_flushPosted)
                return;
            m_flushPosted = true;
            m_tracker->post([self = m_self.lock()] {
                if (self)
                    self->flush();
            });
        }

    private:
        friend class JobTracker;
        void flush()
        {
            QList<T> batch;
            {
                std::lock_guard lock(m_mutex);
                batch.swap(m_pending);
                m_flushPosted = false;
            }
            if (!batch.isEmpty() && m_context && m_state->current.load() == m_id)
                m_onBatch(batch);
        }

        const JobTracker *m_tracker = nullptr;
        std::shared_ptr<State> m_state;
        QPointer<QObject> m_context;
        Id m_id = 0;
        std::function<void(const QList<T> &)> m_onBatch;
        std::weak_ptr<Batch> m_self;
        std::mutex m_mutex;
        QList<T> m_pending;
        bool m_flushPosted = false;
    };

    // A batch for job `id`. Keep it (a shared_ptr) as long as the worker appends; its
    // deliveries are queued behind what was delivered before, so a result delivered after
    // the last append() arrives after the last batch.
    template <typename T>
    std::shared_ptr<Batch<T>> makeBatch(Id id, std::function<void(const QList<T> &)> onBatch) const
    {
        auto batch = std::make_shared<Batch<T>>();
        batch->m_tracker = this;
        batch->m_state = m_state;
        batch->m_context = m_context;
        batch->m_id = id;
        batch->m_onBatch = std::move(onBatch);
        batch->m_self = batch;
        return batch;
    }

private:
    // Queues `f` on the relay (the context's thread). The relay lives as long as the
    // tracker, which outlives its thread, so posting from the worker is safe.
    void post(std::function<void()> f) const;

    std::shared_ptr<State> m_state = std::make_shared<State>();
    std::shared_ptr<std::atomic<bool>> m_busy = std::make_shared<std::atomic<bool>>(false);
    QPointer<QObject> m_context;
    std::unique_ptr<QObject> m_relay;
    std::thread m_thread;
};

} // namespace nb::gui
