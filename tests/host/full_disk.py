"""Full disks for the tests. Tmpfs: a small real filesystem that fills up (root only). And a command
wrapper: `python full_disk.py FOLDER TRIGGER flagfall-args...` runs the flagfall command with a disk that fills up.

While the file TRIGGER exists, every fsync of a file under FOLDER fails with ENOSPC ("No space left on
device"), as on a full disk: what the writer wrote is not known to be on the disk, so the journal and
the record writer treat it as refused. The tests of the journal mirror run the real event under it.
"""
import errno
import os
import subprocess
import sys
import threading


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


class Tmpfs:
    """A real disk that fills up: a small tmpfs mounted on `path` (mounting needs root, as the tests and
    CI run here). fill() writes a filler file until the kernel answers ENOSPC, so every write that
    needs a new page fails as on a full disk, and takes the disk's last inodes with empty files, so that
    a new file or folder is refused too, as a full ext4 or XFS disk refuses them; free() deletes the
    fillers. Use it as a context manager: the mount is always undone."""

    INODES = 256        # the files and folders the disk holds (tmpfs's nr_inodes): few, filled fast

    def __init__(self, path, size_kb=4096):
        self.path = os.path.abspath(path)
        self.size_kb = size_kb
        self.filler = os.path.join(self.path, ".filler")
        self.inode_fillers = []
        self._topper = None
        self._stop = threading.Event()

    def __enter__(self):
        os.makedirs(self.path, exist_ok=True)
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%dk,nr_inodes=%d,mode=0755" % (self.size_kb, self.INODES),
                            "tmpfs", self.path], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("the full-disk tests mount a small tmpfs (`mount -t tmpfs`), which needs root "
                               "(uid %d here): run them as root, as CI does, or in a container with "
                               "CAP_SYS_ADMIN (mount said: %s)" % (os.getuid(), (r.stderr or r.stdout).strip()))
        return self

    def __exit__(self, *exc):
        if self._topper is not None:
            self._stop.set()
            self._topper.join()
        subprocess.run(["umount", "-l", self.path], capture_output=True)

    def fill(self):
        """Write the filler until the disk refuses, then make empty files until it refuses a new one:
        the disk is full from now on, for new files and folders too."""
        block = b"\0" * 65536
        with open(self.filler, "ab", buffering=0) as f:
            while True:
                try:
                    f.write(block)
                except OSError as e:
                    if e.errno != errno.ENOSPC:
                        raise
                    if len(block) == 1:
                        break
                    block = block[:len(block) // 2]
        while True:
            path = "%s-%d" % (self.filler, len(self.inode_fillers))
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
            except OSError as e:
                if e.errno != errno.ENOSPC:
                    raise
                return
            self.inode_fillers.append(path)

    def keep_full(self):
        """Fill the disk now and again every 50 ms until free(): room that a writer gives back (a file
        truncated, a half-written file removed) is taken again at once, as by whatever filled the disk."""
        self.fill()
        self._stop.clear()

        def top_up():
            while not self._stop.wait(0.05):
                self.fill()
        self._topper = threading.Thread(target=top_up, daemon=True)
        self._topper.start()

    def free(self):
        """The disk has room again."""
        if self._topper is not None:
            self._stop.set()
            self._topper.join()
            self._topper = None
        os.remove(self.filler)
        for path in self.inode_fillers:
            os.remove(path)
        self.inode_fillers = []


if __name__ == "__main__":
    install(sys.argv[1], sys.argv[2])
    from flagfall import cli
    sys.exit(cli.main(sys.argv[3:]))
