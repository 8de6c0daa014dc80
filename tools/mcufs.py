# A read-only file system for the qemu port (tools/mcu.py), frozen into its image with the files it
# serves: the firmware and the core tests compiled to .mpy, boards/ and seeds/. The files are bytes
# constants of the frozen module `mcufiles` (FILES: {path: bytes}), so they sit in the image's flash as
# a deployed device's files sit in its flash file system; opening one gives a stream (io.BytesIO over
# the constant), so an import copies the module's code into the heap as it does from a Pico's littlefs.
# Why not mpremote's `mount`: QEMU's emulated UART moves about 20 KB/s, and importing the core modules
# over it took seconds per interpreter.
import io
import vfs

from mcufiles import FILES


class FilesFS:
    def __init__(self):
        self.cwd = ""

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def _path(self, path):
        if not path.startswith("/"):
            path = self.cwd + "/" + path
        parts = []
        for p in path.split("/"):
            if p == "..":
                if parts:
                    parts.pop()
            elif p and p != ".":
                parts.append(p)
        return "/".join(parts)

    def chdir(self, path):
        self.cwd = "/" + self._path(path)

    def getcwd(self):
        return self.cwd or "/"

    def _isdir(self, p):
        pre = p + "/" if p else ""
        for name in FILES:
            if name.startswith(pre):
                return True
        return False

    def stat(self, path):
        p = self._path(path)
        if p in FILES:
            return (0x8000, 0, 0, 0, 0, 0, len(FILES[p]), 0, 0, 0)
        if self._isdir(p):
            return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(2)

    def ilistdir(self, path):
        p = self._path(path)
        pre = p + "/" if p else ""
        seen = []
        for name in FILES:
            if name.startswith(pre):
                rest = name[len(pre):]
                first = rest.split("/")[0]
                if first not in seen:
                    seen.append(first)
                    yield (first, 0x4000 if "/" in rest else 0x8000, 0)

    def open(self, path, mode):
        p = self._path(path)
        if p not in FILES:
            raise OSError(2)
        if "w" in mode or "a" in mode or "+" in mode:
            raise OSError(30)     # EROFS
        if "b" in mode:
            return io.BytesIO(FILES[p])
        return io.StringIO(str(FILES[p], "utf-8"))


def mount(point="/files"):
    """Mount the files at `point` and make it the current folder."""
    import os
    vfs.mount(FilesFS(), point)
    os.chdir(point)
