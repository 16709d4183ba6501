// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/initramfs.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSaveFile>
#include <QSet>
#include <QSysInfo>
#include <QVersionNumber>

#include <cstring>
#include <functional>

namespace nb::lab {

namespace {

QString moduleKey(const QString &pathOrName)
{
    QString n = QFileInfo(pathOrName).fileName();
    const int ko = n.indexOf(QLatin1String(".ko"));
    if (ko >= 0)
        n.truncate(ko);
    return n.replace(QLatin1Char('-'), QLatin1Char('_'));
}

// "6.1.0-57-amd64" before "6.1.0-9-amd64" is wrong as text; compare the numbers first.
bool newerVersion(const QString &a, const QString &b)
{
    qsizetype ia = 0, ib = 0;
    const QVersionNumber va = QVersionNumber::fromString(a, &ia);
    const QVersionNumber vb = QVersionNumber::fromString(b, &ib);
    if (va != vb)
        return va > vb;
    // Debian's ABI number follows: "-57-amd64".
    const int na = a.mid(ia + 1).section(QLatin1Char('-'), 0, 0).toInt();
    const int nb = b.mid(ib + 1).section(QLatin1Char('-'), 0, 0).toInt();
    if (na != nb)
        return na > nb;
    return a > b;
}

QString initScript()
{
    // Runs as PID 1 under busybox's shell. Everything after switch_root comes from the host's
    // root (its /bin/sh, ip, ethtool, nicbench-cli).
    return QStringLiteral(R"SH(#!/bin/busybox sh
B=/bin/busybox
$B mount -t proc proc /proc
$B mount -t sysfs sys /sys
$B mount -t devtmpfs dev /dev
for m in $($B cat /modules/order); do
  $B insmod /modules/$m || echo "nblab: could not load $m"
done
if ! $B mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot /newroot; then
  echo "nblab: could not mount the host's root over virtio-9p"; $B sleep 5; $B poweroff -f
fi
for d in tmp run var/tmp var/log; do $B mount -t tmpfs -o size=64m tmpfs /newroot/$d; done
$B mount -t proc proc /newroot/proc
$B mount -t sysfs sys /newroot/sys
$B mount -t devtmpfs dev /newroot/dev
$B mkdir -p /newroot/run/nblab
if ! $B mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 nblab /newroot/run/nblab; then
  echo "nblab: could not mount the guest's state folder"; $B sleep 5; $B poweroff -f
fi
echo "nblab: starting the agent"
exec $B switch_root /newroot /bin/sh /run/nblab/agent.sh
)SH");
}

// Some distributions make /boot/vmlinuz-* readable by root only.
bool kernelReadable(const QString &image, QString *error)
{
    QFile f(image);
    if (f.open(QIODevice::ReadOnly) && f.read(4).size() == 4)
        return true;
    *error = QStringLiteral("cannot read the kernel %1 (some distributions make it readable by root only): run "
                            "as root or give a readable copy with --kernel")
                 .arg(image);
    return false;
}

} // namespace

bool chooseKernel(const QString &explicitImage, KernelChoice *out, QString *error, const QString &bootDir,
                  const QString &modulesRoot)
{
    const QString boot = bootDir.isEmpty() ? QStringLiteral("/boot") : bootDir;
    const QString modRoot = modulesRoot.isEmpty() ? QStringLiteral("/lib/modules") : modulesRoot;
    KernelChoice k;
    if (!explicitImage.isEmpty()) {
        k.image = explicitImage;
        const QString name = QFileInfo(explicitImage).fileName();
        k.version = name.startsWith(QLatin1String("vmlinuz-")) ? name.mid(8) : QSysInfo::kernelVersion();
        k.modulesDir = modRoot + QLatin1Char('/') + k.version;
        if (!QFileInfo::exists(explicitImage)) {
            *error = QStringLiteral("no kernel at %1: give an existing kernel image with --kernel").arg(explicitImage);
            return false;
        }
        if (!kernelReadable(k.image, error))
            return false;
        if (!QFileInfo(k.modulesDir).isDir()) {
            *error = QStringLiteral("no modules for kernel %1 (%2 is missing): give a kernel with --kernel whose "
                                    "modules are installed (Debian: linux-image-amd64)")
                         .arg(explicitImage, k.modulesDir);
            return false;
        }
    } else {
        const QStringList images = QDir(boot).entryList({QStringLiteral("vmlinuz-*")}, QDir::Files);
        for (const QString &name : images) {
            const QString version = name.mid(8);
            if (!QFileInfo(modRoot + QLatin1Char('/') + version).isDir())
                continue;
            if (k.version.isEmpty() || newerVersion(version, k.version)) {
                k.version = version;
                k.image = boot + QLatin1Char('/') + name;
            }
        }
        if (k.image.isEmpty()) {
            *error = QStringLiteral("no kernel in %1 with its modules in %2: install one (Debian: apt-get install "
                                    "linux-image-amd64) or give one with --kernel")
                         .arg(boot, modRoot);
            return false;
        }
        k.modulesDir = modRoot + QLatin1Char('/') + k.version;
    }
    if (!kernelReadable(k.image, error))
        return false;
    *out = k;
    return true;
}

bool resolveModules(const QString &modulesDir, const QStringList &wanted, QStringList *ordered, QString *error)
{
    QFile depFile(modulesDir + QStringLiteral("/modules.dep"));
    if (!depFile.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: the kernel's modules are not installed").arg(depFile.fileName());
        return false;
    }
    QHash<QString, QString> pathOf;
    QHash<QString, QStringList> depsOf;
    while (!depFile.atEnd()) {
        const QString line = QString::fromUtf8(depFile.readLine()).trimmed();
        const int colon = line.indexOf(QLatin1Char(':'));
        if (colon <= 0)
            continue;
        const QString path = line.left(colon);
        const QString key = moduleKey(path);
        pathOf.insert(key, path);
        depsOf.insert(key, line.mid(colon + 1).split(QLatin1Char(' '), Qt::SkipEmptyParts));
    }
    QSet<QString> builtin;
    QFile builtinFile(modulesDir + QStringLiteral("/modules.builtin"));
    if (builtinFile.open(QIODevice::ReadOnly)) {
        while (!builtinFile.atEnd())
            builtin.insert(moduleKey(QString::fromUtf8(builtinFile.readLine()).trimmed()));
    }
    QStringList out;
    QSet<QString> done;
    std::function<void(const QString &)> visit = [&](const QString &key) {
        if (done.contains(key))
            return;
        done.insert(key);
        for (const QString &dep : depsOf.value(key))
            visit(moduleKey(dep));
        if (pathOf.contains(key))
            out.append(pathOf.value(key));
    };
    for (const QString &w : wanted) {
        const QString key = moduleKey(w);
        if (builtin.contains(key))
            continue;
        if (!pathOf.contains(key)) {
            *error = QStringLiteral("the kernel in %1 has no module %2 (Debian's cloud kernel lacks some adapters): "
                                    "install linux-image-amd64 or give another kernel with --kernel")
                         .arg(modulesDir, w);
            return false;
        }
        visit(key);
    }
    for (const QString &p : out) {
        if (!p.endsWith(QLatin1String(".ko"))) {
            *error = QStringLiteral("module %1 is compressed; the lab loads plain .ko files only").arg(p);
            return false;
        }
    }
    *ordered = out;
    return true;
}

bool isStaticExecutable(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray h = f.read(64);
    // 64-bit little-endian ELF only: the lab runs x86-64 guests.
    if (h.size() < 64 ||
        !h.startsWith("\x7f"
                      "ELF") ||
        h.at(4) != 2 || h.at(5) != 1)
        return false;
    auto u16 = [](const char *p) { return unsigned(quint8(p[0])) | unsigned(quint8(p[1])) << 8; };
    quint64 phoff = 0;
    std::memcpy(&phoff, h.constData() + 0x20, sizeof phoff);
    const unsigned phentsize = u16(h.constData() + 0x36);
    const unsigned phnum = u16(h.constData() + 0x38);
    if (phentsize < 4 || phnum > 256 || !f.seek(qint64(phoff)))
        return false;
    const QByteArray table = f.read(qint64(phentsize) * phnum);
    if (table.size() != qsizetype(phentsize * phnum))
        return false;
    for (unsigned i = 0; i < phnum; ++i) {
        quint32 type = 0;
        std::memcpy(&type, table.constData() + i * phentsize, sizeof type);
        if (type == 3) // PT_INTERP: needs a dynamic loader
            return false;
    }
    return true;
}

void CpioWriter::add(const QString &path, unsigned mode, const QByteArray &data, int rmajor, int rminor)
{
    const QByteArray name = path.toUtf8();
    const QByteArray header =
        QByteArray("070701") + QByteArray::number(m_inode++, 16).rightJustified(8, '0') +
        QByteArray::number(mode, 16).rightJustified(8, '0') + QByteArray(8, '0') + // uid
        QByteArray(8, '0') +                                                       // gid
        QByteArray::number(1, 16).rightJustified(8, '0') +                         // nlink
        QByteArray(8, '0') +                                                       // mtime
        QByteArray::number(qulonglong(data.size()), 16).rightJustified(8, '0') + QByteArray(8, '0') +
        QByteArray(8, '0') + // device
        QByteArray::number(rmajor, 16).rightJustified(8, '0') + QByteArray::number(rminor, 16).rightJustified(8, '0') +
        QByteArray::number(qulonglong(name.size() + 1), 16).rightJustified(8, '0') + QByteArray(8, '0'); // check
    m_out += header;
    m_out += name;
    m_out += '\0';
    while (m_out.size() % 4)
        m_out += '\0';
    m_out += data;
    while (m_out.size() % 4)
        m_out += '\0';
}

void CpioWriter::addDirectory(const QString &path)
{
    add(path, 0040755, {}, 0, 0);
}

void CpioWriter::addFile(const QString &path, const QByteArray &data, int mode)
{
    add(path, 0100000 | unsigned(mode), data, 0, 0);
}

void CpioWriter::addCharDevice(const QString &path, int major, int minor, int mode)
{
    add(path, 0020000 | unsigned(mode), {}, major, minor);
}

QByteArray CpioWriter::finish()
{
    add(QStringLiteral("TRAILER!!!"), 0, {}, 0, 0);
    return m_out;
}

QStringList baseModules()
{
    return {QStringLiteral("virtio_pci"), QStringLiteral("9pnet_virtio"), QStringLiteral("9p")};
}

bool checkBusybox(const QString &busybox, QString *error)
{
    if (QFileInfo::exists(busybox) && isStaticExecutable(busybox))
        return true;
    *error = QStringLiteral("no static busybox at %1: install the package busybox-static").arg(busybox);
    return false;
}

bool buildInitramfs(const KernelChoice &kernel, const QStringList &adapterModules, const QString &busybox,
                    const QString &outputPath, QString *error)
{
    if (!checkBusybox(busybox, error))
        return false;
    QStringList modules;
    if (!resolveModules(kernel.modulesDir, baseModules() + adapterModules, &modules, error))
        return false;
    CpioWriter cpio;
    for (const char *d : {"bin", "dev", "proc", "sys", "newroot", "modules"})
        cpio.addDirectory(QString::fromLatin1(d));
    cpio.addCharDevice(QStringLiteral("dev/console"), 5, 1, 0600);
    QFile bb(busybox);
    if (!bb.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1").arg(busybox);
        return false;
    }
    cpio.addFile(QStringLiteral("bin/busybox"), bb.readAll(), 0755);
    QStringList order;
    for (const QString &m : modules) {
        QFile f(kernel.modulesDir + QLatin1Char('/') + m);
        if (!f.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read the module %1").arg(f.fileName());
            return false;
        }
        const QString name = QFileInfo(m).fileName();
        cpio.addFile(QStringLiteral("modules/") + name, f.readAll(), 0644);
        order << name;
    }
    cpio.addFile(QStringLiteral("modules/order"), (order.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8(), 0644);
    cpio.addFile(QStringLiteral("init"), initScript().toUtf8(), 0755);
    QSaveFile out(outputPath);
    if (!out.open(QIODevice::WriteOnly) || out.write(cpio.finish()) < 0 || !out.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(outputPath, out.errorString());
        return false;
    }
    return true;
}

} // namespace nb::lab
