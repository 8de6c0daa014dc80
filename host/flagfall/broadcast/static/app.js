// Flagfall live page: the event view (one round at a time, the current one first, a
// round selector for the earlier ones, each round's boards or its list, finished
// games and the standings after it) and the single-board view (move list, stepping
// through the moves with the clocks and the footer following, flip, earlier games,
// share and embed, arbiter panel). ?embed=1 gives either view without the page's
// chrome, for an iframe. States arrive over Server-Sent Events (/api/stream, `u`
// frames: docs/broadcast.md); clocks run on locally from each snapshot with the
// display model's formatting (clockfmt.js). Alerts are never shown to the public:
// the server sends "arbiter at the board" only, and this page prints no alert text.
"use strict";
(function () {
  var PAGE = document.body.getAttribute("data-page");
  var QUERY = new URLSearchParams(location.search);
  var EMBED = QUERY.get("embed") === "1";
  var LIST = PAGE !== "board" && QUERY.get("view") === "list";
  var ARCHIVED = PAGE === "board" && /^\d+$/.test(QUERY.get("game") || "") ? QUERY.get("game") : null;
  var PUBLIC_ALERT = "arbiter at the board";
  var boards = {};          // "t/r/b" -> state view (no record text)
  var cards = {};           // "t/r/b" -> DOM elements of that board
  var offset = 0;           // server clock minus local clock, ms
  var received = 0, streamBytes = 0;
  var FILES = "abcdefghijklmnopqrstuvwxyz";
  var ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  var PIECE_NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };
  // the board page: which ply is shown (null: live), flipped or not, the positions per ply
  var nav = { view: null, flipped: false, plies: null, pliesSeq: -1, loading: false };
  var es = null;            // the event stream

  // what tests and curious people can read: window.flagfall
  window.flagfall = { boards: boards, received: function () { return received; }, lastAt: 0,
                      streamBytes: function () { return streamBytes; },
                      nav: function () { return { view: nav.view, flipped: nav.flipped }; } };

  if (EMBED) document.body.classList.add("embed");

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function link(cls, text, href) {
    var a = el("a", cls, text);
    a.href = href;
    if (EMBED) { a.target = "_blank"; a.rel = "noopener"; }   // out of the frame, into a tab of its own
    return a;
  }

  function filterFromPage() {
    if (PAGE === "board") {
      var p = location.pathname.split("/").filter(Boolean); // board, t, r, b
      return { t: decodeURIComponent(p[1] || ""), r: decodeURIComponent(p[2] || ""), b: decodeURIComponent(p[3] || "") };
    }
    return { t: QUERY.get("t"), r: QUERY.get("r"), b: null };
  }
  var FILTER = filterFromPage();
  var KEY = PAGE === "board" ? FILTER.t + "/" + FILTER.r + "/" + FILTER.b : null;
  var CHOSEN = !!(FILTER.t && FILTER.r);     // the overview shows the round asked for, else the current one

  function streamUrl() {
    var q = [];
    ["t", "r", "b"].forEach(function (k) { if (FILTER[k]) q.push(k + "=" + encodeURIComponent(FILTER[k])); });
    // a board page needs the move list; an overview needs positions and clocks only
    if (PAGE !== "board") q.push("view=summary");
    return "/api/stream" + (q.length ? "?" + q.join("&") : "");
  }

  function serverNow() { return Date.now() + offset; }

  function getJson(url, headers) {
    return fetch(url, { headers: headers || {} }).then(function (r) {
      return r.json().then(function (j) { return [r.status, j]; }, function () { return [r.status, null]; });
    });
  }

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

  // -- applying stream messages -------------------------------------------

  function apply(msg) {
    var k = msg.k;
    var cur = boards[k];
    var before = cur ? { n: count(cur), result: cur.result } : null;
    if (msg.full) {
      delete msg.full;
      boards[k] = msg;
    } else {
      if (!cur) { refetch(k); return; }
      var from = msg.from;
      if (from !== undefined) {       // a delta of the full view: the moves from index `from` on
        cur.moves.length = from;
        cur.clocks.length = from;
        Array.prototype.push.apply(cur.moves, msg.moves);
        Array.prototype.push.apply(cur.clocks, msg.clocks);
      }
      for (var f in msg) {
        if (f !== "moves" && f !== "clocks" && f !== "from") cur[f] = msg[f];
      }
    }
    received++;
    window.flagfall.lastAt = Date.now();
    var st = boards[k];
    // a board that starts its next game has one more earlier game to list (rare: fetched, jittered);
    // a result is known here already (drawn from the stream)
    if (before && (count(st) < before.n || (before.result !== "*" && st.result === "*"))) gamesChanged();
    else if ((before ? before.result !== st.result : st.result !== "*") && PAGE !== "board") resultsChanged();
    render(k);
  }

  function count(st) { return st.moves ? st.moves.length : st.n; }

  function refetch(k) {
    getJson("/api/board/" + k).then(function (x) {
      var st = x[1];
      if (x[0] !== 200 || !st) return;
      delete st.pgn;
      st.k = k;
      if (PAGE !== "board") {        // as the summary view has it
        st.n = st.moves.length;
        st.last = st.n ? st.moves[st.n - 1] : null;
        delete st.moves;
        delete st.clocks;
        delete st.position;
      }
      if (!boards[k] || boards[k].seq < st.seq) { boards[k] = st; render(k); }
    });
  }

  function connect() {
    var conn = document.getElementById("conn");
    if (ARCHIVED !== null) { loadArchived(); return; }
    if (es) es.close();
    es = new EventSource(streamUrl());
    es.addEventListener("hello", function (ev) {
      var h = JSON.parse(ev.data);
      offset = h.now - Date.now();
      conn.textContent = "live";
      conn.className = "conn on";
    });
    // one `u` frame per tick carries every board that changed since the last one
    es.addEventListener("u", function (ev) { streamBytes += ev.data.length; JSON.parse(ev.data).forEach(apply); });
    es.onerror = function () { conn.textContent = "reconnecting"; conn.className = "conn off"; };
  }

  // -- squares, pieces, the position as text ---------------------------------

  var family = window.pieces.family, draughtsNumber = window.pieces.draughtsNumber;

  function squareName(game, grid, r, c) {
    var fam = family(game);
    if (fam === "chess") return FILES.charAt(c) + (grid.length - r);
    if (fam === "minzu") return ROWS.charAt(r) + c;
    return String(draughtsNumber(grid, r, c));
  }

  function pieceName(game, ch) {
    var fam = family(game);
    if (fam === "chess") return (ch === ch.toUpperCase() ? "white " : "black ") + PIECE_NAMES[ch.toLowerCase()];
    if (fam === "minzu") return ch === "x" ? "light stone" : (ch === "o" ? "dark stone" : "marked stone");
    return (ch === "w" || ch === "W" ? "white " : "black ") + (ch === "W" || ch === "B" ? "king" : "man");
  }

  // "white king g1, white rook f1, ...; black ...": what a screen reader reads for a board
  function positionText(st, grid) {
    var groups = {}, order = [];
    for (var r = 0; r < grid.length; r++) {
      for (var c = 0; c < grid[r].length; c++) {
        var ch = grid[r].charAt(c);
        if (ch === ".") continue;
        var nm = pieceName(st.game, ch);
        if (!groups[nm]) { groups[nm] = []; order.push(nm); }
        groups[nm].push(squareName(st.game, grid, r, c));
      }
    }
    order.sort();
    function plural(nm) { return /man$/.test(nm) ? nm.replace(/man$/, "men") : nm + "s"; }
    return order.map(function (nm) { return (groups[nm].length > 1 ? plural(nm) : nm) + " " + groups[nm].join(" "); }).join("; ") || "empty board";
  }

  function drawBoard(st, grid, lastMove, flip, big, label) {
    return window.pieces.board(st.game, grid, { last: lastMove, flip: flip, big: big,
                                                label: label + ": " + positionText(st, grid) });
  }

  // -- players, clocks, status -------------------------------------------------

  function tag(st, side, what) { return (st.tags && st.tags[(side === "white" ? "White" : "Black") + what]) || ""; }

  function name(st, side) { return tag(st, side, "") || "?"; }

  function player(st, side) {
    var elo = tag(st, side, "Elo");
    return name(st, side) + (elo ? " (" + elo + ")" : "");
  }

  function fullPlayer(st, side) {
    var t = tag(st, side, "Title"), fed = tag(st, side, "Fed");
    return (t ? t + " " : "") + player(st, side) + (fed ? ", " + fed : "");
  }

  function sideName(st, side) { return st.side_names ? st.side_names[side === "white" ? 0 : 1] : side; }

  // a federation's flag (shipped with the page: static/flags, flag-icons, MIT), the code where none is shipped
  function flag(fed) {
    if (!/^[A-Z]{3}$/.test(fed || "")) return null;
    var img = el("img", "flag");
    img.src = "/static/flags/" + fed + ".svg";
    img.alt = fed;
    img.title = fed;
    img.width = 16;
    img.height = 12;
    img.addEventListener("error", function () { img.replaceWith(el("span", "fed", fed)); });
    return img;
  }

  function playerLabel(st, side, cls) {
    var who = el("span", cls);
    var fl = flag(tag(st, side, "Fed"));
    if (fl) who.appendChild(fl);
    var t = tag(st, side, "Title");
    if (t) who.appendChild(el("abbr", "title", t));
    who.appendChild(el("span", "pname", name(st, side)));
    var elo = tag(st, side, "Elo");
    if (elo) who.appendChild(el("span", "elo", elo));
    who.title = sideName(st, side) + ": " + fullPlayer(st, side);     // the whole name, if it is ever cut
    return who;
  }

  function clockRow(st, side, parts) {
    var row = el("div", "player " + side);
    var dot = el("span", "side s-" + side);
    dot.title = sideName(st, side);
    dot.setAttribute("aria-label", sideName(st, side));
    row.appendChild(dot);
    row.appendChild(playerLabel(st, side, "who"));
    var clk = el("span", "clock", "");
    clk.setAttribute("data-side", side);
    row.appendChild(clk);
    parts[side] = clk;
    return row;
  }

  // the clocks at the start: the time control's base ("5400+30", "W300-B240" Armageddon, "40/5400:1800")
  function startMs(st, side) {
    var tc = (st.clock && st.clock.tc) || (st.tags && st.tags.TimeControl) || "";
    var arm = /^W(\d+)[^B]*B(\d+)/.exec(tc);
    if (arm) return 1000 * parseInt(side === "white" ? arm[1] : arm[2], 10);
    var m = /^(?:\d+\/)?(\d+)/.exec(tc);
    return m ? 1000 * parseInt(m[1], 10) : null;
  }

  function shownPly(st) {   // the ply the board page shows (null: live)
    return PAGE === "board" && nav.view !== null ? nav.view : null;
  }

  function updateClocks(k) {
    var st = boards[k], c = cards[k];
    if (!st || !c) return;
    var now = serverNow();
    var v = shownPly(st);
    var past = v !== null && (v === 0 ? [startMs(st, "white"), startMs(st, "black")] : st.clocks && st.clocks[v - 1]);
    ["white", "black"].forEach(function (side) {
      var e = c.clocks[side];
      if (!e) return;
      // a board whose device is away (unplugged, silent) shows its clock as last read, as the dashboard does
      var frozen = !past && deviceAway(st);
      var ms = past ? past[side === "white" ? 0 : 1] : frozen ? st.clock[side + "_ms"] : clockfmt.sideMs(st.clock, side, now);
      var unknown = ms === null || ms === undefined || ms < 0;    // -1: a clock nothing told (no device)
      var text = unknown ? UNKNOWN_CLOCK : clockfmt.formatMs(ms, st.clock.tc === "-");
      if (e.textContent !== text) e.textContent = text;
      var running = st.clock.running === side && !st.clock.flag && !frozen;
      var cls = past ? "clock past" : "clock" + (running ? " running" : "") + (frozen ? " frozen" : "")
        + (st.clock.flag === side ? " flagged" : "")
        + (running && now - st.clock.at_ms < (st.clock.delay_ms || 0) ? " delay" : "")
        + (!unknown && ms < clockfmt.TENTHS_BELOW_MS && st.clock.tc !== "-" ? " low" : "");
      if (e.className !== cls) e.className = cls;
    });
    if (c.since) {
      var text2 = "";
      if (v === null && st.result === "*" && st.moved_at && count(st)) text2 = ago(now - st.moved_at) + " ago";
      if (c.since.textContent !== text2) c.since.textContent = text2;
    }
  }

  function ago(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    if (s < 60) return s + " s";
    if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60 < 10 ? "0" : "") + (s % 60) + " s";
    return Math.floor(s / 3600) + " h " + Math.floor(s / 60) % 60 + " min";
  }

  var UNKNOWN_CLOCK = "\u2014";     // a clock that is not known (live.UNKNOWN_DISPLAY)

  function deviceAway(st) { return st.status === "disconnected" || st.status === "silent"; }

  function reason(st) {
    var t = (st.tags && st.tags.Termination) || st.decision_reason || "";
    return t.replace(/\s*\((FIDE|rule)[^)]*\)\s*$/, "");
  }

  function resultText(st) {
    var why = reason(st);
    var res = st.decision || st.result;
    return res + (why ? " \u00b7 " + why : "");
  }

  function statusText(st) {
    if (st.result && st.result !== "*") return resultText(st);
    if (st.status === "alert" || st.alert) return PUBLIC_ALERT;     // never the alert's own text
    if (st.status === "playing") return sideName(st, st.to_move) + " to move";
    return st.status;
  }

  function moveLabel(n, text) {
    var num = Math.floor((n + 1) / 2);
    return num + (n % 2 ? ". " : "... ") + text;
  }

  function lastMoveText(st) {
    var v = shownPly(st);
    if (v !== null) return v === 0 ? "start position" : moveLabel(v, st.moves[v - 1]);
    var n = count(st);                     // summary view: `n` moves, the `last` one
    if (!n) return "start";
    return moveLabel(n, st.moves ? st.moves[n - 1] : st.last);
  }

  function roundLabel(st) {
    return (st.tags && st.tags.Event ? st.tags.Event + " \u00b7 " : "") + "round " + st.round;
  }

  function buildCard(k, st, big, shown) {
    var root = el("article", "card" + (big ? " wide" : ""));
    root.setAttribute("data-board", k);
    var head = el("div", "card-head");
    var title = big ? el("span", "bname", "Board " + st.board) : link("bname", "Board " + st.board, "/board/" + k);
    head.appendChild(title);
    var rl = el("span", "round", roundLabel(st));
    rl.title = rl.textContent;
    head.appendChild(rl);
    root.appendChild(head);
    var clocks = {};
    var flip = (st.orientation === "black") !== (big && nav.flipped);
    var top = flip ? "white" : "black";
    var bottom = top === "white" ? "black" : "white";
    root.appendChild(clockRow(st, top, clocks));
    var label = "Board " + st.board + ", " + st.game + ", " + player(st, "white") + " against " + player(st, "black")
      + ", " + lastMoveText(st);
    root.appendChild(drawBoard(st, shown ? shown.grid : st.grid, shown ? shown.last_move : st.last_move, flip, big, label));
    root.appendChild(clockRow(st, bottom, clocks));
    var foot = el("div", "card-foot");
    foot.appendChild(el("span", "lastmove", lastMoveText(st)));
    var since = el("span", "since", "");
    since.title = "time since the last move";
    foot.appendChild(since);
    var v = shownPly(st);      // a move viewed: the footer says where in the game, not who moves now
    foot.appendChild(el("span", "status s-" + st.status, v === null ? statusText(st) : "move " + v + " of " + count(st)));
    root.appendChild(foot);
    return { root: root, clocks: clocks, since: since, seq: st.seq };
  }

  function buildRow(k, st) {
    // the overview: one line per board, players, clocks, result (works from 320 px to a hall screen)
    var root = el("article", "row");
    root.setAttribute("data-board", k);
    var b = link("bno", st.board, "/board/" + k);
    b.title = "Board " + st.board + " (" + roundLabel(st) + ")";
    b.setAttribute("aria-label", "Board " + st.board);
    root.appendChild(b);
    var clocks = {};
    ["white", "black"].forEach(function (side) {
      var who = playerLabel(st, side, "who " + side);
      var clk = el("span", "clock", "");
      clk.setAttribute("data-side", side);
      clocks[side] = clk;
      if (side === "white") { root.appendChild(who); root.appendChild(clk); }
      else {
        var res = el("span", "res s-" + st.status, st.result !== "*" ? st.result : (st.status === "alert" ? PUBLIC_ALERT : lastMoveText(st)));
        res.title = statusText(st);
        root.appendChild(res); root.appendChild(clk); root.appendChild(who);
      }
    });
    return { root: root, clocks: clocks, seq: st.seq };
  }

  function render(k) {
    var st = boards[k];
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    if (PAGE === "board") { renderSingle(k, st); return; }
    var container = document.getElementById("boards");
    var card = LIST ? buildRow(k, st) : buildCard(k, st, false);
    var old = cards[k];
    if (old) container.replaceChild(card.root, old.root);
    else insertSorted(container, k, card.root);
    cards[k] = card;
    updateClocks(k);
    feedLinks();
    if (!FILTER.r) roundTitle(st.tournament, st.round);
  }

  function insertSorted(container, k, node) {
    var keys = Object.keys(cards).sort(natural);
    for (var i = 0; i < keys.length; i++) {
      if (natural(k, keys[i]) < 0) { container.insertBefore(node, cards[keys[i]].root); return; }
    }
    container.appendChild(node);
  }

  function feedLinks() {
    var navEl = document.getElementById("feeds");
    var rounds = {};
    Object.keys(boards).forEach(function (k) {
      var st = boards[k];
      var fmt = st.game === "chess" || st.game === "chess960" ? "pgn" : (st.game === "minzu" ? null : "pdn");
      if (fmt) rounds["/feed/" + st.tournament + "/" + st.round + "." + fmt] = "round " + st.round + " " + fmt.toUpperCase();
    });
    var urls = Object.keys(rounds).sort();
    if (navEl.getAttribute("data-urls") === urls.join(" ")) return;
    navEl.setAttribute("data-urls", urls.join(" "));
    navEl.textContent = "";
    urls.forEach(function (u) { navEl.appendChild(link("feed", rounds[u], u)); });
  }

  // -- overview: rounds, view switch, finished games, standings -------------------

  function roundQuery(t, r, extra) {
    var q = [];
    if (t) q.push("t=" + encodeURIComponent(t));
    if (r) q.push("r=" + encodeURIComponent(r));
    return "?" + q.concat(extra || []).join("&");
  }

  function viewLinks() {
    var b = document.getElementById("view-boards"), l = document.getElementById("view-list");
    if (!b) return;
    var r = CHOSEN ? FILTER.r : null;      // on the current round the other view follows the current round too
    b.href = roundQuery(FILTER.t, r, EMBED ? ["embed=1"] : []);
    l.href = roundQuery(FILTER.t, r, ["view=list"].concat(EMBED ? ["embed=1"] : []));
    b.className = LIST ? "" : "on";
    l.className = LIST ? "on" : "";
    if (LIST) document.getElementById("boards").className = "boards list";
  }

  function roundTitle(t, r) {
    var h = document.getElementById("round-title");
    if (h && r) h.textContent = "Round " + r + (t ? " \u00b7 " + t : "");
  }

  var rounds = [];          // [{t, r, boards, finished, playing}] of the tournament shown, in order
  function loadRounds(first) {
    var url = "/api/rounds" + (FILTER.t ? "?t=" + encodeURIComponent(FILTER.t) : "");
    return getJson(url).then(function (x) {
      if (x[0] !== 200) return;
      var all = x[1].rounds;
      if (!all.length) return;
      var t = FILTER.t || currentOf(all).t;
      rounds = all.filter(function (d) { return d.t === t; });
      var cur = currentOf(rounds);
      if (!CHOSEN && (FILTER.t !== cur.t || FILTER.r !== cur.r)) {
        showRound(cur.t, cur.r, first);       // the current round first; a new round when it begins
      }
      drawRoundNav();
    });
  }

  // the round shown when none is asked for: the newest one with games being played, else the newest
  function currentOf(list) {
    for (var i = list.length - 1; i >= 0; i--) if (list[i].playing) return list[i];
    return list[list.length - 1];
  }

  function drawRoundNav() {
    var navEl = document.getElementById("rounds");
    if (!navEl) return;
    navEl.textContent = "";
    var cur = rounds.length ? currentOf(rounds) : null;
    rounds.forEach(function (d) {
      var live = d.playing > 0;
      var a = el("a", d.r === FILTER.r ? "on" : "", "Round " + d.r + (live ? " \u00b7 live" : ""));
      a.href = roundQuery(d.t, d === cur ? null : d.r, (LIST ? ["view=list"] : []).concat(EMBED ? ["embed=1"] : []));
      if (d.r === FILTER.r) a.setAttribute("aria-current", "page");
      a.title = d.boards + " boards, " + d.finished + " finished" + (live ? "" : " (archived)");
      a.setAttribute("data-round", d.r);
      navEl.appendChild(a);
    });
    navEl.hidden = rounds.length < 2;
  }

  // show another round in place (no reload): the stream, the boards, the finished games, the standings
  function showRound(t, r, first) {
    FILTER.t = t;
    FILTER.r = r;
    Object.keys(cards).forEach(function (k) { cards[k].root.remove(); delete cards[k]; });
    Object.keys(boards).forEach(function (k) { delete boards[k]; });
    earlier = [];
    roundTitle(t, r);
    viewLinks();
    connect();
    loadRoundExtras();
    if (!first) drawRoundNav();
  }

  var finishedTimer = null;
  var earlier = [];           // [board key, game line] of the boards' earlier games (from /api/round)
  function gamesChanged() {
    if (finishedTimer) return;
    finishedTimer = setTimeout(function () {
      finishedTimer = null;
      if (PAGE === "board") loadGames(); else loadRoundExtras();
    }, 1000 + Math.random() * 4000);    // many pages must not all ask at the same moment
  }

  // once per round shown (and when a board starts its next game): earlier games and standings
  function loadRoundExtras() {
    if (!FILTER.t || !FILTER.r) return;
    var t = FILTER.t, r = FILTER.r;
    getJson("/api/round/" + encodeURIComponent(t) + "/" + encodeURIComponent(r)).then(function (x) {
      if (x[0] !== 200 || FILTER.r !== r) return;
      earlier = [];
      x[1].boards.forEach(function (b) { b.earlier.forEach(function (g) { earlier.push([b.k, g]); }); });
      drawFinished();
    });
    loadStandings();
  }

  var standingsTimer = null;
  function resultsChanged() {
    drawFinishedSoon();
    if (!standingsTimer) standingsTimer = setTimeout(function () { standingsTimer = null; loadStandings(); },
                                                     1500 + Math.random() * 3000);
  }

  function loadStandings() {
    var sec = document.getElementById("standings");
    if (!sec || !/^\d+$/.test(FILTER.r || "")) return;
    var t = FILTER.t, r = FILTER.r;
    getJson("/api/standings/" + encodeURIComponent(t) + "/" + r).then(function (x) {
      if (x[0] !== 200 || FILTER.r !== r) return;
      drawMatches(x[1].teams, r);
      if (!x[1].complete && r !== "1") {
        // the round is being played: the table after the previous one, with this round's results so far below it
        return getJson("/api/standings/" + encodeURIComponent(t) + "/" + (parseInt(r, 10) - 1)).then(function (y) {
          if (y[0] === 200 && FILTER.r === r) drawStandings(y[1], "after round " + (parseInt(r, 10) - 1));
        });
      }
      var any = x[1].tables.some(function (tb) { return tb.rows.some(function (row) { return row.played || row.points; }); });
      if (x[1].complete || any) drawStandings(x[1], x[1].complete ? "after round " + r : "during round " + r + " (finished games only)");
    });
  }

  function fmtPoints(p) { return (Math.round(p * 2) / 2).toString().replace(/\.5$/, "\u00bd").replace(/^0\u00bd$/, "\u00bd"); }

  // a team event's round: each match with its score (from its games, live) and its boards under it
  function drawMatches(teams, r) {
    var sec = document.getElementById("matches");
    if (!sec) return;
    sec.textContent = "";
    sec.hidden = !teams || !teams.matches.length;
    if (sec.hidden) return;
    sec.appendChild(el("h2", null, "Matches of round " + r));
    teams.matches.forEach(function (m) {
      var box = el("div", "match" + (m.finished ? " done" : ""));
      var head = el("p", "match-head");
      head.appendChild(el("span", "team home", m.home));
      var score = m.forfeit === "bye" ? "bye" : fmtPoints(m.home_gp) + " \u2013 " + fmtPoints(m.away_gp);
      head.appendChild(el("span", "match-score", score));
      head.appendChild(el("span", "team away", m.forfeit === "bye" ? "" : m.away));
      if (m.forfeit && m.forfeit !== "bye") head.appendChild(el("span", "hint", " forfeited"));
      box.appendChild(head);
      var ol = el("ol", "match-boards");
      m.boards.forEach(function (b) {
        var li = el("li", "match-board");
        var text = b.number + ". " + (b.white || "\u2014") + " \u2013 " + (b.black || "\u2014") + " " + (b.result || "*");
        if (b.board !== null) li.appendChild(link(null, text, "/board/" + FILTER.t + "/" + r + "/" + b.board + (EMBED ? "?embed=1" : "")));
        else li.appendChild(el("span", "forfeit", text + " (not fielded)"));
        ol.appendChild(li);
      });
      box.appendChild(ol);
      sec.appendChild(box);
    });
  }

  function drawStandings(data, when) {
    var sec = document.getElementById("standings");
    sec.textContent = "";
    var h = el("h2", null, "Standings " + when);
    sec.appendChild(h);
    if (data.teams) sec.appendChild(teamTable(data.teams));
    data.tables.forEach(function (tb) {
      var table = el("table", "standings");
      table.setAttribute("data-game", tb.game);
      if (data.tables.length > 1) table.appendChild(el("caption", null, tb.game));
      var head = el("tr");
      [["#", "rank"], ["Player", null], ["Rtg", "rating"], ["Pts", "points"], ["BH", "Buchholz"], ["SB", "Sonneborn-Berger"], ["W", "wins"]]
        .forEach(function (c) { var th = el("th", null, c[0]); th.scope = "col"; if (c[1]) th.title = c[1]; head.appendChild(th); });
      var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
      var body = el("tbody");
      tb.rows.forEach(function (row) {
        var tr = el("tr");
        tr.appendChild(el("td", "n", String(row.rank)));
        var who = el("td", "who");
        var fl = flag(row.federation);
        if (fl) who.appendChild(fl);
        if (row.title) who.appendChild(el("abbr", "title", row.title));
        who.appendChild(el("span", "pname", row.name));
        tr.appendChild(who);
        tr.appendChild(el("td", "n", row.rating ? String(row.rating) : ""));
        tr.appendChild(el("td", "n pts", fmtPoints(row.points)));
        tr.appendChild(el("td", "n", String(Math.round(row.buchholz * 100) / 100)));
        tr.appendChild(el("td", "n", String(Math.round(row.sb * 100) / 100)));
        tr.appendChild(el("td", "n", String(row.wins)));
        body.appendChild(tr);
      });
      table.appendChild(body);
      sec.appendChild(table);
    });
    sec.hidden = false;
  }

  // a team event's standings: match points, game points, the tiebreaks, board points per board
  function teamTable(teams) {
    var table = el("table", "standings teams");
    table.appendChild(el("caption", null, "Teams"));
    var nboards = 0;
    teams.rows.forEach(function (row) { nboards = Math.max(nboards, row.boards.length); });
    var head = el("tr"), cols = [["#", "rank"], ["Team", null], ["MP", "match points"], ["GP", "game points"]];
    // the event's tie-breaks (FIDE codes, the API's words as their titles); MP and GP have their columns
    var shown = teams.tiebreaks.filter(function (c) { return c !== "MPTS" && c !== "GPTS"; });
    shown.forEach(function (c) { cols.push([c, (teams.tiebreak_names || {})[c] || c]); });
    for (var i = 1; i <= nboards; i++) cols.push(["B" + i, "board points on board " + i]);
    cols.forEach(function (c) { var th = el("th", null, c[0]); th.scope = "col"; if (c[1]) th.title = c[1]; head.appendChild(th); });
    var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    var body = el("tbody");
    teams.rows.forEach(function (row) {
      var tr = el("tr");
      tr.appendChild(el("td", "n", String(row.rank)));
      tr.appendChild(el("td", "who", row.name));
      tr.appendChild(el("td", "n pts", String(row.mp)));
      tr.appendChild(el("td", "n", fmtPoints(row.gp)));
      shown.forEach(function (c) {
        var v = row.tiebreaks[c];      // TBR and BBE: a list, board by board
        tr.appendChild(el("td", "n", [].concat(v).map(function (x) { return String(Math.round(x * 100) / 100); }).join(" ")));
      });
      for (var i = 0; i < nboards; i++) tr.appendChild(el("td", "n", i < row.boards.length ? fmtPoints(row.boards[i]) : ""));
      body.appendChild(tr);
    });
    table.appendChild(body);
    return table;
  }

  var drawTimer = null;
  function drawFinishedSoon() {
    if (!drawTimer) drawTimer = setTimeout(function () { drawTimer = null; drawFinished(); }, 300);
  }

  function drawFinished() {
    var list = document.getElementById("finished-list");
    if (!list) return;
    var items = earlier.slice();
    Object.keys(boards).sort(natural).forEach(function (k) {
      var st = boards[k];
      if (st.result !== "*") items.push([k, { White: name(st, "white"), Black: name(st, "black"), result: resultText(st), moves: count(st) }]);
    });
    items.sort(function (a, b) { return natural(a[0], b[0]) || ((a[1].index === undefined) - (b[1].index === undefined)); });
    list.textContent = "";
    items.forEach(function (it) {
      var k = it[0], g = it[1], li = el("li", "fin"), p = k.split("/");
      var a = link(null, "Round " + p[1] + ", board " + p[2] + ": " + g.White + " \u2013 " + g.Black + " " + g.result,
                   "/board/" + k + (g.index !== undefined ? "?game=" + g.index : ""));
      a.title = g.moves + " moves";
      li.appendChild(a);
      list.appendChild(li);
    });
    document.getElementById("finished").hidden = !items.length;
  }

  // -- single board page -----------------------------------------------------

  function renderSingle(k, st) {
    document.title = player(st, "white") + " - " + player(st, "black") + " \u00b7 Flagfall live";
    var n = st.moves.length;
    if (nav.view !== null && nav.view >= n) nav.view = null;      // the game went back (a fix): live again
    var shown = null;
    if (nav.view !== null) {
      shown = knownPly(nav.view);
      if (!shown) loadPlies(st);
    }
    var area = document.getElementById("board-area");
    var card = buildCard(k, st, true, shown);
    area.textContent = "";
    area.appendChild(card.root);
    cards[k] = card;
    updateClocks(k);
    var info = document.getElementById("info");
    info.textContent = "";
    var pl = el("p", "players");
    pl.appendChild(playerLabel(st, "white", "who"));
    pl.appendChild(document.createTextNode(" \u2013 "));
    pl.appendChild(playerLabel(st, "black", "who"));
    info.appendChild(pl);
    if (st.tags.WhiteTeam && st.tags.BlackTeam) {
      // a team event: the board of a match, both teams named (White's team first)
      info.appendChild(el("p", "teams", st.tags.WhiteTeam + " \u2013 " + st.tags.BlackTeam));
    }
    var meta = [];
    ["Event", "Site", "Date"].forEach(function (t) { if (st.tags[t]) meta.push(st.tags[t]); });
    meta.push("round " + st.round + ", board " + st.board);
    if (st.clock.tc) meta.push("time control " + st.clock.tc);
    var metaEl = el("p", "meta", meta.join(" \u00b7 ") + " \u00b7 ");
    metaEl.appendChild(link("round-link", "all boards of round " + st.round,
                            "/" + roundQuery(st.tournament, st.round)));
    info.appendChild(metaEl);
    info.appendChild(el("p", "result", "Result: " + (st.result !== "*" ? resultText(st) : "* (" + (ARCHIVED !== null ? "earlier game" : statusText(st)) + ")")));
    positionBox(st, shown);
    shareBox(k);
    var feedsEl = document.getElementById("feeds");
    feedsEl.textContent = "";
    var fmt = family(st.game) === "chess" ? "pgn" : (st.game === "minzu" ? "txt" : "pdn");
    if (ARCHIVED === null) feedsEl.appendChild(link("feed", fmt.toUpperCase() + " of this game", "/feed/" + k + "." + fmt));
    feedsEl.appendChild(link("feed", "JSON", "/api/board/" + k + (ARCHIVED !== null ? "/games/" + ARCHIVED : "")));
    var ol = document.getElementById("movelist");
    var stick = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 4;
    ol.textContent = "";
    for (var i = 0; i < n; i += 2) {
      var li = el("li", "mv");
      li.appendChild(el("span", "num", (i / 2 + 1) + "."));
      li.appendChild(moveCell(st, i));
      if (i + 1 < n) li.appendChild(moveCell(st, i + 1));
      ol.appendChild(li);
    }
    var cur = ol.querySelector(".san.cur");
    if (cur && nav.view !== null) cur.scrollIntoView({ block: "nearest" });
    else if (stick || nav.view === null) ol.scrollTop = ol.scrollHeight;
    navState(st);
    if (arbiterUnlocked) arbiterAlert();
  }

  // the position as text: FEN (live) and the pieces by square, for screen readers and for copying
  function positionBox(st, shown) {
    var box = document.getElementById("position");
    if (!box) return;
    var fen = document.getElementById("position-fen"), list = document.getElementById("position-pieces");
    var live = nav.view === null;
    fen.textContent = live && st.position ? st.position : "";
    fen.hidden = !fen.textContent;
    list.textContent = positionText(st, shown ? shown.grid : st.grid);
  }

  function shareBox(k) {
    var input = document.getElementById("share-url"), code = document.getElementById("embed-code");
    if (!input) return;
    var url = location.origin + "/board/" + k + (ARCHIVED !== null ? "?game=" + ARCHIVED : "");
    if (input.value !== url) input.value = url;
    var src = location.origin + "/board/" + k + "?embed=1" + (ARCHIVED !== null ? "&game=" + ARCHIVED : "");
    var snippet = '<iframe src="' + src + '" width="420" height="620" title="Flagfall live board" loading="lazy"></iframe>';
    if (code.value !== snippet) code.value = snippet;
  }

  function moveCell(st, i) {
    var cell = el("span", "ply " + (i % 2 ? "b" : "w"));
    var san = el("span", "san", st.moves[i]);
    var ply = i + 1;
    san.setAttribute("data-ply", String(ply));
    san.setAttribute("role", "button");
    san.tabIndex = -1;
    if ((nav.view === null ? st.moves.length : nav.view) === ply) {
      san.className += " cur";
      san.setAttribute("aria-current", "step");
    }
    cell.appendChild(san);
    cell.appendChild(el("span", "t", clockAfter(st, i)));
    return cell;
  }

  function clockAfter(st, i) {
    var c = st.clocks[i];
    if (!c) return "";
    return clockfmt.formatMs(c[i % 2], st.clock.tc === "-");
  }

  function navState(st) {
    var n = st.moves.length;
    var s = document.getElementById("nav-state");
    var live = ARCHIVED !== null ? "end of the game" : "live";
    s.textContent = nav.view === null ? live : (nav.view === 0 ? "start position" : "after " + moveLabel(nav.view, st.moves[nav.view - 1]))
      + (nav.view !== null && !knownPly(nav.view) && nav.plies ? " (position not known)" : "");
    document.getElementById("nav-live").className = nav.view === null ? "" : "away";
    document.getElementById("nav-prev").disabled = nav.view === 0 || n === 0;
    document.getElementById("nav-first").disabled = nav.view === 0 || n === 0;
    document.getElementById("nav-next").disabled = nav.view === null;
    document.getElementById("nav-live").disabled = nav.view === null;
  }

  function knownPly(v) {
    if (!nav.plies) return null;
    var st = boards[KEY];
    if (nav.pliesSeq !== st.seq && v >= nav.plies.length) return null;
    return nav.plies[v] || null;
  }

  function loadPlies(st) {
    if (nav.loading || nav.pliesSeq === st.seq || ARCHIVED !== null) return;
    nav.loading = true;
    getJson("/api/board/" + KEY + "/plies").then(function (x) {
      nav.loading = false;
      if (x[0] !== 200) return;
      nav.plies = x[1].plies;
      nav.pliesSeq = x[1].seq;
      if (boards[KEY]) renderSingle(KEY, boards[KEY]);
    }, function () { nav.loading = false; });
  }

  function setView(v) {
    var st = boards[KEY];
    if (!st) return;
    var n = st.moves.length;
    if (v !== null && v >= n) v = null;
    if (v !== null && v < 0) v = 0;
    nav.view = v;
    renderSingle(KEY, st);
  }

  function step(d) {
    var st = boards[KEY];
    if (!st) return;
    var cur = nav.view === null ? st.moves.length : nav.view;
    setView(cur + d);
  }

  function boardControls() {
    if (PAGE !== "board") return;
    function on(id, fn) { document.getElementById(id).addEventListener("click", fn); }
    on("nav-first", function () { setView(0); });
    on("nav-prev", function () { step(-1); });
    on("nav-next", function () { step(1); });
    on("nav-live", function () { setView(null); });
    on("nav-flip", function () { nav.flipped = !nav.flipped; if (boards[KEY]) renderSingle(KEY, boards[KEY]); });
    on("share-copy", function () {
      var input = document.getElementById("share-url"), out = document.getElementById("share-out");
      var done = function () { out.textContent = "link copied"; };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
      else { input.select(); out.textContent = "link selected: copy it with Ctrl+C"; }
    });
    document.getElementById("movelist").addEventListener("click", function (ev) {
      var t = ev.target;
      if (t && t.getAttribute && t.getAttribute("data-ply")) setView(parseInt(t.getAttribute("data-ply"), 10));
    });
    document.addEventListener("keydown", function (ev) {
      var tag = (ev.target && ev.target.tagName) || "";
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      var handled = true;
      if (ev.key === "ArrowLeft") step(-1);
      else if (ev.key === "ArrowRight") step(1);
      else if (ev.key === "Home" || ev.key === "ArrowUp") setView(0);
      else if (ev.key === "End" || ev.key === "ArrowDown") setView(null);
      else if (ev.key === "f") document.getElementById("nav-flip").click();
      else handled = false;
      if (handled) ev.preventDefault();
    });
  }

  function loadGames() {
    if (PAGE !== "board") return;
    getJson("/api/board/" + KEY + "/games").then(function (x) {
      if (x[0] !== 200) return;
      var list = document.getElementById("games-list");
      list.textContent = "";
      x[1].games.forEach(function (g) {
        var li = el("li");
        li.appendChild(link(null, g.White + " \u2013 " + g.Black + "  " + g.result + " (" + g.moves + " moves)",
                            "/board/" + KEY + "?game=" + g.index + (EMBED ? "&embed=1" : "")));
        list.appendChild(li);
      });
      if (ARCHIVED !== null) {
        var li = el("li");
        li.appendChild(link(null, "the game being played now", "/board/" + KEY + (EMBED ? "?embed=1" : "")));
        list.appendChild(li);
      }
      document.getElementById("games").hidden = !list.children.length;
    });
  }

  function loadArchived() {
    var conn = document.getElementById("conn");
    conn.textContent = "earlier game";
    conn.className = "conn";
    getJson("/api/board/" + KEY + "/games/" + ARCHIVED).then(function (x) {
      if (x[0] !== 200) { document.getElementById("empty").textContent = (x[1] && x[1].error) || "no such game"; return; }
      var st = x[1];
      nav.plies = st.plies;
      nav.pliesSeq = st.seq;
      delete st.plies;
      delete st.pgn;
      st.clock = Object.assign({}, st.clock, { running: null });   // a finished game's clocks stand still
      boards[KEY] = st;
      render(KEY);
    });
  }

  // -- arbiter panel: only once the token is entered (and checked); never in an embedded view ----

  var arbiterUnlocked = false;
  var arbiterPenalty = null;     // the penalty the illegal-move alert up proposes: {side, text}, or null
  function arbiterAlert() {      // the alert's full text: the arbiter's only
    var out = document.getElementById("arb-alert");
    getJson("/api/board/" + KEY + "/alert", { "Authorization": "Bearer " + sessionStorage.getItem("flagfall-token") })
      .then(function (x) {
        out.textContent = x[0] === 200 && x[1].alert ? "Alert: " + x[1].alert : "";
        // "Apply penalty" only while an illegal-move alert is up, naming the side and what it costs
        arbiterPenalty = x[0] === 200 && x[1].penalty ? x[1].penalty : null;
        document.getElementById("arb-penalty-row").hidden = !arbiterPenalty;
        document.getElementById("arb-penalty-go").textContent =
          arbiterPenalty ? "Apply penalty: " + arbiterPenalty.text : "Apply penalty";
      });
  }

  function arbiterSetup() {
    if (PAGE !== "board" || ARCHIVED !== null || EMBED) {
      var sec = document.getElementById("arbiter");
      if (sec) sec.hidden = true;
      return;
    }
    var k = KEY;
    var tok = document.getElementById("arb-token");
    var out = document.getElementById("arb-out");
    var login = document.getElementById("arb-login"), actions = document.getElementById("arb-actions");
    var open = document.getElementById("arb-open");
    var results = {};          // game -> the results it may end with (from the server's registry)
    var resultSel = document.getElementById("arb-result");
    function fillResults() {
      var st = boards[k], want = st && results[st.game] ? results[st.game] : [];
      if (resultSel.dataset.game === (st && st.game)) return;
      resultSel.dataset.game = st ? st.game : "";
      resultSel.textContent = "";
      want.forEach(function (r) { var o = el("option", null, r === "*" ? "* (take the result back)" : r); o.value = r; resultSel.appendChild(o); });
    }
    resultSel.addEventListener("focus", fillResults);
    function unlock(token, quiet) {
      getJson("/api/arbiter/check", { "Authorization": "Bearer " + token }).then(function (x) {
        if (x[0] === 200) {
          results = (x[1] && x[1].results) || {};
          fillResults();
          sessionStorage.setItem("flagfall-token", token);
          login.hidden = true;
          open.hidden = true;
          actions.hidden = false;
          arbiterUnlocked = true;
          out.textContent = "arbiter actions unlocked for this tab";
          arbiterAlert();
        } else if (!quiet) {
          out.textContent = "refused (" + x[0] + "): " + (x[1] && x[1].error);
        } else {
          sessionStorage.removeItem("flagfall-token");
        }
      });
    }
    open.addEventListener("click", function () { login.hidden = !login.hidden; if (!login.hidden) tok.focus(); });
    document.getElementById("arb-unlock").addEventListener("click", function () { unlock(tok.value.trim(), false); });
    tok.addEventListener("keydown", function (ev) { if (ev.key === "Enter") unlock(tok.value.trim(), false); });
    document.getElementById("arb-lock").addEventListener("click", function () {
      sessionStorage.removeItem("flagfall-token");
      tok.value = "";
      actions.hidden = true;
      open.hidden = false;
      arbiterUnlocked = false;
      out.textContent = "";
      document.getElementById("arb-alert").textContent = "";
      document.getElementById("arb-penalty-row").hidden = true;
    });
    var saved = sessionStorage.getItem("flagfall-token");
    if (saved) unlock(saved, true);
    function send(body) {
      fetch("/api/board/" + k + "/arbiter", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Authorization": "Bearer " + sessionStorage.getItem("flagfall-token") },
        body: JSON.stringify(body)
      }).then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); })
        .then(function (x) { out.textContent = x[0] === 200 ? "done: " + body.action : "refused (" + x[0] + "): " + x[1].error; })
        .catch(function (e) { out.textContent = "failed: " + e; });
    }
    function on(id, fn) { document.getElementById(id).addEventListener("click", fn); }
    on("arb-result-go", function () {
      fillResults();
      var st = boards[k], r = resultSel.value;
      if (!r) { out.textContent = "no result to set yet (the board's state has not arrived)"; return; }
      var who = st ? " (" + name(st, "white") + " - " + name(st, "black") + ")" : "";
      if (confirm("Board " + (st ? st.board : k) + who + ": set the result " + r + "?")) send({ action: "result", result: r });
    });
    on("arb-clock-go", function () {
      send({ action: "clock", side: document.getElementById("arb-side").value,
             delta_ms: Math.round(parseFloat(document.getElementById("arb-secs").value) * 1000) });
    });
    on("arb-fix-go", function () {
      send({ action: "fix_move", ply: parseInt(document.getElementById("arb-ply").value, 10) - 1,
             move: document.getElementById("arb-move").value });
    });
    on("arb-promo-go", function () { send({ action: "promotion", piece: document.getElementById("arb-piece").value }); });
    on("arb-penalty-go", function () {
      var p = arbiterPenalty, st = boards[k];
      if (!p) { out.textContent = "no illegal-move alert is up"; return; }
      var who = st ? " (" + name(st, "white") + " - " + name(st, "black") + ")" : "";
      if (confirm("Board " + (st ? st.board : k) + who + ": apply the penalty for the illegal move?\n" + p.text)) {
        send({ action: "penalty", side: p.side });
      }
    });
    on("arb-restart-go", function () { if (confirm("Restart this board from the start position?")) send({ action: "restart" }); });
  }

  setInterval(function () { Object.keys(cards).forEach(updateClocks); }, 100);
  // a page left must let its stream go at once: a browser holds few connections per server, and
  // a stream still open from each page seen would leave none for the next page's requests
  window.addEventListener("pagehide", function () { if (es) { es.close(); es = null; } });
  boardControls();
  arbiterSetup();
  if (PAGE === "board") {
    loadGames();
    connect();
  } else {
    viewLinks();
    if (CHOSEN) {                 // a round asked for: stream it at once, list the rounds beside
      roundTitle(FILTER.t, FILTER.r);
      connect();
      loadRoundExtras();
      loadRounds(true);
    } else {
      loadRounds(true).then(function () { if (!es) connect(); });   // no boards yet: follow whatever comes
    }
    // a new round begins: the rounds list (and, unless one was asked for, the page) follows
    setInterval(function () { loadRounds(false); }, 20000 + Math.random() * 10000);
  }
})();
