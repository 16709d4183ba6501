// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/jobtracker.h"

#include <QMetaObject>

namespace nb::gui {

JobTracker::JobTracker(QObject *context) : m_context(context), m_relay(std::make_unique<QObject>())
{
    // The relay runs the deliveries on the context's thread.
    if (context)
        m_relay->moveToThread(context->thread());
}

JobTracker::~JobTracker()
{
    abandon();
    wait();
}

void JobTracker::wait()
{
    if (m_thread.joinable())
        m_thread.join();
}

void JobTracker::post(std::function<void()> f) const
{
    QMetaObject::invokeMethod(m_relay.get(), std::move(f), Qt::QueuedConnection);
}

} // namespace nb::gui
