// A board's state as the pages word it, with no page of its own: every page (the overview app.js, the
// board page board.js, the arbiter's dashboard arbiter.js) loads this file and pieces.js (the drawing).
// Two names live here: `clockfmt`, the clock text exactly as the firmware's display model shows it, and
// `boardstate`, the rest of a board's words (players, results, statuses, moves) and how the stream's
// updates apply to a state. They share one file because the overview loads three scripts only (its
// transfer budget, tests/host/test_broadcast_event_page.py).
"use strict";
(function (root) {
  // -- clockfmt: port of flagcore/display.py format_ms: countdown times round up, so 0:00 appears
  // only when the flag has fallen; tenths below 20 seconds.
  var TENTHS_BELOW_MS = 20000;
  var UNKNOWN_CLOCK = "\u2014";     // a clock that is not known (live.UNKNOWN_DISPLAY)

  function pad2(n) { return n < 10 ? "0" + n : "" + n; }

  function formatMs(ms, countup) {
    ms = Math.floor(ms);
    if (ms < 0) ms = 0;
    if (ms < TENTHS_BELOW_MS && !countup) {
      var tenths = Math.floor((ms + 99) / 100);
      return Math.floor(tenths / 600) + ":" + pad2(Math.floor(tenths / 10) % 60) + "." + (tenths % 10);
    }
    var secs = countup ? Math.floor(ms / 1000) : Math.floor((ms + 999) / 1000);
    var h = Math.floor(secs / 3600), m = Math.floor(secs / 60) % 60, s = secs % 60;
    if (h) return h + ":" + pad2(m) + ":" + pad2(s);
    return m + ":" + pad2(s);
  }

  // Milliseconds a side's face shows at serverNow: the snapshot, run on locally
  // from clock.at_ms for the side whose clock runs, after any simple-delay
  // window (clock.delay_ms) in which its time stands still.
  function sideMs(clock, side, serverNow) {
    var ms = clock[side + "_ms"];
    if (clock.running === side && !clock.flag) {
      var dt = Math.max(0, serverNow - clock.at_ms - (clock.delay_ms || 0));
      ms = clock.tc === "-" ? ms + dt : ms - dt;
    }
    return ms;
  }

  function known(ms) { return ms !== null && ms !== undefined && ms >= 0; }    // -1: a clock nothing told (no device)

  // a face's text: the time, or a dash for a clock that is not known
  function faceText(ms, countup) { return known(ms) ? formatMs(ms, countup) : UNKNOWN_CLOCK; }

  var clockfmt = { formatMs: formatMs, sideMs: sideMs, faceText: faceText, known: known,
                   TENTHS_BELOW_MS: TENTHS_BELOW_MS };

  // -- boardstate: a board's words. A state is the live feed's (docs/broadcast.md: tags, status,
  // result, clock, moves or n/last); the dashboard's board rows reach the same words through the
  // functions taking plain values (playerText, statusWords, forfeitText, sideWord).
  var PUBLIC_ALERT = "arbiter at the board";     // never the alert's own text (the public's pages)
  var STATUS_WORDS = { "not-started": "not started", "result-to-confirm": "result to confirm" };
  var FORFEIT_WORDS = { "+/-": "White wins by forfeit", "-/+": "Black wins by forfeit", "-/-": "both forfeit" };

  // "Name (rating)"
  function playerText(name, rating) { return name + (rating ? " (" + rating + ")" : ""); }

  function statusWords(status) { return STATUS_WORDS[status] || status; }

  function isForfeit(result) { return FORFEIT_WORDS.hasOwnProperty(result); }

  // "+/- (White wins by forfeit)", a result that is not a forfeit as it is
  function forfeitText(result) { return FORFEIT_WORDS[result] ? result + " (" + FORFEIT_WORDS[result] + ")" : result; }

  // a side's name in the game ("White", "Black", or the game's own words: side_names)
  function sideWord(sideNames, side) { return sideNames ? sideNames[side === "white" ? 0 : 1] : side; }

  function tag(st, side, what) { return (st.tags && st.tags[(side === "white" ? "White" : "Black") + what]) || ""; }

  function name(st, side) { return tag(st, side, "") || "?"; }

  function player(st, side) { return playerText(name(st, side), tag(st, side, "Elo")); }

  function fullPlayer(st, side) {
    var t = tag(st, side, "Title"), fed = tag(st, side, "Fed");
    return (t ? t + " " : "") + player(st, side) + (fed ? ", " + fed : "");
  }

  function sideName(st, side) { return sideWord(st.side_names, side); }

  function reason(st) {
    var t = (st.tags && st.tags.Termination) || st.decision_reason || "";
    return t.replace(/\s*\((FIDE|rule)[^)]*\)\s*$/, "");
  }

  function resultText(st) {
    var why = reason(st);
    var res = st.decision || st.result;
    if (why === "forfeit") {
      // the record's forfeit (Termination "forfeit"): the winner's result, or 0-0 when both forfeit
      var w = res === "0-0" ? null : (parseFloat(res) > parseFloat(res.split("-")[1]) ? "white" : "black");
      return res + " \u00b7 " + (w === null ? FORFEIT_WORDS["-/-"] : sideName(st, w) + " wins by forfeit");
    }
    return res + (why ? " \u00b7 " + why : "");
  }

  function statusText(st) {
    if (st.result && st.result !== "*") return resultText(st);
    if (st.status === "alert" || st.alert) return PUBLIC_ALERT;
    if (st.status === "playing") return sideName(st, st.to_move) + " to move";
    return statusWords(st.status);
  }

  // a board whose device is away (unplugged, silent): its clock is shown as last read
  function deviceAway(st) { return st.status === "disconnected" || st.status === "silent"; }

  function count(st) { return st.moves ? st.moves.length : st.n; }

  function moveLabel(n, text) {
    var num = Math.floor((n + 1) / 2);
    return num + (n % 2 ? ". " : "... ") + text;
  }

  // the last move ("12. Nf3"), or the move `shown` is at (a ply viewed on the board page, null: live)
  function lastMoveText(st, shown) {
    if (shown !== null && shown !== undefined) return shown === 0 ? "start position" : moveLabel(shown, st.moves[shown - 1]);
    var n = count(st);                     // summary view: `n` moves, the `last` one
    if (!n) return "start";
    return moveLabel(n, st.moves ? st.moves[n - 1] : st.last);
  }

  function roundLabel(st) {
    return (st.tags && st.tags.Event ? st.tags.Event + " \u00b7 " : "") + "round " + st.round;
  }

  // points as a table shows them: 2½, ½, 3
  function points(p) { return (Math.round(p * 2) / 2).toString().replace(/\.5$/, "\u00bd").replace(/^0\u00bd$/, "\u00bd"); }

  function ago(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    if (s < 60) return s + " s";
    if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60 < 10 ? "0" : "") + (s % 60) + " s";
    return Math.floor(s / 3600) + " h " + Math.floor(s / 60) % 60 + " min";
  }

  // the clocks at the start: the time control's base ("5400+30", "W300-B240" Armageddon, "40/5400:1800")
  function startMs(st, side) {
    var tc = (st.clock && st.clock.tc) || (st.tags && st.tags.TimeControl) || "";
    var arm = /^W(\d+)[^B]*B(\d+)/.exec(tc);
    if (arm) return 1000 * parseInt(side === "white" ? arm[1] : arm[2], 10);
    var m = /^(?:\d+\/)?(\d+)/.exec(tc);
    return m ? 1000 * parseInt(m[1], 10) : null;
  }

  // "t/r/b" keys in their natural order (board 2 before board 10)
  function natural(a, b) {
    var pa = a.split("/"), pb = b.split("/");
    for (var i = 0; i < Math.max(pa.length, pb.length); i++) {
      if (pa[i] === pb[i]) continue;
      if (pa[i] === undefined) return -1;
      if (pb[i] === undefined) return 1;
      var na = /^\d+$/.test(pa[i]), nb = /^\d+$/.test(pb[i]);
      if (na && nb) return parseInt(pa[i], 10) - parseInt(pb[i], 10);
      return pa[i] < pb[i] ? -1 : 1;
    }
    return 0;
  }

  // One stream message applied to boards ("t/r/b" -> state): a full state replaces the board's, an
  // update changes the fields it carries (a full view's moves and clocks from index `from` on).
  // Returns the board's state, or null for an update of a board not held (the page fetches it).
  function applyUpdate(boards, msg) {
    var k = msg.k, cur = boards[k];
    if (msg.full) {
      delete msg.full;
      boards[k] = msg;
      return msg;
    }
    if (!cur) return null;
    var from = msg.from;
    if (from !== undefined) {
      cur.moves.length = from;
      cur.clocks.length = from;
      Array.prototype.push.apply(cur.moves, msg.moves);
      Array.prototype.push.apply(cur.clocks, msg.clocks);
    }
    for (var f in msg) {
      if (f !== "moves" && f !== "clocks" && f !== "from") cur[f] = msg[f];
    }
    return cur;
  }

  // "?t=...&r=..." of a round (the overview's address for it), with the extra parameters given
  function roundQuery(t, r, extra) {
    var q = [];
    if (t) q.push("t=" + encodeURIComponent(t));
    if (r) q.push("r=" + encodeURIComponent(r));
    return "?" + q.concat(extra || []).join("&");
  }

  function getJson(url, headers) {
    return fetch(url, { headers: headers || {} }).then(function (r) {
      return r.json().then(function (j) { return [r.status, j]; }, function () { return [r.status, null]; });
    });
  }

  // a board's state fetched whole (an update came for a board not held): as the stream's full view has it,
  // or as its summary view (`summary`: the move count `n` and the `last` move, no moves, clocks or position)
  function fetchBoard(k, summary) {
    return getJson("/api/board/" + k).then(function (x) {
      var st = x[1];
      if (x[0] !== 200 || !st) return null;
      delete st.pgn;
      st.k = k;
      if (summary) {
        st.n = st.moves.length;
        st.last = st.n ? st.moves[st.n - 1] : null;
        delete st.moves;
        delete st.clocks;
        delete st.position;
      }
      return st;
    });
  }

  // The stream at url (/api/stream, docs/broadcast.md), its state shown on `conn`: onHello(offset) with
  // the server clock minus the local one; onFrame(data) with each `u` frame's text (the boards that
  // changed since the last one). Returns the EventSource.
  function follow(url, conn, onHello, onFrame) {
    var es = new EventSource(url);
    es.addEventListener("hello", function (ev) {
      onHello(JSON.parse(ev.data).now - Date.now());
      conn.textContent = "live";
      conn.className = "conn on";
    });
    es.addEventListener("u", function (ev) { onFrame(ev.data); });
    es.onerror = function () { conn.textContent = "reconnecting"; conn.className = "conn off"; };
    return es;
  }

  var boardstate = {
    PUBLIC_ALERT: PUBLIC_ALERT, FORFEITS: Object.keys(FORFEIT_WORDS), playerText: playerText, statusWords: statusWords, forfeitText: forfeitText, isForfeit: isForfeit, points: points,
    sideWord: sideWord, tag: tag, name: name, player: player, fullPlayer: fullPlayer, sideName: sideName,
    resultText: resultText, statusText: statusText, deviceAway: deviceAway, count: count, moveLabel: moveLabel,
    lastMoveText: lastMoveText, roundLabel: roundLabel, ago: ago, startMs: startMs, natural: natural,
    applyUpdate: applyUpdate, roundQuery: roundQuery, getJson: getJson, fetchBoard: fetchBoard, follow: follow
  };

  if (typeof module !== "undefined" && module.exports) module.exports = clockfmt;
  else root.clockfmt = clockfmt;
  root.boardstate = boardstate;
})(this);
