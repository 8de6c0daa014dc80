// The arbiter's dashboard: every board of the round, live (never delayed), with the actions an alert needs.
// Rows are built once per board and updated in place (only the cells whose text changed): an input, a
// select or a dialog in use is never replaced. Clocks run on locally from each reading, and players,
// results and statuses are worded as on the public pages (clockfmt.js: clockfmt, boardstate); boards are
// drawn by pieces.js (the public pages' drawing).
"use strict";
(function () {
  var B = window.boardstate, el = window.pieces.el;
  var TOKEN_KEY = "flagfall-arbiter-token", WHO_KEY = "flagfall-arbiter-name";
  var token = localStorage.getItem(TOKEN_KEY) || "";
  var who = localStorage.getItem(WHO_KEY) || "";
  var $ = function (id) { return document.getElementById(id); };
  var data = null;             // the last dashboard pushed (the content of GET /api/event)
  var rows = {};               // board number -> {tr, cells, ctl}
  var shownRound = null;
  var offset = 0;              // server clock minus local clock, ms
  var panelBoard = null;       // the board whose panel is open
  var panelSig = {};
  var logSeen = {};
  var stream = null;           // the AbortController of the open dashboard stream
  var timer = null;            // the stream's reconnection
  var SOUND_KEY = "flagfall-arbiter-sound";
  var logStarted = false;      // the event log's first entries are read: those after them are new
  var noteCause = null;        // what the red note up is about: it goes when its cause does (noteGone)
  var loadingSince = null;     // local time "Load next round" was asked, while it is being loaded
  var audio = null;            // the sound of a new alert (made on the arbiter's click: browsers ask one)

  // what tests and curious people can read
  window.flagfallArbiter = { data: function () { return data; }, refreshes: 0, sounded: 0 };

  function api(method, path, body) {
    var opts = { method: method, headers: { "Authorization": "Bearer " + token } };
    if (who) { opts.headers["X-Flagfall-Arbiter"] = encodeURIComponent(who); }   // headers carry Latin-1 only
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(path, opts).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) {
          var e = new Error(j.error || r.statusText || ("HTTP " + r.status));
          e.status = r.status;
          e.body = j;
          throw e;
        }
        return j;
      });
    }, function () {
      var e = new Error("the event does not answer (is it running?)");
      e.status = 0;
      throw e;
    });
  }

  function button(text, cls) {
    var b = el("button", cls, text);
    b.type = "button";
    return b;
  }

  function setText(node, text) {
    text = text === null || text === undefined ? "" : String(text);
    if (node.textContent !== text) { node.textContent = text; }
  }

  function show(node, on) {
    if (node.hidden === !!on) { node.hidden = !on; }
  }

  function player(b, side) { return B.playerText(b[side], b[side + "_rating"]); }

  function pairingText(b) { return "Board " + b.board + ": " + b.white + " - " + b.black; }

  // -- feedback --------------------------------------------------------------

  // cause (of a red note): {link: true} the event does not answer, {board: n, status: s} a board's action
  // refused in that status, {round: r} a round not loaded: the note goes when the cause does (noteGone)
  function note(where, ok, text, cause) {
    [where, panelBoard !== null ? $("panel-note") : null].forEach(function (n) {
      if (!n) { return; }
      n.className = ok ? "ok" : "err";
      n.textContent = (ok ? "\u2713 " : "\u2717 ") + text;
    });
    noteCause = ok ? null : (cause || null);
  }

  function noteGone() {
    var c = noteCause, gone = false;
    if (!c || !data) { return; }
    if (c.link) { gone = true; }               // the stream is back: the event answers
    else if (c.round !== undefined) { gone = data.round !== c.round; }
    else if (c.board !== undefined) {
      var row = rows[c.board];
      gone = !row || row.b.status !== c.status || data.round !== c.inRound;
    }
    if (!gone) { return; }
    noteCause = null;
    [$("note"), $("panel-note")].forEach(function (n) {
      if (n.className === "err") { n.textContent = ""; n.className = ""; }
    });
  }

  function busy(btn, on) {
    if (!btn) { return; }
    btn.disabled = on;
    btn.classList.toggle("busy", on);
    btn.setAttribute("aria-busy", on ? "true" : "false");
  }

  function act(board, cmd, btn) {
    busy(btn, true);
    return api("POST", "/api/event/board/" + board, cmd).then(function (j) {
      var text = (j.reply && j.reply.text) || "done";
      note($("note"), true, "Board " + board + ": " + cmd.action.replace("_", " ") + ": " + text);
      return true;
    }, function (e) {
      var row = rows[board];
      note($("note"), false, "Board " + board + ": " + cmd.action.replace("_", " ") + " refused: " + e.message,
           e.status === 0 ? { link: true } : { board: board, status: row ? row.b.status : null, inRound: data ? data.round : null });
      return false;
    }).then(function (ok) { busy(btn, false); refresh(); return ok; });
  }

  // -- the confirmation dialog -------------------------------------------------

  function confirmBox(text, items, choices) {
    var dlg = $("confirm");
    setText($("confirm-text"), text);
    var list = $("confirm-list");
    list.textContent = "";
    (items || []).forEach(function (t) { list.appendChild(el("li", null, t)); });
    var bar = $("confirm-buttons");
    bar.textContent = "";
    return new Promise(function (resolve) {
      choices.concat([{ label: "Cancel", value: null, cls: "quiet" }]).forEach(function (c) {
        var b = button(c.label, c.cls || "");
        b.onclick = function () { dlg.close(); resolve(c.value); };
        bar.appendChild(b);
      });
      dlg.oncancel = function () { resolve(null); };
      dlg.showModal();
    });
  }

  function askResult(b, result, btn) {
    return confirmBox(pairingText(b) + ". Set the result " + B.forfeitText(result) + "?", [],
      [{ label: "Set " + result, value: true, cls: "primary" }]).then(function (yes) {
      if (yes) { return act(b.board, { action: "result", result: result }, btn); }
    });
  }

  function askUndo(b, btn) {
    return confirmBox(pairingText(b) + ". Withdraw the result " + b.result + "? The game goes on.", [],
      [{ label: "Undo " + b.result, value: true, cls: "primary" }]).then(function (yes) {
      if (yes) { return act(b.board, { action: "undo_result" }, btn); }
    });
  }

  function resultOptions(sel, b) {
    sel.appendChild(el("option", null, "result\u2026")).value = "";
    b.results.concat(b.forfeits || []).forEach(function (r) {
      var o = el("option", null, B.isForfeit(r) ? r + " forfeit" : r);
      o.value = r;
      sel.appendChild(o);
    });
  }

  // -- the table ---------------------------------------------------------------

  function makeRow(b) {
    var tr = el("tr");
    tr.dataset.board = b.board;
    var cells = {};
    ["board", "white", "black", "status", "moves", "clocks", "result", "todo", "actions"].forEach(function (k) {
      var td = el("td", "c-" + k);
      td.dataset.label = { board: "Board", white: "White", black: "Black", status: "Status", moves: "Moves",
                           clocks: "Clocks", result: "Result", todo: "To do", actions: "" }[k];
      cells[k] = td;
      tr.appendChild(td);
    });
    var link = el("a", null, b.board);
    link.href = b.url;
    link.target = "_blank";
    link.title = "the board's public page";
    cells.board.appendChild(link);
    cells.clocks.appendChild(el("span", "clock mini", ""));
    cells.clocks.appendChild(el("span", "clock mini", ""));
    cells.clocks.appendChild(el("span", "battery", ""));
    var ctl = {};
    var td = cells.actions;
    ctl.open = button("Open", "open");
    ctl.open.setAttribute("aria-label", "open board " + b.board);
    ctl.open.onclick = function () { openPanel(b.board); };
    td.appendChild(ctl.open);
    ctl.move = el("input", "move");
    ctl.move.placeholder = "move";
    ctl.move.setAttribute("aria-label", "move on board " + b.board);
    ctl.moveGo = button("Confirm move");
    ctl.moveGo.onclick = function () {
      var cur = rows[b.board].b;
      var text = ctl.move.value.trim();
      if (!text) { note($("note"), false, "Board " + b.board + ": type the move first"); return; }
      act(b.board, { action: "fix_move", ply: cur.plies, move: text }, ctl.moveGo).then(function (ok) {
        if (ok) { ctl.move.value = ""; }
      });
    };
    ctl.move.onkeydown = function (e) { if (e.key === "Enter") { ctl.moveGo.click(); } };
    ctl.moveBox = el("span", "movebox");
    ctl.moveBox.appendChild(ctl.move);
    ctl.moveBox.appendChild(ctl.moveGo);
    td.appendChild(ctl.moveBox);
    ctl.result = el("select", "result");
    ctl.result.setAttribute("aria-label", "result of board " + b.board);
    resultOptions(ctl.result, b);
    ctl.resultGo = button("Set");
    ctl.resultGo.setAttribute("aria-label", "set the result of board " + b.board);
    ctl.resultGo.onclick = function () {
      var r = ctl.result.value;
      if (!r) { note($("note"), false, "Board " + b.board + ": choose a result first"); return; }
      askResult(rows[b.board].b, r, ctl.resultGo).then(function () { ctl.result.value = ""; });
    };
    ctl.resultBox = el("span", "resultbox");
    ctl.resultBox.appendChild(ctl.result);
    ctl.resultBox.appendChild(ctl.resultGo);
    td.appendChild(ctl.resultBox);
    ctl.undo = button("Undo result");
    ctl.undo.onclick = function () { askUndo(rows[b.board].b, ctl.undo); };
    td.appendChild(ctl.undo);
    ctl.addWhite = button("+1 min White");
    ctl.addBlack = button("+1 min Black");
    ctl.addWhite.onclick = function () { act(b.board, { action: "clock", side: "white", delta_ms: 60000 }, ctl.addWhite); };
    ctl.addBlack.onclick = function () { act(b.board, { action: "clock", side: "black", delta_ms: 60000 }, ctl.addBlack); };
    td.appendChild(ctl.addWhite);
    td.appendChild(ctl.addBlack);
    ctl.resume = button("Resume clock");
    ctl.resume.onclick = function () { act(b.board, { action: "resume" }, ctl.resume); };
    td.appendChild(ctl.resume);
    return { tr: tr, cells: cells, ctl: ctl, b: b };
  }

  function statusText(b) { return B.statusWords(b.status); }

  // the clock's battery as the device last said it ("" when it does not say)
  function batteryText(b) {
    var c = b.clock;
    if (!c || typeof c.battery !== "number" || c.battery < 0) { return ""; }
    return "battery " + c.battery + "%" + (c.battery_low ? " LOW" : "");
  }

  function showBattery(node, b) {
    setText(node, batteryText(b));
    var cls = "battery" + (b.clock && b.clock.battery_low ? " low" : "");
    if (node.className !== cls) { node.className = cls; }
  }

  function sideName(b, side) { return B.sideWord(b.side_names, side); }

  // the clock runs for the side that is not to move: "Resume clock" hands it to the side to move
  function switchable(b) { return !!b.clock_to && !!b.clock && !!b.clock.running; }

  // "Resume clock" always starts the clock of the side to move: the button says whose when it is not
  // the one the clock has on move
  function resumeLabel(b) {
    if (!b.clock_to) { return "Resume clock"; }
    return switchable(b) ? "Switch the clock to " + sideName(b, b.clock_to) : "Resume clock (" + sideName(b, b.clock_to) + ")";
  }

  // the penalty for the illegal move the alert names, with what it costs, confirmed before it is applied
  function askPenalty(b, btn) {
    var side = b.penalty_side;
    return confirmBox(pairingText(b) + ". Apply the penalty for " + sideName(b, side) + "'s illegal move?",
      [b.penalty + " (" + b.laws + ")", "The clock is paused first; resume it once the position is reinstated."],
      [{ label: "Apply penalty", value: true, cls: "danger" }]).then(function (yes) {
      if (!yes) { return false; }
      // the clock stays paused until the arbiter resumes it ("Resume clock")
      return act(b.board, { action: "pause" }, btn).then(function (ok) {
        if (ok) { return act(b.board, { action: "penalty", side: side }, btn); }
        return false;
      });
    });
  }

  function todoText(b) {
    var parts = [b.failure, b.alert, b.fix, b.choices ? "choices: " + b.choices : null];
    if (b.rejected) { parts.push(b.rejected + " frames rejected" + (b.rejected_last ? " (last: " + b.rejected_last + ")" : "")); }
    return parts.filter(Boolean).join("; ");
  }

  function updateRow(row, b) {
    row.b = b;
    var c = row.cells, ctl = row.ctl;
    var cls = "st-" + b.status;
    if (row.tr.className !== cls) { row.tr.className = cls; }
    setText(c.white, player(b, "white"));
    setText(c.black, player(b, "black"));
    setText(c.status, statusText(b));
    setText(c.moves, b.moves);
    setText(c.result, b.result === "*" ? "" : b.result);
    setText(c.todo, todoText(b));
    showBattery(c.clocks.children[2], b);
    var has = function (a) { return b.actions.indexOf(a) >= 0; };
    show(ctl.moveBox, has("fix_move"));
    show(ctl.resultBox, has("result"));
    show(ctl.undo, has("undo_result"));
    show(ctl.addWhite, has("clock"));
    show(ctl.addBlack, has("clock"));
    // a clock paused mid-game (after a penalty, a replug): resuming it is the thing to do; a clock running
    // for the side not to move (after a reinstatement, an undone result): switching it is
    var paused = b.status === "playing" && b.plies > 0 && !!b.clock && !b.clock.running;
    show(ctl.resume, has("resume") && (paused || switchable(b)));
    setText(ctl.resume, resumeLabel(b));
  }

  // the boards that need the arbiter, in the order the server ranks them (alerts, devices, time trouble):
  // one item per board, kept and moved (never rebuilt), in a box of fixed height above the table
  var attentionItems = {};
  function drawAttention() {
    var list = $("attention-list"), want = data.attention || [], seen = {};
    want.forEach(function (a, i) {
      var item = attentionItems[a.board];
      if (!item) {
        item = attentionItems[a.board] = { li: el("li"), text: el("span"), open: button("Open") };
        item.li.dataset.board = a.board;
        item.open.setAttribute("aria-label", "open board " + a.board);
        item.open.onclick = function () { if (rows[a.board]) { openPanel(a.board); } };
        item.li.appendChild(item.text);
        item.li.appendChild(item.open);
      }
      seen[a.board] = true;
      var cls = "k-" + a.kind;
      if (item.li.className !== cls) { item.li.className = cls; }
      var row = rows[a.board];
      setText(item.text, "Board " + a.board + (row ? " (" + row.b.white + " - " + row.b.black + ")" : "") + ": " + a.text);
      if (list.children[i] !== item.li) { list.insertBefore(item.li, list.children[i] || null); }
    });
    Object.keys(attentionItems).forEach(function (n) {
      if (!seen[n]) { list.removeChild(attentionItems[n].li); delete attentionItems[n]; }
    });
    show($("attention-none"), !want.length);
  }

  function progressText() {
    var base = data.finished + " of " + data.total + " games finished" + (data.tc ? " - " + data.tc : "") +
      (data.laws ? " - chess: FIDE Laws " + data.laws : "");
    var l = data.loading;
    if (!l && loadingSince === null) { return base; }
    var since = l ? l.since - offset : loadingSince;
    var secs = Math.max(0, Math.floor((Date.now() - since) / 1000));
    return (l ? "Loading round " + l.round + ": " + l.step : "Loading the next round") + "\u2026 " + secs + " s";
  }

  function draw() {
    $("title").textContent = "Arbiter - " + (data.event || data.tournament) + ", round " + data.round;
    setText($("progress"), progressText());
    var tbody = document.querySelector("#boards tbody");
    if (shownRound !== data.round) {       // a new round: new boards, new rows
      tbody.textContent = "";
      rows = {};
      matchRows = {};
      shownRound = data.round;
      if (panelBoard !== null) { $("panel").close(); }
    }
    var firstOf = matchesByFirstBoard();
    data.boards.forEach(function (b) {
      var row = rows[b.board];
      if (!row) {
        var m = firstOf[b.board];
        if (m) {                             // a team event: the match's row above its boards
          matchRows[m.number] = el("tr", "match-row");
          matchRows[m.number].appendChild(el("th", null, ""));
          matchRows[m.number].firstChild.colSpan = 9;
          matchRows[m.number].firstChild.scope = "rowgroup";
          tbody.appendChild(matchRows[m.number]);
        }
        row = rows[b.board] = makeRow(b);
        tbody.appendChild(row.tr);
      }
      updateRow(row, b);
    });
    (data.matches || []).forEach(function (m) {
      if (matchRows[m.number]) setText(matchRows[m.number].firstChild, matchText(m));
    });
    drawAttention();
    drawLog();
    noteGone();
    if (panelBoard !== null) { drawPanel(); }
    tickClocks();
  }

  var matchRows = {};       // match number -> its header row (a team event)
  function matchesByFirstBoard() {
    var out = {};
    (data.matches || []).forEach(function (m) {
      for (var i = 0; i < m.boards.length; i++) {
        if (m.boards[i].board !== null) { out[m.boards[i].board] = m; return; }
      }
    });
    return out;
  }

  // "Match 2: Club A 2½ - 1½ Club B (finished; board 4 not fielded: -/+)": scored from its games only
  function matchText(m) {
    var pts = B.points;
    var notes = [m.finished ? "finished" : "playing"];
    m.boards.forEach(function (b) { if (b.board === null) notes.push("board " + b.number + " not fielded: " + b.result); });
    return "Match " + m.number + ": " + m.home + " " + pts(m.home_gp) + " \u2013 " + pts(m.away_gp) + " " + m.away +
      " (" + notes.join("; ") + ")";
  }

  function drawLog() {
    var list = $("log");
    (data.incidents || []).forEach(function (i) {
      var key = i.at + "/" + i.board + "/" + i.kind + "/" + i.text;
      if (logSeen[key]) { return; }
      logSeen[key] = true;
      if (logStarted && i.kind === "alert") { sound(); }
      var t = new Date(i.at);
      var li = el("li", "k-" + i.kind);
      li.appendChild(el("time", null, t.toTimeString().slice(0, 8)));
      li.appendChild(document.createTextNode(" " + (i.board ? "board " + i.board + ": " : "") + i.text));
      list.insertBefore(li, list.firstChild);
    });
    while (list.children.length > 200) { list.removeChild(list.lastChild); }
    logStarted = true;
  }

  // -- the sound of a new alert (optional: the box in the bar, kept on this device) ----------

  function soundOn() { return localStorage.getItem(SOUND_KEY) === "on"; }

  function sound() {
    if (!soundOn()) { return; }
    window.flagfallArbiter.sounded += 1;
    beep();
  }

  function beep() {
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!audio && Ctx) { audio = new Ctx(); }
      if (!audio) { return; }
      if (audio.state === "suspended") { audio.resume(); }
      [0, 0.25].forEach(function (at) {            // two short tones: heard, not startling
        var osc = audio.createOscillator(), gain = audio.createGain(), t = audio.currentTime + at;
        osc.frequency.value = 880;
        gain.gain.setValueAtTime(0.15, t);
        gain.gain.exponentialRampToValueAtTime(0.001, t + 0.18);
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start(t);
        osc.stop(t + 0.2);
      });
    } catch (e) { /* no sound on this browser: the attention list and the log still say it */ }
  }

  // -- clocks, as the public page counts them ----------------------------------

  function deviceDown(b) { return b.status === "unplugged" || b.status === "silent"; }

  // the clock as last read; a board whose device is away is not counted down (its clock is unknown)
  function clockOf(b) {
    if (!b.clock || !deviceDown(b) || !b.clock.running) { return b.clock; }
    var c = Object.assign({}, b.clock);
    c.running = null;
    return c;
  }

  function clockFace(clock, side) {
    if (!clock) { return "-"; }
    return clockfmt.faceText(clockfmt.sideMs(clock, side, Date.now() + offset), clock.tc === "-");
  }

  function tickClocks() {
    if (!data) { return; }
    if (data.loading || loadingSince !== null) { setText($("progress"), progressText()); }
    data.boards.forEach(function (b) {
      var row = rows[b.board];
      if (!row) { return; }
      var spans = row.cells.clocks.children;
      ["white", "black"].forEach(function (side, i) {
        var clock = clockOf(b);
        setText(spans[i], clockFace(clock, side));
        var cls = "clock mini" + (clock && clock.running === side && !clock.flag && b.result === "*" ? " running" : "");
        if (spans[i].className !== cls) { spans[i].className = cls; }
      });
    });
    if (panelBoard !== null && rows[panelBoard]) {
      var b = rows[panelBoard].b;
      ["white", "black"].forEach(function (side) {
        var n = $("panel-clock-" + side);
        var clock = clockOf(b);
        setText(n, b.side_names[side === "white" ? 0 : 1] + " " + clockFace(clock, side));
        var cls = "clock" + (clock && clock.running === side && b.result === "*" ? " running" : "");
        if (n.className !== cls) { n.className = cls; }
      });
      setText($("panel-clock-state"), (!b.clock ? "no clock reading yet" :
        b.result !== "*" ? "stopped (game over)" : deviceDown(b) ? "unknown while the device is " + b.status :
        b.clock.running ? b.side_names[b.clock.running === "white" ? 0 : 1] + "'s clock running" : "paused") +
        (b.clock_to && b.result === "*" ? ", but " + sideName(b, b.clock_to) + " is to move" : ""));
    }
  }

  // -- the board panel -----------------------------------------------------------

  function openPanel(n) {
    panelBoard = n;
    panelSig = {};
    $("panel-note").textContent = "";
    $("panel-note").className = "";
    $("p-move").value = "";
    $("p-missed").value = "";
    var sel = $("p-result");
    sel.textContent = "";
    resultOptions(sel, rows[n].b);
    drawPanel();
    $("panel").showModal();
  }

  function cellKey(c) { return c[0] + "," + c[1]; }

  function drawBoards(b) {
    var v = b.view;
    var sig = v ? JSON.stringify(v) : "";
    if (panelSig.view === sig) { return; }
    panelSig.view = sig;
    var legal = $("panel-legal"), sensors = $("panel-sensors");
    legal.textContent = "";
    sensors.textContent = "";
    show(document.querySelector("#panel .boards2"), !!v);
    if (!v) { setText($("panel-fix"), ""); return; }
    var game = b.game;
    var fix = [];
    if (v.missing.length) { fix.push("put back a piece on " + v.missing.map(function (c) { return c[2]; }).join(", ")); }
    if (v.extra.length) { fix.push("clear " + v.extra.map(function (c) { return c[2]; }).join(", ")); }
    var marks = {}, occupied = {};
    v.missing.forEach(function (c) { marks[cellKey(c)] = "miss"; });
    v.extra.forEach(function (c) { marks[cellKey(c)] = "extra"; });
    v.occupied.forEach(function (c) { occupied[cellKey(c)] = true; });
    legal.appendChild(window.pieces.board(game, v.grid, { marks: marks, label: "the last legal position" }));
    // the sensors see occupancy only: a piece of the legal position where a sensor is closed, a
    // marker on a closed square that should be empty
    sensors.appendChild(window.pieces.board(game, v.grid, {
      marks: marks, label: "what the sensors show" + (fix.length ? ": " + fix.join("; ") : ""),
      piece: function (r, c, ch) { return occupied[r + "," + c] && ch !== "." ? ch : "."; }
    }));
    setText($("panel-fix"), fix.length ? "To reinstate the position: " + fix.join("; ") + "."
                                       : "The sensors show the last legal position.");
  }

  function drawPanel() {
    var row = rows[panelBoard];
    if (!row) { $("panel").close(); return; }
    var b = row.b;
    setText($("panel-title"), pairingText(b) + " (" + b.title + ", " + b.laws + ") - " + statusText(b) +
      (b.result !== "*" ? ", " + b.result : ""));
    setText($("panel-alert"), todoText(b));
    drawBoards(b);
    setText($("panel-to-move"), b.result !== "*" ? "Game over: " + b.result :
      b.to_move ? sideName(b, b.to_move) + " to move" : "");
    showBattery($("panel-battery"), b);
    var moves = b.last_moves || [], first = b.plies - moves.length;
    setText($("panel-moves"), moves.length ? "Last moves: " + moves.map(function (m, i) {
      var ply = first + i;
      return (ply % 2 === 0 ? (ply / 2 + 1) + ". " : (i === 0 ? Math.floor(ply / 2) + 1 + "... " : "")) + m;
    }).join(" ") + " (" + b.moves + " moves)" : "No move yet.");
    var has = function (a) { return b.actions.indexOf(a) >= 0; };
    show($("p-move").parentNode, has("fix_move"));
    show($("p-missed").parentNode, has("enter_moves"));
    show($("p-dismiss"), has("dismiss") && !!b.alert);
    show($("p-penalty"), has("penalty") && !!b.penalty_side);
    setText($("p-penalty"), b.penalty ? "Apply penalty: " + b.penalty : "Apply penalty");
    show($("p-pause"), has("pause"));
    show($("p-resume"), has("resume"));
    setText($("p-resume"), resumeLabel(b));
    show($("p-from-device"), has("start_from_device"));
    show($("p-add-white").parentNode, has("clock"));
    show($("p-result").parentNode, has("result") || has("undo_result"));
    show($("p-result"), has("result"));
    show($("p-result-go"), has("result"));
    show($("p-undo"), has("undo_result"));
    var hsig = JSON.stringify(b.history);
    if (panelSig.history !== hsig) {
      panelSig.history = hsig;
      var list = $("panel-history");
      list.textContent = "";
      b.history.slice().reverse().forEach(function (h) {
        var li = el("li", h.ok ? "ok" : "err");
        li.appendChild(el("time", null, new Date(h.at).toTimeString().slice(0, 8)));
        li.appendChild(document.createTextNode(" " + h.who + ": " + h.what + " - " + (h.ok ? "" : "refused: ") + h.text));
        list.appendChild(li);
      });
      if (!b.history.length) { list.appendChild(el("li", "none", "no action yet")); }
    }
  }

  function parseTime(text) {
    var m = /^(?:(\d+):)?(\d{1,2}):(\d\d)$/.exec(text.trim());
    if (!m) { return null; }
    return ((parseInt(m[1] || "0", 10) * 60 + parseInt(m[2], 10)) * 60 + parseInt(m[3], 10)) * 1000;
  }

  function panelAct(cmd, btn) { return act(panelBoard, cmd, btn); }

  function wirePanel() {
    $("panel-close").onclick = function () { $("panel").close(); };
    $("panel").addEventListener("close", function () { panelBoard = null; });
    $("p-move-go").onclick = function () {
      var text = $("p-move").value.trim();
      if (!text) { note(null, false, "type the move first"); return; }
      panelAct({ action: "fix_move", ply: rows[panelBoard].b.plies, move: text }, $("p-move-go")).then(function (ok) {
        if (ok) { $("p-move").value = ""; }
      });
    };
    $("p-missed-go").onclick = function () {
      var text = $("p-missed").value.trim();
      if (!text) { note(null, false, "type the missed moves first"); return; }
      panelAct({ action: "enter_moves", moves: text }, $("p-missed-go")).then(function (ok) {
        if (ok) { $("p-missed").value = ""; }
      });
    };
    $("p-dismiss").onclick = function () { panelAct({ action: "dismiss" }, $("p-dismiss")); };
    $("p-pause").onclick = function () { panelAct({ action: "pause" }, $("p-pause")); };
    $("p-resume").onclick = function () { panelAct({ action: "resume" }, $("p-resume")); };
    $("p-from-device").onclick = function () {
      var n = panelBoard, btn = $("p-from-device");
      busy(btn, true);
      api("POST", "/api/event/board/" + n + "/start-from-device", {}).then(function (j) {
        note($("note"), true, "Board " + n + ": " + ((j.reply && j.reply.text) || "started from the device"));
      }, function (e) {
        note($("note"), false, "Board " + n + ": start from the device refused: " + e.message);
      }).then(function () { busy(btn, false); refresh(); });
    };
    $("p-penalty").onclick = function () { askPenalty(rows[panelBoard].b, $("p-penalty")); };
    $("p-add-white").onclick = function () { panelAct({ action: "clock", side: "white", delta_ms: 60000 }, $("p-add-white")); };
    $("p-add-black").onclick = function () { panelAct({ action: "clock", side: "black", delta_ms: 60000 }, $("p-add-black")); };
    $("p-time-go").onclick = function () {
      var ms = parseTime($("p-time").value);
      if (ms === null) { note(null, false, "the time is m:ss or h:mm:ss"); return; }
      panelAct({ action: "time", side: $("p-time-side").value, ms: ms }, $("p-time-go"));
    };
    $("p-result-go").onclick = function () {
      var r = $("p-result").value;
      if (!r) { note(null, false, "choose a result first"); return; }
      askResult(rows[panelBoard].b, r, $("p-result-go"));
    };
    $("p-undo").onclick = function () { askUndo(rows[panelBoard].b, $("p-undo")); };
  }

  // -- the round -------------------------------------------------------------------

  function nextRound(choice) {
    var btn = $("next");
    busy(btn, true);
    loadingSince = Date.now();
    return api("POST", "/api/event/round", choice ? { unfinished: choice } : {}).then(function (j) {
      loadingSince = null;
      note($("note"), true, "Round " + j.round + " loaded: " + j.boards + " boards");
    }, function (e) {
      loadingSince = null;
      if (e.status === 409 && e.body && e.body.unfinished) {
        note($("note"), false, "Load next round refused: " + e.message, { round: data.round });
        return confirmBox("Round " + data.round + " is not finished. These games have no result:",
          e.body.unfinished.map(function (u) { return "board " + u.board + ": " + u.white + " - " + u.black + " (" + B.statusWords(u.status) + ")"; }),
          [{ label: "Adjourn them and load the next round", value: "adjourn" },
           { label: "Forfeit them (-/-) and load the next round", value: "forfeit", cls: "danger" }]
        ).then(function (choice2) { busy(btn, false); if (choice2) { return nextRound(choice2); } });
      }
      note($("note"), false, "Load next round refused: " + e.message, e.status === 0 ? { link: true } : { round: data.round });
    }).then(function () { busy(btn, false); if (data) { setText($("progress"), progressText()); } refresh(); });
  }

  // -- the live data ----------------------------------------------------------------------

  // The server pushes the whole dashboard (GET /api/event's content) over Server-Sent Events each time it
  // changes (/api/event/stream); fetch() reads the stream because EventSource cannot send the token.

  function received(d) {
    offset = d.now - Date.now();
    data = d;
    window.flagfallArbiter.refreshes += 1;
    draw();
    $("desk").classList.remove("stale");
  }

  function message(block) {
    var kind = "message", lines = [];
    block.split("\n").forEach(function (line) {
      if (line.indexOf("event:") === 0) { kind = line.slice(6).trim(); }
      else if (line.indexOf("data:") === 0) { lines.push(line.slice(5).replace(/^ /, "")); }
    });
    if (kind === "dashboard" && lines.length) { received(JSON.parse(lines.join("\n"))); }
  }

  function listen() {
    clearTimeout(timer);
    if (stream) { stream.abort(); }
    var ctl = new AbortController();
    stream = ctl;
    fetch("/api/event/stream", { headers: { "Authorization": "Bearer " + token, "Accept": "text/event-stream" },
                                 cache: "no-store", signal: ctl.signal }).then(function (r) {
      if (!r.ok) {
        return r.json().catch(function () { return {}; }).then(function (j) {
          var e = new Error(j.error || r.statusText || ("HTTP " + r.status));
          e.status = r.status;
          throw e;
        });
      }
      var reader = r.body.getReader(), text = new TextDecoder(), buf = "";
      function more() {
        return reader.read().then(function (x) {
          if (x.done) { throw new Error("the event closed the stream"); }
          buf += text.decode(x.value, { stream: true }).replace(/\r\n/g, "\n");
          var cut;
          while ((cut = buf.indexOf("\n\n")) >= 0) {
            message(buf.slice(0, cut));
            buf = buf.slice(cut + 2);
          }
          return more();
        });
      }
      return more();
    }).catch(function (e) {
      if (stream !== ctl) { return; }        // replaced or closed on purpose
      stream = null;
      if (e.status === 401 || e.status === 403) { logout(e.message); return; }
      $("desk").classList.add("stale");
      note($("note"), false, e.status ? e.message : "the event does not answer (is it running?)", { link: true });
      if (token) { timer = setTimeout(listen, 2000); }
    });
  }

  function refresh() {
    // after an action: its outcome comes over the stream; only a stream that is down is opened again
    if (!stream && token) { listen(); }
  }

  function logout(why) {
    clearTimeout(timer);
    if (stream) { var s = stream; stream = null; s.abort(); }
    token = "";
    localStorage.removeItem(TOKEN_KEY);
    $("login").hidden = false;
    $("desk").hidden = true;
    $("login-error").textContent = why || "";
  }

  function enter() {
    token = $("token").value.trim() || token;
    who = $("who").value.trim() || who;
    if (who) { localStorage.setItem(WHO_KEY, who); }
    api("GET", "/api/event").then(function () {
      localStorage.setItem(TOKEN_KEY, token);
      $("token").value = "";
      $("login").hidden = true;
      $("desk").hidden = false;
      listen();
    }, function (e) { $("login-error").textContent = e.message; });
  }

  $("enter").onclick = enter;
  $("token").onkeydown = function (e) { if (e.key === "Enter") { enter(); } };
  $("who").value = who;
  $("logout").onclick = function () { logout("token forgotten on this device"); };
  $("start").onclick = function () {
    var btn = $("start");
    busy(btn, true);
    api("POST", "/api/event/start").then(function (j) {
      var waiting = data ? data.boards.filter(function (b) { return b.status === "not-started"; }).length : 0;
      note($("note"), j.started > 0, j.started > 0 ? j.started + " clocks started" :
        "no clock started: " + (waiting ? waiting + " boards are not started but their devices did not take it"
                                        : "every board has started already, or has no device ready"));
    }, function (e) { note($("note"), false, "Start all clocks refused: " + e.message); })
      .then(function () { busy(btn, false); refresh(); });
  };
  $("files").onclick = function () {
    var btn = $("files");
    busy(btn, true);
    api("POST", "/api/event/round-files").then(function (j) {
      note($("note"), true, "written: " + j.written.join(", "));
    }, function (e) { note($("note"), false, "Write round files failed: " + e.message); })
      .then(function () { busy(btn, false); });
  };
  $("next").onclick = function () { nextRound(null); };
  $("sound").checked = soundOn();
  $("sound").onchange = function () {
    localStorage.setItem(SOUND_KEY, $("sound").checked ? "on" : "off");
    if ($("sound").checked) { beep(); }   // heard once now: the browser lets a page sound after a click
  };
  wirePanel();
  setInterval(tickClocks, 200);
  if (token) { enter(); }
}());
