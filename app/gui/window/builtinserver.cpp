// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/builtinserver.h"

#include <session/server.h>

namespace nb::gui {

BuiltinServer::BuiltinServer(QObject *parent) : QObject(parent) {}

BuiltinServer::~BuiltinServer()
{
    stop();
}

bool BuiltinServer::start(QString *error)
{
    if (m_server)
        return true;
    QString firstError;
    for (quint16 port : {kPreferredPort, quint16(0)}) {
        nb::ServerOptions options;
        options.port = port;
        options.bindAddress = address();
        options.family = nb::AddressFamily::IPv4;
        auto server = std::make_unique<nb::Server>(options);
        QString err;
        if (server->listen(&err)) {
            m_server = std::move(server);
            break;
        }
        if (firstError.isEmpty())
            firstError = err;
    }
    if (!m_server) {
        if (error)
            *error = tr("The built-in server could not listen on %1: %2").arg(address(), firstError);
        return false;
    }
    m_port = m_server->port();
    nb::Server *server = m_server.get();
    m_jobs.start([this, server](JobTracker::Id job) {
        const int code = server->serve();
        m_jobs.deliver(job, [this, code] { serveFinished(code); });
    });
    return true;
}

void BuiltinServer::stop()
{
    if (!m_server)
        return;
    m_server->stop();
    m_jobs.abandon(); // a stop asked for is no failure to report
    m_jobs.wait();
    m_server.reset();
    m_port = 0;
}

void BuiltinServer::serveFinished(int code)
{
    if (code != 0 && m_server)
        Q_EMIT failed(tr("The built-in server stopped unexpectedly (code %1).").arg(code));
}

} // namespace nb::gui
