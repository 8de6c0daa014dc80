"""MQTT for live boards (paho-mqtt): a publisher for bridges, a subscriber for broadcast servers.

Topics and payloads are docs/live-state.md: a board's latest state is
retained (QoS 1) on flagfall/<tournament>/<round>/<board>/state, each event
goes (not retained) to .../event, and arbiter commands reach the board's
bridge on .../command. A broadcast server that subscribes late gets every
board's latest state from the broker at once (retained messages).

Both classes run paho's network loop in its own thread and reconnect by
themselves; the subscriber hands each message to a callback (for the
broadcast server: Hub.ingest on its event loop, thread-safely).

Security (docs/broadcast.md, "MQTT security"):
  * the broker: `mqtt://[user[:password]@]host[:port]` or `mqtts://...` (TLS,
    port 8883 by default, a CA file for a private CA); the password may come
    from $FLAGFALL_MQTT_PASSWORD instead of the URL, so that `ps` does not show it;
  * arbiter commands are signed: the payload on a command topic is
    {"cmd": {...}, "ts": epoch ms, "sig": hex HMAC-SHA256} over the canonical
    JSON of {"board": "t/r/b", "cmd", "ts"} with a shared key (an event key,
    or the arbiter token). A bridge refuses an unsigned, wrongly signed,
    stale (more than MAX_SKEW_MS off its clock) or repeated command, and says so;
    a command carried out is journaled with its signature as its "id", and a
    restarted bridge or event fills Publisher.seen from its journals
    (journal.command_ids), so a replay right after a restart is refused too;
  * states are signed the same way when the publisher has a key ("sig" over
    the state without it); a subscriber with the key refuses a state with a
    wrong signature (with require_signed, an unsigned one too), and every
    subscriber refuses a state stamped far in the future or whose seq jumps
    implausibly far ahead of the board's last one.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import threading
import time
import urllib.parse
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Self, Sequence, Union

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from flagfall import live
from flagfall.secretfile import read_secret

if TYPE_CHECKING:
    import asyncio

    from paho.mqtt.client import ConnectFlags, DisconnectFlags, MQTTMessage, MQTTMessageInfo
    from paho.mqtt.properties import Properties
    from paho.mqtt.reasoncodes import ReasonCode

    from flagfall.broadcast.hub import Hub

BoardKey = tuple[str, str, str]
"""A board: (tournament, round, board), as live.key_of gives it."""

log = logging.getLogger("flagfall.mqtt")

DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
MAX_PAYLOAD = 2 * 1024 * 1024
PASSWORD_ENV = "FLAGFALL_MQTT_PASSWORD"
KEY_ENV = "FLAGFALL_MQTT_KEY"
MAX_SKEW_MS = 30000            # a signed command older (or newer) than this is refused
MAX_FUTURE_MS = 120000         # a state stamped further ahead than this is refused
MAX_SEQ = 2 ** 40              # no bridge counts this far (a state per ms for 34 years)
SEQ_RATE = 0.1                 # a board's seq may grow by 1000 + this per ms since its last state


class Broker:
    """Where and how to connect: host, port, user name, password, TLS and its CA file."""

    def __init__(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT, username: Optional[str] = None,
                 password: Optional[str] = None, tls: bool = False, ca: Optional[str] = None) -> None:
        self.host, self.port = host, port
        self.username, self.password = username, password
        self.tls, self.ca = tls or bool(ca), ca

    def url(self) -> str:
        """The broker's URL without the password (for messages)."""
        user = (urllib.parse.quote(self.username, safe="") + "@") if self.username else ""
        host = "[%s]" % self.host if ":" in self.host else self.host
        return "%s://%s%s:%d" % ("mqtts" if self.tls else "mqtt", user, host, self.port)


def parse_broker(text: str, ca: Optional[str] = None, env: Optional[Mapping[str, str]] = None) -> Broker:
    """A Broker from 'mqtt://[user[:password]@]host[:port]', 'mqtts://...', 'host:port' or 'host'.

    The password may instead come from $FLAGFALL_MQTT_PASSWORD (env: a dict, default os.environ);
    the URL's own password wins. ca: a CA certificate file for mqtts (implies TLS).
    """
    env = os.environ if env is None else env
    t = text.strip()
    scheme = "mqtt"
    if "://" in t:
        scheme, _, t = t.partition("://")
        scheme = scheme.lower()
        if scheme not in ("mqtt", "mqtts", "tcp", "ssl"):
            raise ValueError("MQTT URL %r: the scheme must be mqtt:// or mqtts://" % text)
    tls = scheme in ("mqtts", "ssl") or bool(ca)
    t = t.rstrip("/")
    user: Optional[str] = None
    password: Optional[str] = None
    if "@" in t:
        cred, _, t = t.rpartition("@")
        user, sep, pw = cred.partition(":")
        user = urllib.parse.unquote(user) or None
        password = urllib.parse.unquote(pw) if sep else None
    if user and password is None:
        password = env.get(PASSWORD_ENV) or None
    if t.startswith("["):                       # [::1]:1883
        host, _, rest = t[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif t.count(":") == 1:
        host, _, port = t.partition(":")
    else:
        host, port = t, ""
    if port and (not port.isdigit() or not 0 < int(port) < 65536):
        raise ValueError("bad MQTT port in %r" % text.replace(password or "\0", "***"))
    if ca and not os.path.isfile(ca):
        raise ValueError("the MQTT CA file %s does not exist" % ca)
    return Broker(host or "127.0.0.1", int(port) if port else (DEFAULT_TLS_PORT if tls else DEFAULT_PORT),
                  user, password, tls, ca)


def parse_url(text: str) -> tuple[str, int]:
    """(host, port) from 'mqtt://host:port', 'host:port' or 'host' (see parse_broker for the rest)."""
    b = parse_broker(text, env={})
    return b.host, b.port


def read_key(path: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
             fallback_env: Optional[str] = None) -> Optional[str]:
    """The shared signing key: the first line of a file, else $FLAGFALL_MQTT_KEY, else fallback_env's value."""
    env = os.environ if env is None else env
    if path:
        return read_secret(path, "key")
    return env.get(KEY_ENV) or (env.get(fallback_env) if fallback_env else None) or None


def _canonical(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True, ensure_ascii=True)


def _mac(key: str, obj: object) -> str:
    return hmac.new(key.encode(), _canonical(obj).encode(), hashlib.sha256).hexdigest()


def sign_command(key: str, board: Union[str, Sequence[str]], cmd: live.Message,
                 ts: Optional[int] = None) -> live.Message:
    """The signed payload (dict) of an arbiter command for board (a key tuple or 't/r/b')."""
    board = board if isinstance(board, str) else "/".join(board)
    ts = live.now_ms() if ts is None else ts
    return {"cmd": cmd, "ts": ts, "sig": _mac(key, {"board": board, "cmd": cmd, "ts": ts})}


def verify_command(key: Optional[str], board: Union[str, Sequence[str]], payload: object,
                   now: Optional[int] = None, seen: Optional[dict[str, int]] = None) -> live.Message:
    """The command inside a signed payload; ValueError saying why it is refused.

    seen: a dict of signatures already obeyed (kept by the caller) to refuse a replay.
    """
    board = board if isinstance(board, str) else "/".join(board)
    if not isinstance(payload, dict) or "sig" not in payload:
        raise ValueError("unsigned command refused (commands must be signed with the event key)")
    cmd, ts, sig = payload.get("cmd"), payload.get("ts"), payload.get("sig")
    if not isinstance(cmd, dict) or not isinstance(ts, int) or isinstance(ts, bool) or not isinstance(sig, str):
        raise ValueError("malformed signed command (needs cmd, ts, sig)")
    if key is None:
        raise ValueError("command refused: this bridge has no key to check signatures with "
                         "(--mqtt-key-file, $%s or $FLAGFALL_TOKEN)" % KEY_ENV)
    if not hmac.compare_digest(sig, _mac(key, {"board": board, "cmd": cmd, "ts": ts})):
        raise ValueError("command with a wrong signature refused (another key, another board, or altered)")
    now = live.now_ms() if now is None else now
    if abs(now - ts) > MAX_SKEW_MS:
        raise ValueError("stale command refused: signed %.0f s %s (at most %d s; are the clocks synchronised?)"
                         % (abs(now - ts) / 1000.0, "ago" if ts < now else "in the future", MAX_SKEW_MS // 1000))
    if seen is not None:
        for s in [s for s, t in seen.items() if abs(now - t) > 2 * MAX_SKEW_MS]:
            del seen[s]
        if sig in seen:
            raise ValueError("repeated command refused (the same signed command was already carried out)")
        seen[sig] = ts
    return cmd


def sign_state(key: str, state: live.Message) -> live.Message:
    """A copy of state with "sig": HMAC-SHA256 over the state without it."""
    st = dict(state)
    st.pop("sig", None)
    st["sig"] = _mac(key, st)
    return st


def check_state(state: live.Message, key: Optional[str] = None, require_signed: bool = False,
                prev: Optional[tuple[int, int]] = None, now: Optional[int] = None) -> live.Message:
    """The state without its "sig" if it is believable; ValueError saying why not.

    prev: (seq, ts) of the board's last accepted state, or None.
    """
    sig = state.get("sig")
    if sig is not None or require_signed:
        if key is None or not isinstance(sig, str):
            if require_signed:
                raise ValueError("unsigned state refused (signed states are required)")
        else:
            body = dict(state)
            del body["sig"]
            if not hmac.compare_digest(sig, _mac(key, body)):
                raise ValueError("state with a wrong signature refused")
            state = body
    if "sig" in state:
        state = dict(state)
        del state["sig"]
    now = live.now_ms() if now is None else now
    ts, seq = state.get("ts"), state.get("seq")
    if isinstance(ts, int) and ts > now + MAX_FUTURE_MS:
        raise ValueError("state stamped %.0f s in the future refused (at most %d s; clocks not synchronised, "
                         "or forged)" % ((ts - now) / 1000.0, MAX_FUTURE_MS // 1000))
    if isinstance(seq, int):
        if seq > MAX_SEQ:
            raise ValueError("state with seq %d refused (implausibly large)" % seq)
        if prev is not None and isinstance(ts, int):
            allowed = prev[0] + 1000 + int(max(0, ts - prev[1]) * SEQ_RATE)
            if seq > allowed:
                raise ValueError("state refused: seq jumps from %d to %d (at most %d is plausible)"
                                 % (prev[0], seq, allowed))
    return state


class _Client:
    def __init__(self, host: str, port: int, client_id: Optional[str], keepalive: int = 30,
                 broker: Optional[Broker] = None) -> None:
        self.broker = broker or Broker(host, port)
        self.host, self.port = self.broker.host, self.broker.port
        self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id or "", clean_session=True)
        self.client.reconnect_delay_set(min_delay=1, max_delay=10)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        if self.broker.username:
            self.client.username_pw_set(self.broker.username, self.broker.password)
        if self.broker.tls:
            self.client.tls_set(ca_certs=self.broker.ca)
        self.connected = threading.Event()
        self.answered = threading.Event()
        self.refused: Optional[str] = None     # the broker's reason when it refused the connection
        self.keepalive = keepalive

    def start(self, timeout: float = 10.0) -> Self:
        """Connect and run the network loop in a thread; waits up to timeout for the broker."""
        try:
            self.client.connect_async(self.host, self.port, self.keepalive)
        except ValueError as e:
            raise ConnectionError("cannot connect to MQTT %s: %s" % (self.broker.url(), e))
        self.client.loop_start()
        if timeout and not self.answered.wait(timeout):
            self.stop()
            raise ConnectionError("no MQTT broker answered at %s:%d within %.0f s%s"
                                  % (self.host, self.port, timeout,
                                     " (TLS: is the broker's certificate signed by the CA given with --mqtt-ca, "
                                     "for this host name?)" if self.broker.tls else ""))
        if self.refused is not None and not self.connected.is_set():
            self.stop()
            raise ConnectionError("the MQTT broker at %s refused the connection: %s%s"
                                  % (self.broker.url(), self.refused,
                                     " (check the user name and password; the password may be given in $%s)"
                                     % PASSWORD_ENV if "authori" in self.refused.lower()
                                     or "password" in self.refused.lower() else ""))
        return self

    def stop(self) -> None:
        """Disconnect and stop the network thread."""
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()

    def _on_connect(self, client: paho.Client, userdata: Any, flags: ConnectFlags, reason_code: ReasonCode,
                    properties: Optional[Properties]) -> None:
        if reason_code.is_failure:
            log.warning("MQTT connect to %s refused: %s", self.broker.url(), reason_code)
            self.refused = str(reason_code)
            self.answered.set()
            return
        self.refused = None
        self.connected.set()
        self.answered.set()
        self.on_connected()

    def _on_disconnect(self, client: paho.Client, userdata: Any, flags: DisconnectFlags, reason_code: ReasonCode,
                       properties: Optional[Properties]) -> None:
        self.connected.clear()

    def on_connected(self) -> None:
        """Subscribe here (runs again after every reconnection)."""


class Publisher(_Client):
    """A bridge's link to the broker: states (retained), events, and arbiter commands back in."""

    def __init__(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT, client_id: Optional[str] = None,
                 on_command: Optional[Callable[[BoardKey, live.Message], object]] = None,
                 broker: Optional[Broker] = None, key: Optional[str] = None,
                 on_refused: Optional[Callable[[str, str], object]] = None) -> None:
        super().__init__(host, port, client_id, broker=broker)
        self.on_command = on_command   # callable(key, cmd dict) for commands sent to our boards
        self.on_refused = on_refused   # callable(topic, why) for a command that is not obeyed
        self.key = key                 # signs states, checks the signature of commands
        self.seen: dict[str, int] = {}   # signatures of the commands carried out (replays are refused)
        self.refused_commands = 0
        self.boards: set[BoardKey] = set()
        self.published = 0
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self.lock = threading.Lock()
        self.unanswered: set[int] = set()      # message ids of command subscriptions the broker has not acknowledged
        self.acknowledged: set[int] = set()    # acknowledgements that came before subscribe() returned
        self.subscribed = threading.Condition(self.lock)

    def on_connected(self) -> None:
        with self.lock:
            keys = list(self.boards)
        for key in keys:
            self._subscribe(key)

    def _subscribe(self, key: BoardKey) -> None:
        # not under self.lock: paho's network thread may be calling _on_subscribe meanwhile, even for
        # this very subscription (its acknowledgement can come before subscribe() returns)
        rc, mid = self.client.subscribe(live.command_topic(*key), qos=1)
        if rc == paho.MQTT_ERR_SUCCESS and mid is not None:
            with self.lock:
                if mid in self.acknowledged:
                    self.acknowledged.discard(mid)
                else:
                    self.unanswered.add(mid)

    def _on_subscribe(self, client: paho.Client, userdata: Any, mid: int, reason_codes: list[ReasonCode],
                      properties: Optional[Properties]) -> None:
        with self.lock:
            if mid in self.unanswered:
                self.unanswered.discard(mid)
            else:
                self.acknowledged.add(mid)
            self.subscribed.notify_all()

    def commands_ready(self, timeout: float = 5.0) -> bool:
        """Wait until the broker has acknowledged the command subscription of every board published so
        far (a command sent before that is not delivered: the session is clean); False on timeout."""
        end = time.monotonic() + timeout
        with self.lock:
            while self.unanswered or (self.on_command is not None and self.boards and not self.connected.is_set()):
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.subscribed.wait(min(left, 0.1))
        return True

    def publish_state(self, state: live.Message) -> MQTTMessageInfo:
        """Publish a board's state (retained, QoS 1); returns paho's MQTTMessageInfo."""
        key = live.key_of(state)
        self._watch(key)
        self.published += 1
        if self.key is not None:
            state = sign_state(self.key, state)
        return self.client.publish(live.state_topic(*key), live.dumps(state), qos=1, retain=True)

    # bridges and the hub share one sink signature: a callable taking a state
    __call__ = publish_state

    def publish_event(self, key: BoardKey, event: live.Message) -> MQTTMessageInfo:
        """Publish one event of a board (not retained)."""
        return self.client.publish(live.event_topic(*key), live.dumps(event), qos=1, retain=False)

    def clear(self, key: BoardKey) -> MQTTMessageInfo:
        """Remove a board's retained state from the broker (an empty retained message)."""
        return self.client.publish(live.state_topic(*key), b"", qos=1, retain=True)

    def _watch(self, key: BoardKey) -> None:
        with self.lock:
            if key in self.boards:
                return
            self.boards.add(key)
        if self.on_command is not None and self.connected.is_set():
            self._subscribe(key)

    def _on_message(self, client: paho.Client, userdata: Any, msg: MQTTMessage) -> None:
        if self.on_command is None:
            return
        try:
            t, r, b, kind = live.parse_topic(msg.topic)
            if kind != "command":
                return
            if (t, r, b) not in self.boards:
                raise ValueError("not one of this bridge's boards")
            if len(msg.payload) > 65536:
                raise ValueError("payload of %d bytes is too large" % len(msg.payload))
            payload = json.loads(msg.payload)
            cmd = verify_command(self.key, (t, r, b), payload, seen=self.seen)
            # its signature is its id: journaled with it, a restarted bridge knows it as carried out
            cmd = live.validate_command(dict(cmd, id=payload["sig"]))
        except ValueError as e:
            self.refused_commands += 1
            log.warning("refused command on %s: %s", msg.topic[:200], e)
            if self.on_refused is not None:
                try:
                    self.on_refused(msg.topic[:200], str(e))
                except Exception:
                    log.exception("refusal handler failed")
            return
        try:
            self.on_command((t, r, b), cmd)
        except Exception:
            log.exception("command handler failed")


class Subscriber(_Client):
    """A broadcast server's feed: every state under a tournament (or all) goes to on_state(dict)."""

    def __init__(self, on_state: Callable[[live.Message], object], host: str = "127.0.0.1",
                 port: int = DEFAULT_PORT, tournament: Optional[str] = None, round_: Optional[str] = None,
                 client_id: Optional[str] = None, broker: Optional[Broker] = None, key: Optional[str] = None,
                 require_signed: bool = False) -> None:
        super().__init__(host, port, client_id, broker=broker)
        self.on_state = on_state
        self.filter = live.topic_filter(tournament, round_, "state")
        self.client.on_message = self._on_message
        self.key = key                     # signs commands, checks the signature of states
        self.require_signed = require_signed
        self.last: dict[BoardKey, tuple[int, int]] = {}   # board key -> (seq, ts) of its last accepted state
        self.received = 0
        self.rejected = 0

    def on_connected(self) -> None:
        self.client.subscribe(self.filter, qos=1)

    def _on_message(self, client: paho.Client, userdata: Any, msg: MQTTMessage) -> None:
        if not msg.payload:
            return  # a cleared retained state
        try:
            live.parse_topic(msg.topic)
            if len(msg.payload) > MAX_PAYLOAD:
                raise ValueError("payload of %d bytes is too large" % len(msg.payload))
            state = live.validate_state(json.loads(msg.payload))
            key = live.key_of(state)
            if "/".join(key) != "/".join(msg.topic.split("/")[1:4]):
                raise ValueError("state for %s on topic %s" % ("/".join(key), msg.topic))
            prev = self.last.get(key)
            state = check_state(state, self.key, self.require_signed, prev)
        except ValueError as e:
            self.rejected += 1
            log.warning("ignored message on %s: %s", msg.topic[:200], e)
            return
        if prev is None or state["seq"] > prev[0] or state["ts"] > prev[1]:
            self.last[key] = (state["seq"], state["ts"])
        self.received += 1
        self.on_state(state)

    def send_command(self, key: BoardKey, cmd: live.Message) -> live.Message:
        """Forward an arbiter command to a board's bridge; returns a reply dict for the server."""
        if not self.connected.is_set():
            raise LookupError("the MQTT broker is not connected: command not sent")
        if self.key is None:
            raise LookupError("no key to sign commands with: a bridge obeys only signed commands")
        info = self.client.publish(live.command_topic(*key), live.dumps(sign_command(self.key, key, cmd)), qos=1)
        if info.rc != paho.MQTT_ERR_SUCCESS:
            raise LookupError("MQTT publish failed (%s)" % paho.error_string(info.rc))
        return {"forwarded": "mqtt", "topic": live.command_topic(*key)}


def feed_hub(hub: Hub, loop: asyncio.AbstractEventLoop, **kwargs: Any) -> Subscriber:
    """A Subscriber (call .start()) that puts every state into hub (on loop) and carries its arbiter commands."""
    sub = Subscriber(lambda st: loop.call_soon_threadsafe(hub.ingest, st, False), **kwargs)
    hub.command_sink = sub.send_command
    return sub
