"""Run the flagfall command with a disk that fills up: `python full_disk.py FOLDER TRIGGER flagfall-args...`.

While the file TRIGGER exists, every fsync of a file under FOLDER fails with ENOSPC ("No space left on
device"), as on a full disk: what the writer wrote is not known to be on the disk, so the journal and
the record writer treat it as refused. The tests of the journal mirror run the real event under it.
"""
import errno
import os
import sys


def install(folder, trigger):
    folder = os.path.abspath(folder) + os.sep
    real = os.fsync

    def fsync(fd):
        if os.path.exists(trigger):
            try:
                path = os.readlink("/proc/self/fd/%d" % fd)
            except OSError:
                path = ""
            if path.startswith(folder):
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)
    os.fsync = fsync


if __name__ == "__main__":
    install(sys.argv[1], sys.argv[2])
    from flagfall import cli
    sys.exit(cli.main(sys.argv[3:]))
