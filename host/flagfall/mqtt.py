"""MQTT for live boards (paho-mqtt): a publisher for bridges, a subscriber for broadcast servers.

Topics and payloads are docs/live-state.md: a board's latest state is
retained (QoS 1) on flagfall/<tournament>/<round>/<board>/state, each event
goes (not retained) to .../event, and arbiter commands reach the board's
bridge on .../command. A broadcast server that subscribes late gets every
board's latest state from the broker at once (retained messages).

Both classes run paho's network loop in its own thread and reconnect by
themselves; the subscriber hands each message to a callback (for the
broadcast server: Hub.ingest on its event loop, thread-safely).
"""
import json
import logging
import threading

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from flagfall import live

log = logging.getLogger("flagfall.mqtt")

DEFAULT_PORT = 1883
MAX_PAYLOAD = 2 * 1024 * 1024


def parse_url(text):
    """(host, port) from 'mqtt://host:port', 'host:port' or 'host'."""
    t = text.strip()
    if t.startswith("mqtt://"):
        t = t[7:]
    t = t.rstrip("/")
    host, sep, port = t.rpartition(":")
    if not sep:
        return t, DEFAULT_PORT
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("bad MQTT port in %r" % text)
    return host.strip("[]") or "127.0.0.1", int(port)


class _Client:
    def __init__(self, host, port, client_id, keepalive=30):
        self.host, self.port = host, port
        self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id or "", clean_session=True)
        self.client.reconnect_delay_set(min_delay=1, max_delay=10)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.connected = threading.Event()
        self.keepalive = keepalive

    def start(self, timeout=10.0):
        """Connect and run the network loop in a thread; waits up to timeout for the broker."""
        self.client.connect_async(self.host, self.port, self.keepalive)
        self.client.loop_start()
        if timeout and not self.connected.wait(timeout):
            self.stop()
            raise ConnectionError("no MQTT broker answered at %s:%d within %.0f s" % (self.host, self.port, timeout))
        return self

    def stop(self):
        """Disconnect and stop the network thread."""
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            log.warning("MQTT connect to %s:%d refused: %s", self.host, self.port, reason_code)
            return
        self.connected.set()
        self.on_connected()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.connected.clear()

    def on_connected(self):
        """Subscribe here (runs again after every reconnection)."""


class Publisher(_Client):
    """A bridge's link to the broker: states (retained), events, and arbiter commands back in."""

    def __init__(self, host="127.0.0.1", port=DEFAULT_PORT, client_id=None, on_command=None):
        super().__init__(host, port, client_id)
        self.on_command = on_command   # callable(key, cmd dict) for commands sent to our boards
        self.boards = set()
        self.published = 0
        self.client.on_message = self._on_message
        self.lock = threading.Lock()

    def on_connected(self):
        with self.lock:
            keys = list(self.boards)
        for key in keys:
            self.client.subscribe(live.command_topic(*key), qos=1)

    def publish_state(self, state):
        """Publish a board's state (retained, QoS 1); returns paho's MQTTMessageInfo."""
        key = live.key_of(state)
        self._watch(key)
        self.published += 1
        return self.client.publish(live.state_topic(*key), live.dumps(state), qos=1, retain=True)

    # bridges and the hub share one sink signature: a callable taking a state
    __call__ = publish_state

    def publish_event(self, key, event):
        """Publish one event of a board (not retained)."""
        return self.client.publish(live.event_topic(*key), live.dumps(event), qos=1, retain=False)

    def clear(self, key):
        """Remove a board's retained state from the broker (an empty retained message)."""
        return self.client.publish(live.state_topic(*key), b"", qos=1, retain=True)

    def _watch(self, key):
        with self.lock:
            if key in self.boards:
                return
            self.boards.add(key)
        if self.on_command is not None and self.connected.is_set():
            self.client.subscribe(live.command_topic(*key), qos=1)

    def _on_message(self, client, userdata, msg):
        if self.on_command is None:
            return
        try:
            t, r, b, kind = live.parse_topic(msg.topic)
            if kind != "command":
                return
            cmd = live.validate_command(json.loads(msg.payload))
        except ValueError as e:
            log.warning("ignored command on %s: %s", msg.topic[:200], e)
            return
        try:
            self.on_command((t, r, b), cmd)
        except Exception:
            log.exception("command handler failed")


class Subscriber(_Client):
    """A broadcast server's feed: every state under a tournament (or all) goes to on_state(dict)."""

    def __init__(self, on_state, host="127.0.0.1", port=DEFAULT_PORT, tournament=None, round_=None,
                 client_id=None):
        super().__init__(host, port, client_id)
        self.on_state = on_state
        self.filter = live.topic_filter(tournament, round_, "state")
        self.client.on_message = self._on_message
        self.received = 0
        self.rejected = 0

    def on_connected(self):
        self.client.subscribe(self.filter, qos=1)

    def _on_message(self, client, userdata, msg):
        if not msg.payload:
            return  # a cleared retained state
        try:
            live.parse_topic(msg.topic)
            if len(msg.payload) > MAX_PAYLOAD:
                raise ValueError("payload of %d bytes is too large" % len(msg.payload))
            state = live.validate_state(json.loads(msg.payload))
            if "/".join(live.key_of(state)) != "/".join(msg.topic.split("/")[1:4]):
                raise ValueError("state for %s on topic %s" % ("/".join(live.key_of(state)), msg.topic))
        except ValueError as e:
            self.rejected += 1
            log.warning("ignored message on %s: %s", msg.topic[:200], e)
            return
        self.received += 1
        self.on_state(state)

    def send_command(self, key, cmd):
        """Forward an arbiter command to a board's bridge; returns a reply dict for the server."""
        if not self.connected.is_set():
            raise LookupError("the MQTT broker is not connected: command not sent")
        info = self.client.publish(live.command_topic(*key), live.dumps(cmd), qos=1)
        if info.rc != paho.MQTT_ERR_SUCCESS:
            raise LookupError("MQTT publish failed (%s)" % paho.error_string(info.rc))
        return {"forwarded": "mqtt", "topic": live.command_topic(*key)}


def feed_hub(hub, loop, **kwargs):
    """A Subscriber (call .start()) that puts every state into hub (on loop) and carries its arbiter commands."""
    sub = Subscriber(lambda st: loop.call_soon_threadsafe(hub.ingest, st, False), **kwargs)
    hub.command_sink = sub.send_command
    return sub
