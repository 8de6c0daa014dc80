"""A real Mosquitto broker on a free loopback port, started by the tests that need one."""
import contextlib
import os
import socket
import subprocess
import tempfile
import time

MOSQUITTO = "/usr/sbin/mosquitto"
INSTALL = ("the MQTT tests need the Mosquitto broker at %s: install it with "
           "`sudo apt-get install mosquitto` (or run `make setup`, which does)" % MOSQUITTO)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@contextlib.contextmanager
def mosquitto():
    """Yield the port of a fresh broker (anonymous, loopback only, no persistence); stop it after."""
    if not os.access(MOSQUITTO, os.X_OK):
        raise RuntimeError(INSTALL)
    with tempfile.TemporaryDirectory() as d:
        port = free_port()
        conf = os.path.join(d, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n"
                    "log_dest file %s\n" % (port, os.path.join(d, "log")))
        proc = subprocess.Popen([MOSQUITTO, "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    if proc.poll() is not None:
                        raise RuntimeError("mosquitto exited at start: %s" % proc.stderr.read().decode()[-500:])
                    if time.monotonic() > deadline:
                        raise RuntimeError("mosquitto did not listen on port %d within 10 s" % port)
                    time.sleep(0.05)
            yield port
        finally:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
