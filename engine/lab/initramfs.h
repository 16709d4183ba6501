// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a lab guest boots: the host's Debian kernel and an initramfs made here from
// busybox-static and that kernel's own modules. The initramfs loads the virtio, 9p and
// adapter drivers, mounts the host's root read-only over virtio-9p (tmpfs where a guest
// writes) and the guest's own state folder read-write, then hands over to the guest's
// agent script in that folder (labcontrol.cpp writes it).

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace nb::lab {

struct KernelChoice {
    QString image;      // /boot/vmlinuz-6.1.0-57-amd64
    QString version;    // 6.1.0-57-amd64
    QString modulesDir; // /lib/modules/6.1.0-57-amd64
};

// `explicitImage` when given (its modules from /lib/modules/<version in its name>, else from
// the running kernel's version), else the newest /boot/vmlinuz-* whose /lib/modules/<version>
// exists. Checks that the image can be read. One line in *error naming the fix.
bool chooseKernel(const QString &explicitImage, KernelChoice *out, QString *error, const QString &bootDir = {},
                  const QString &modulesRoot = {});

// The modules to load, dependencies first, as paths relative to modulesDir, for the wanted
// module names ("e1000e", "9p"); modules built into the kernel are left out. Reads
// modules.dep and modules.builtin. Fails naming a module the kernel has neither way.
bool resolveModules(const QString &modulesDir, const QStringList &wanted, QStringList *ordered, QString *error);

// True when the ELF file at `path` has no program interpreter (a static binary).
bool isStaticExecutable(const QString &path);

// A "newc" cpio archive, the format the kernel unpacks as an initramfs.
class CpioWriter {
public:
    void addDirectory(const QString &path);
    void addFile(const QString &path, const QByteArray &data, int mode);
    void addCharDevice(const QString &path, int major, int minor, int mode);
    QByteArray finish(); // appends the trailer

private:
    void add(const QString &path, unsigned mode, const QByteArray &data, int rmajor, int rminor);
    QByteArray m_out;
    unsigned m_inode = 1;
};

// True when `busybox` is a static busybox (busybox-static); else one line naming the package.
bool checkBusybox(const QString &busybox, QString *error);

// The modules every guest needs besides its adapter's: virtio-pci and 9p over virtio.
QStringList baseModules();

// Builds the initramfs for `kernel` with `adapterModules` (module names) into `outputPath`.
bool buildInitramfs(const KernelChoice &kernel, const QStringList &adapterModules, const QString &busybox,
                    const QString &outputPath, QString *error);

} // namespace nb::lab
