// SPDX-License-Identifier: GPL-3.0-or-later
// JobTracker: results of the current job arrive on the context's thread; a stale job's
// results (a newer job started, or abandon()) are dropped, also when they were already
// queued; a destroyed context or tracker gets nothing; a Batch delivers everything in the
// order it was appended, one list per event-loop turn. The worker threads block on
// promises the test releases, so every ordering is forced, not hoped for.

#include <window/jobtracker.h>

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <future>
#include <memory>

using nb::gui::JobTracker;

namespace {

// Runs the events queued so far (deliveries are queued calls) without waiting for more.
void drainEvents()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents(QEventLoop::AllEvents);
}

} // namespace

class TestJobTracker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deliversOnTheContextThread()
    {
        QObject context;
        JobTracker tracker(&context);
        QThread *deliveredOn = nullptr;
        QThread *workedOn = nullptr;
        int value = 0;
        const JobTracker::Id id = tracker.start([&](JobTracker::Id job) {
            workedOn = QThread::currentThread();
            tracker.deliver(job, [&] {
                deliveredOn = QThread::currentThread();
                value = 42;
            });
        });
        QVERIFY(tracker.isCurrent(id));
        QTRY_COMPARE_WITH_TIMEOUT(value, 42, 5000);
        QCOMPARE(deliveredOn, QThread::currentThread());
        QVERIFY(workedOn != QThread::currentThread());
        tracker.wait();
        QVERIFY(!tracker.isBusy());
    }

    void staleJobsAreDropped()
    {
        QObject context;
        JobTracker tracker(&context);
        QList<int> got;

        // Job 1 delivers only once released; abandon() makes it stale first.
        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();
        const JobTracker::Id first = tracker.start([&, released](JobTracker::Id job) {
            released.wait();
            tracker.deliver(job, [&] { got.append(1); });
        });
        QVERIFY(tracker.isBusy());
        tracker.abandon();
        QVERIFY(!tracker.isCurrent(first));
        release.set_value();
        tracker.wait();
        drainEvents();
        QVERIFY(got.isEmpty());

        // Job 2's delivery is already queued when job 3 starts: it is dropped at delivery.
        tracker.start([&](JobTracker::Id job) { tracker.deliver(job, [&] { got.append(2); }); });
        tracker.wait(); // the delivery sits in the queue, not yet run
        const JobTracker::Id third =
            tracker.start([&](JobTracker::Id job) { tracker.deliver(job, [&] { got.append(3); }); });
        QVERIFY(third > first);
        tracker.wait();
        drainEvents();
        QCOMPARE(got, QList<int>{3});
    }

    void destroyedContextGetsNothing()
    {
        auto *context = new QObject;
        JobTracker tracker(context);
        int delivered = 0;
        int batched = 0;
        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();
        // The batch is made here, before the context goes: the worker only appends.
        const JobTracker::Id id = tracker.prepare();
        auto batch = tracker.makeBatch<int>(id, [&](const QList<int> &items) { batched += int(items.size()); });
        tracker.run([&, released, batch](JobTracker::Id job) {
            released.wait();
            batch->append(1);
            tracker.deliver(job, [&] { ++delivered; });
        });
        delete context; // while the job still runs
        release.set_value();
        tracker.wait();
        drainEvents();
        QCOMPARE(delivered, 0);
        QCOMPARE(batched, 0);
    }

    void destroyedTrackerDeliversNothing()
    {
        QObject context;
        int delivered = 0;
        {
            JobTracker tracker(&context);
            tracker.start([&](JobTracker::Id job) { tracker.deliver(job, [&] { ++delivered; }); });
            tracker.wait();
        } // the delivery was queued to the tracker's relay, which goes with it
        drainEvents();
        QCOMPARE(delivered, 0);
    }

    void batchingDeliversInOrder()
    {
        QObject context;
        JobTracker tracker(&context);
        QList<QList<int>> batches;
        bool doneAfterItems = false;
        std::promise<void> secondHalf;
        std::shared_future<void> goOn = secondHalf.get_future().share();
        std::promise<void> firstHalfQueued;
        tracker.start([&, goOn](JobTracker::Id job) {
            auto batch = tracker.makeBatch<int>(job, [&](const QList<int> &items) { batches.append(items); });
            for (int i = 0; i < 100; ++i)
                batch->append(i);
            firstHalfQueued.set_value();
            goOn.wait();
            for (int i = 100; i < 150; ++i)
                batch->append(i);
            tracker.deliver(job, [&] { doneAfterItems = batches.size() == 2 && batches.last().last() == 149; });
        });
        // The GUI thread is busy here, so the first 100 reports make one batch.
        firstHalfQueued.get_future().wait();
        drainEvents();
        QCOMPARE(batches.size(), 1);
        QCOMPARE(batches.first().size(), 100);
        secondHalf.set_value();
        tracker.wait();
        drainEvents();
        QCOMPARE(batches.size(), 2);
        QList<int> all;
        for (const QList<int> &b : std::as_const(batches))
            all += b;
        QCOMPARE(all.size(), 150);
        for (int i = 0; i < all.size(); ++i)
            QCOMPARE(all[i], i);
        QVERIFY(doneAfterItems); // the final delivery came after the last batch
    }

    void staleBatchIsDropped()
    {
        QObject context;
        JobTracker tracker(&context);
        int batched = 0;
        tracker.start([&](JobTracker::Id job) {
            auto batch = tracker.makeBatch<int>(job, [&](const QList<int> &items) { batched += int(items.size()); });
            batch->append(7);
        });
        tracker.wait();
        tracker.abandon();
        drainEvents();
        QCOMPARE(batched, 0);
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "tst_gui_jobtracker.moc"
