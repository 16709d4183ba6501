// SPDX-License-Identifier: GPL-3.0-or-later
#include <QTest>
class TestUdp : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(TestUdp)
#include "tst_udp.moc"
