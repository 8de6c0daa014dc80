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


MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd"


@contextlib.contextmanager
def mosquitto(users=None, acl=None, tls=None):
    """Yield the port of a fresh broker (loopback only, no persistence); stop it after.

    Anonymous by default. users: {name: password} -> `allow_anonymous false` with a
    password_file made by mosquitto_passwd; acl: the text of an acl_file; tls:
    (cafile, certfile, keyfile) -> a TLS listener.
    """
    if not os.access(MOSQUITTO, os.X_OK):
        raise RuntimeError(INSTALL)
    with tempfile.TemporaryDirectory() as d:
        port = free_port()
        conf = os.path.join(d, "mosquitto.conf")
        lines = ["listener %d 127.0.0.1" % port, "persistence false", "log_dest file %s" % os.path.join(d, "log")]
        if users:
            if not os.access(MOSQUITTO_PASSWD, os.X_OK):
                raise RuntimeError(INSTALL.replace(MOSQUITTO, MOSQUITTO_PASSWD))
            pw = os.path.join(d, "passwd")
            open(pw, "w").close()
            for name, password in users.items():
                subprocess.run([MOSQUITTO_PASSWD, "-b", pw, name, password], check=True, capture_output=True)
            os.chmod(pw, 0o644)     # mosquitto started as root reads it as its own user
            lines += ["allow_anonymous false", "password_file %s" % pw]
        else:
            lines.append("allow_anonymous true")
        if acl is not None:
            af = os.path.join(d, "acl")
            with open(af, "w") as f:
                f.write(acl)
            os.chmod(af, 0o644)
            lines.append("acl_file %s" % af)
        if tls:
            lines += ["cafile %s" % tls[0], "certfile %s" % tls[1], "keyfile %s" % tls[2]]
        with open(conf, "w") as f:
            f.write("\n".join(lines) + "\n")
        os.chmod(d, 0o755)
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
