// SPDX-License-Identifier: GPL-3.0-or-later
// Linux implementation of platform.h: /proc for CPU time, sysfs and ethtool ioctls for
// adapters, QNetworkInterface for addresses.
#include "platform/platform_linux.h"

#include <QDir>
#include <QNetworkInterface>
#include <QSysInfo>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nb::platform {

namespace {

// One open/read/close without QFile's buffering and allocation: readCounters() calls this
// four times per poll at 10+ Hz. sysfs attributes fit in a page.
QByteArray readSmallFile(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    char buf[4096];
    ssize_t n;
    do {
        n = ::read(fd, buf, sizeof buf);
    } while (n < 0 && errno == EINTR);
    ::close(fd);
    return n > 0 ? QByteArray(buf, int(n)).trimmed() : QByteArray();
}

// Whole-file read for /proc files that can exceed a page (/proc/stat on many cores).
QByteArray readProcFile(const char *path)
{
    QFile f(QString::fromLatin1(path));
    // /proc files report size 0, so read until EOF rather than trusting size().
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::int64_t monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Runs one SIOCETHTOOL request; `data` starts with the ethtool command word.
bool ethtoolIoctl(const QString &interfaceName, void *data)
{
    const QByteArray name = interfaceName.toLocal8Bit();
    if (name.isEmpty() || name.size() >= IFNAMSIZ)
        return false;
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    ifreq ifr{};
    std::memcpy(ifr.ifr_name, name.constData(), std::size_t(name.size()));
    ifr.ifr_data = static_cast<char *>(data);
    const bool ok = ::ioctl(fd, SIOCETHTOOL, &ifr) == 0;
    ::close(fd);
    return ok;
}

QString cString(const char *text, std::size_t maxLength)
{
    return QString::fromLatin1(text, qsizetype(strnlen(text, maxLength)));
}

} // namespace

namespace linuxsys {

bool parseProcStat(const QByteArray &text, CpuTimes *out)
{
    CpuTimes t;
    bool found = false;
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.isEmpty() || !f[0].startsWith("cpu"))
            continue;
        if (f[0] != "cpu") {
            ++t.cpuCount; // "cpu0", "cpu1", ...
            continue;
        }
        std::uint64_t *fields[] = {&t.user, &t.nice, &t.system, &t.idle, &t.iowait, &t.irq, &t.softirq, &t.steal};
        if (f.size() < 5) // user nice system idle at the very least
            return false;
        for (int i = 0; i < 8 && i + 1 < f.size(); ++i) {
            bool ok = false;
            *fields[i] = f[i + 1].toULongLong(&ok);
            if (!ok)
                return false;
        }
        found = true;
    }
    if (!found)
        return false;
    if (t.cpuCount == 0)
        t.cpuCount = 1;
    *out = t;
    return true;
}

double parseCpuInfoMHz(const QByteArray &cpuinfo)
{
    double sum = 0;
    int n = 0;
    for (const QByteArray &line : cpuinfo.split('\n')) {
        const int colon = line.indexOf(':');
        if (colon < 0 || line.left(colon).trimmed() != "cpu MHz")
            continue;
        bool ok = false;
        const double mhz = line.mid(colon + 1).trimmed().toDouble(&ok);
        if (ok && mhz > 0) {
            sum += mhz;
            ++n;
        }
    }
    return n ? sum / n : 0.0;
}

QString parseCpuInfoModel(const QByteArray &cpuinfo)
{
    for (const char *key : {"model name", "Model", "Hardware", "cpu model"}) {
        for (const QByteArray &line : cpuinfo.split('\n')) {
            const int colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed() == key)
                return QString::fromUtf8(line.mid(colon + 1).trimmed());
        }
    }
    return {};
}

QString defaultNetClassDir()
{
    return QStringLiteral("/sys/class/net");
}

QStringList interfaceNames(const QString &netClassDir)
{
    // Entries are symlinks into /sys/devices, so do not filter on Dirs alone.
    return QDir(netClassDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::System, QDir::Name);
}

bool readSysfsAdapter(const QString &netClassDir, const QString &name, AdapterInfo *out)
{
    const QString dir = netClassDir + QLatin1Char('/') + name + QLatin1Char('/');
    const QByteArray ifindex = readSmallFile(dir + QStringLiteral("ifindex"));
    if (ifindex.isEmpty())
        return false;
    AdapterInfo a;
    a.name = name;
    a.index = ifindex.toInt();
    a.mtu = readSmallFile(dir + QStringLiteral("mtu")).toInt();
    // Mbit/s; reading fails (EINVAL) for lo and down links, and some drivers say -1.
    bool ok = false;
    const qint64 mbps = readSmallFile(dir + QStringLiteral("speed")).toLongLong(&ok);
    a.linkSpeedBps = ok && mbps > 0 && mbps < 100'000'000 ? mbps * 1'000'000 : -1;
    a.operState = QString::fromLatin1(readSmallFile(dir + QStringLiteral("operstate")));
    const unsigned flags = readSmallFile(dir + QStringLiteral("flags")).toUInt(&ok, 16);
    a.loopback = ok && (flags & IFF_LOOPBACK);
    const QString mac = QString::fromLatin1(readSmallFile(dir + QStringLiteral("address")));
    // lo reports an all-zero address: that is "none", not a real MAC.
    if (!mac.isEmpty() && mac.count(QLatin1Char('0')) + mac.count(QLatin1Char(':')) != mac.size())
        a.hardwareAddress = mac;
    a.description = QString::fromUtf8(readSmallFile(dir + QStringLiteral("ifalias")));

    // Physical and paravirtual devices link to their driver; virtual ones (veth, lo,
    // bridges) have no device/ at all and need ethtool.
    const QFileInfo driverLink(dir + QStringLiteral("device/driver"));
    if (driverLink.isSymLink())
        a.driver = QFileInfo(driverLink.symLinkTarget()).fileName();
    if (a.driver.isEmpty()) {
        const QByteArray uevent = readSmallFile(dir + QStringLiteral("device/uevent"));
        for (const QByteArray &line : uevent.split('\n')) {
            if (line.startsWith("DRIVER="))
                a.driver = QString::fromLatin1(line.mid(7).trimmed());
        }
    }
    a.family = familyFromDriver(a.driver, a.name, a.loopback);
    *out = a;
    return true;
}

bool readSysfsCounters(const QString &netClassDir, const QString &name, InterfaceCounters *out)
{
    const QString dir = netClassDir + QLatin1Char('/') + name + QStringLiteral("/statistics/");
    InterfaceCounters c;
    c.timestampNs = monotonicNs();
    const std::pair<const char *, std::uint64_t *> files[] = {
        {"rx_bytes", &c.rxBytes}, {"tx_bytes", &c.txBytes}, {"rx_packets", &c.rxPackets}, {"tx_packets", &c.txPackets}};
    for (const auto &[file, target] : files) {
        bool ok = false;
        *target = readSmallFile(dir + QLatin1String(file)).toULongLong(&ok);
        if (!ok)
            return false;
    }
    // Drops and errors where the driver counts them; 0 otherwise.
    const std::pair<const char *, std::uint64_t *> optional[] = {{"rx_dropped", &c.rxDropped},
                                                                 {"tx_dropped", &c.txDropped},
                                                                 {"rx_errors", &c.rxErrors},
                                                                 {"tx_errors", &c.txErrors}};
    for (const auto &[file, target] : optional)
        *target = readSmallFile(dir + QLatin1String(file)).toULongLong();
    *out = c;
    return true;
}

QMap<QString, InterfaceCounters> parseProcNetDev(const QByteArray &text, std::int64_t timestampNs)
{
    QMap<QString, InterfaceCounters> all;
    for (const QByteArray &line : text.split('\n')) {
        // "  eth0: rxbytes rxpackets errs drop fifo frame compressed multicast txbytes txpackets ..."
        // Split at the colon, not on spaces: old kernels glued wide numbers to the name.
        const int colon = line.indexOf(':');
        if (colon <= 0 || line.contains('|'))
            continue;
        const QList<QByteArray> f = line.mid(colon + 1).simplified().split(' ');
        if (f.size() < 12)
            continue;
        InterfaceCounters c;
        bool ok[4] = {};
        c.rxBytes = f[0].toULongLong(&ok[0]);
        c.rxPackets = f[1].toULongLong(&ok[1]);
        c.txBytes = f[8].toULongLong(&ok[2]);
        c.txPackets = f[9].toULongLong(&ok[3]);
        if (!(ok[0] && ok[1] && ok[2] && ok[3]))
            continue;
        c.rxErrors = f[2].toULongLong();
        c.rxDropped = f[3].toULongLong();
        c.txErrors = f[10].toULongLong();
        c.txDropped = f[11].toULongLong();
        c.timestampNs = timestampNs;
        all.insert(QString::fromLatin1(line.left(colon).trimmed()), c);
    }
    return all;
}

QList<std::pair<QString, bool>> parseEthtoolFeatures(const QByteArray &text)
{
    QList<std::pair<QString, bool>> features;
    for (const QByteArray &line : text.split('\n')) {
        const int colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray value = line.mid(colon + 1).trimmed();
        // "on", "off", "off [fixed]", "on [requested off]": the first word is the state.
        const bool on = value.startsWith("on");
        if (!on && !value.startsWith("off"))
            continue; // "Features for eth0:" and anything else
        features.append({QString::fromLatin1(line.left(colon).trimmed()), on});
    }
    return features;
}

QMap<QString, bool> offloadsFromFeatures(const QList<std::pair<QString, bool>> &features)
{
    // Kernel feature strings first, then ethtool's umbrella names for the same thing.
    static const std::pair<const char *, const char *> map[] = {
        {"tx-tcp-segmentation", "tso"},
        {"tx-tcp6-segmentation", "tso"},
        {"tcp-segmentation-offload", "tso"},
        {"tx-generic-segmentation", "gso"},
        {"generic-segmentation-offload", "gso"},
        {"rx-gro", "gro"},
        {"generic-receive-offload", "gro"},
        {"rx-lro", "lro"},
        {"large-receive-offload", "lro"},
        {"rx-checksum", "rx-checksum"},
        {"rx-checksumming", "rx-checksum"},
        {"tx-checksum-ipv4", "tx-checksum"},
        {"tx-checksum-ipv6", "tx-checksum"},
        {"tx-checksum-ip-generic", "tx-checksum"},
        {"tx-checksumming", "tx-checksum"},
        {"tx-scatter-gather", "sg"},
        {"scatter-gather", "sg"},
        {"rx-hashing", "rxhash"},
        {"receive-hashing", "rxhash"},
        {"rx-vlan-hw-parse", "rx-vlan"},
        {"rx-vlan-offload", "rx-vlan"},
        {"tx-vlan-hw-insert", "tx-vlan"},
        {"tx-vlan-offload", "tx-vlan"},
    };
    QMap<QString, bool> offloads;
    for (const auto &[feature, on] : features) {
        for (const auto &[kernelName, shortName] : map) {
            if (feature == QLatin1String(kernelName)) {
                bool &slot = offloads[QLatin1String(shortName)];
                slot = slot || on;
            }
        }
    }
    return offloads;
}

bool ethtoolDriverInfo(const QString &interfaceName, DriverInfo *out)
{
    ethtool_drvinfo info{};
    info.cmd = ETHTOOL_GDRVINFO;
    if (!ethtoolIoctl(interfaceName, &info))
        return false;
    out->driver = cString(info.driver, sizeof info.driver);
    out->version = cString(info.version, sizeof info.version);
    out->busInfo = cString(info.bus_info, sizeof info.bus_info);
    return !out->driver.isEmpty();
}

bool ethtoolFeatures(const QString &interfaceName, QList<std::pair<QString, bool>> *out)
{
    out->clear();
    // How many feature strings this kernel has.
    std::vector<std::uint64_t> ssetBuf((sizeof(ethtool_sset_info) + sizeof(std::uint32_t) + 7) / 8, 0);
    auto *sset = reinterpret_cast<ethtool_sset_info *>(ssetBuf.data());
    sset->cmd = ETHTOOL_GSSET_INFO;
    sset->sset_mask = std::uint64_t(1) << ETH_SS_FEATURES;
    if (ethtoolIoctl(interfaceName, sset) && (sset->sset_mask & (std::uint64_t(1) << ETH_SS_FEATURES))) {
        const std::uint32_t count = sset->data[0];
        std::vector<std::uint64_t> strBuf((sizeof(ethtool_gstrings) + std::size_t(count) * ETH_GSTRING_LEN + 7) / 8, 0);
        auto *strings = reinterpret_cast<ethtool_gstrings *>(strBuf.data());
        strings->cmd = ETHTOOL_GSTRINGS;
        strings->string_set = ETH_SS_FEATURES;
        strings->len = count;
        const std::uint32_t blocks = (count + 31) / 32;
        std::vector<std::uint64_t> featBuf(
            (sizeof(ethtool_gfeatures) + blocks * sizeof(ethtool_get_features_block) + 7) / 8, 0);
        auto *feats = reinterpret_cast<ethtool_gfeatures *>(featBuf.data());
        feats->cmd = ETHTOOL_GFEATURES;
        feats->size = blocks;
        if (ethtoolIoctl(interfaceName, strings) && ethtoolIoctl(interfaceName, feats)) {
            for (std::uint32_t i = 0; i < count; ++i) {
                const char *name = reinterpret_cast<const char *>(strings->data) + std::size_t(i) * ETH_GSTRING_LEN;
                const bool on = feats->features[i / 32].active & (1u << (i % 32));
                out->append({cString(name, ETH_GSTRING_LEN), on});
            }
            return true;
        }
    }
    // Pre-2.6.39 kernels: one ioctl per offload, using ethtool's umbrella names.
    const std::pair<std::uint32_t, const char *> legacy[] = {
        {ETHTOOL_GTSO, "tcp-segmentation-offload"}, {ETHTOOL_GGSO, "generic-segmentation-offload"},
        {ETHTOOL_GGRO, "generic-receive-offload"},  {ETHTOOL_GRXCSUM, "rx-checksumming"},
        {ETHTOOL_GTXCSUM, "tx-checksumming"},       {ETHTOOL_GSG, "scatter-gather"}};
    for (const auto &[cmd, name] : legacy) {
        ethtool_value v{};
        v.cmd = cmd;
        if (ethtoolIoctl(interfaceName, &v))
            out->append({QLatin1String(name), v.data != 0});
    }
    ethtool_value flags{};
    flags.cmd = ETHTOOL_GFLAGS;
    if (ethtoolIoctl(interfaceName, &flags))
        out->append({QStringLiteral("large-receive-offload"), (flags.data & ETH_FLAG_LRO) != 0});
    return !out->isEmpty();
}

} // namespace linuxsys

bool readSystemCpuTimes(CpuTimes *out)
{
    return linuxsys::parseProcStat(readProcFile("/proc/stat"), out);
}

bool readProcessCpuTimes(ProcessCpuTimes *out)
{
    rusage ru{};
    timespec ts{};
    if (getrusage(RUSAGE_SELF, &ru) != 0 || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return false;
    out->userSeconds = double(ru.ru_utime.tv_sec) + double(ru.ru_utime.tv_usec) / 1e6;
    out->systemSeconds = double(ru.ru_stime.tv_sec) + double(ru.ru_stime.tv_usec) / 1e6;
    out->totalSeconds = double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
    return true;
}

int cpuCount()
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? int(n) : 1;
}

double cpuClockHz()
{
    const double mhz = linuxsys::parseCpuInfoMHz(readProcFile("/proc/cpuinfo"));
    if (mhz > 0)
        return mhz * 1e6;
    // ARM and others leave "cpu MHz" out; cpufreq reports kHz.
    for (const char *file : {"scaling_cur_freq", "cpuinfo_max_freq"}) {
        bool ok = false;
        const double khz =
            readSmallFile(QStringLiteral("/sys/devices/system/cpu/cpu0/cpufreq/") + QLatin1String(file)).toDouble(&ok);
        if (ok && khz > 0)
            return khz * 1e3;
    }
    return 0;
}

QString cpuModel()
{
    return linuxsys::parseCpuInfoModel(readProcFile("/proc/cpuinfo"));
}
QString osName()
{
    return QSysInfo::prettyProductName();
}
QString kernelVersion()
{
    return QSysInfo::kernelVersion();
}

QList<AdapterInfo> listAdapters()
{
    const QString root = linuxsys::defaultNetClassDir();
    QList<AdapterInfo> adapters;
    for (const QString &name : linuxsys::interfaceNames(root)) {
        AdapterInfo a;
        if (!linuxsys::readSysfsAdapter(root, name, &a))
            continue;
        linuxsys::DriverInfo drv;
        if (linuxsys::ethtoolDriverInfo(name, &drv)) {
            if (a.driver.isEmpty())
                a.driver = drv.driver; // veth, bridge, tun: no device/driver link
            a.driverVersion = drv.version;
            a.busInfo = drv.busInfo;
        }
        a.family = familyFromDriver(a.driver, a.name, a.loopback);
        QList<std::pair<QString, bool>> features;
        if (linuxsys::ethtoolFeatures(name, &features))
            a.offloads = linuxsys::offloadsFromFeatures(features);
        const QNetworkInterface qi = QNetworkInterface::interfaceFromName(name);
        for (const QNetworkAddressEntry &e : qi.addressEntries())
            a.addresses.append({e.ip(), e.prefixLength()});
        adapters.append(a);
    }
    return adapters;
}

QMap<QString, InterfaceCounters> readAllCounters()
{
    const std::int64_t now = monotonicNs();
    // One small read: 4 KB covers dozens of interfaces, larger tables fall back to QFile.
    QByteArray text = readSmallFile(QStringLiteral("/proc/net/dev"));
    if (text.size() >= 4000)
        text = readProcFile("/proc/net/dev");
    return linuxsys::parseProcNetDev(text, now);
}

bool readCounters(const QString &interfaceName, InterfaceCounters *out)
{
    // /proc/net/dev rather than statistics/{rx,tx}_{bytes,packets}: each sysfs file costs
    // a full dev_get_stats() plus an open, so four of them took 60-70 us per reading on a
    // loaded 2-vCPU KVM guest (Debian 12, kernel 6.1) against 18-30 us for /proc/net/dev,
    // which also answers for every interface at once. Either way, at 10 Hz it is well
    // under 0.1% of a core. tst_adapters::countersCost prints the figure on each run.
    const QMap<QString, InterfaceCounters> all = readAllCounters();
    const auto it = all.constFind(interfaceName);
    if (it == all.cend())
        return false;
    *out = *it;
    return true;
}

namespace {

std::int64_t limitValue(rlim_t v)
{
    return v == RLIM_INFINITY ? std::numeric_limits<std::int64_t>::max() : std::int64_t(v);
}

} // namespace

FileLimit fileLimit()
{
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return {};
    return {limitValue(rl.rlim_cur), limitValue(rl.rlim_max)};
}

FileLimit raiseFileLimit()
{
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != rl.rlim_max) {
        rlimit raised = rl;
        raised.rlim_cur = rl.rlim_max;
        // An unlimited hard limit still stops at the kernel's fs.nr_open.
        if (::setrlimit(RLIMIT_NOFILE, &raised) != 0 && rl.rlim_max == RLIM_INFINITY) {
            const qlonglong nrOpen = readProcFile("/proc/sys/fs/nr_open").trimmed().toLongLong();
            if (nrOpen > 0 && rlim_t(nrOpen) > rl.rlim_cur) {
                raised.rlim_cur = rlim_t(nrOpen);
                ::setrlimit(RLIMIT_NOFILE, &raised);
            }
        }
    }
    return fileLimit();
}

void attachParentConsole() {}

int openFileCount()
{
    DIR *dir = ::opendir("/proc/self/fd");
    if (!dir)
        return -1;
    int n = 0;
    while (const dirent *e = ::readdir(dir)) {
        if (e->d_name[0] != '.')
            ++n;
    }
    ::closedir(dir);
    return n - 1; // the directory's own descriptor
}

bool isReadableByEveryone(const QString &path)
{
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && (st.st_mode & S_IROTH);
}

} // namespace nb::platform
