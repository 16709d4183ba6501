// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The server the window starts on loopback, so the first Run measures something real.
// It listens on 127.0.0.1:5201 when that is free, else on an ephemeral port, and serves
// on its own thread until stop() or destruction.

#include "window/jobtracker.h"

#include <QObject>
#include <QString>

#include <memory>

namespace nb {
class Server;
}

namespace nb::gui {

class BuiltinServer : public QObject {
    Q_OBJECT
public:
    static constexpr quint16 kPreferredPort = 5201;

    explicit BuiltinServer(QObject *parent = nullptr);
    ~BuiltinServer() override;

    // Binds synchronously (so a test can start right after) and starts serving.
    bool start(QString *error);
    void stop();
    bool isListening() const { return m_port != 0; }
    quint16 port() const { return m_port; }
    static QString address() { return QStringLiteral("127.0.0.1"); }

Q_SIGNALS:
    // The serving thread ended on a fatal error.
    void failed(const QString &message);

private:
    void serveFinished(int code);

    std::unique_ptr<nb::Server> m_server;
    quint16 m_port = 0;
    JobTracker m_jobs{this}; // serves; last: destroyed (and joined) first
};

} // namespace nb::gui
