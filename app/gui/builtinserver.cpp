// SPDX-License-Identifier: GPL-3.0-or-later
#include "builtinserver.h"

#include <test/server.h>

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
    m_thread = std::thread([this, server] {
        const int code = server->serve();
        // The object outlives the thread (the destructor joins), so a queued call is safe.
        QMetaObject::invokeMethod(
            this, [this, code] { serveFinished(code); }, Qt::QueuedConnection);
    });
    return true;
}

void BuiltinServer::stop()
{
    if (!m_server)
        return;
    m_server->stop();
    if (m_thread.joinable())
        m_thread.join();
    m_server.reset();
    m_port = 0;
}

void BuiltinServer::serveFinished(int code)
{
    if (code != 0 && m_server)
        Q_EMIT failed(tr("The built-in server stopped unexpectedly (code %1).").arg(code));
}

} // namespace nb::gui
